package io.agentlab.engine.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.agentlab.kernel.api.InvocationMode;
import io.agentlab.kernel.runtime.Conversation;
import io.agentlab.kernel.runtime.RuntimeConfig;
import io.agentlab.kernel.runtime.TurnResult;
import io.agentlab.kernel.runtime.TurnRuntime;
import io.agentlab.kernel.runtime.VisibleSink;
import io.agentlab.kernel.runtime.audit.AguiEvent;
import io.agentlab.kernel.runtime.audit.AguiSseCodec;
import io.agentlab.kernel.runtime.llm.Chunks;
import io.agentlab.kernel.runtime.llm.ProviderRegistry;
import io.agentlab.kernel.runtime.llm.ScriptedChatProvider;
import io.agentlab.plugins.BuiltInPlugins;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The endpoint contract over real HTTP against a small service serving a reference-runtime run as SSE. */
class AguiEndpointContractTest {

    private HttpServer server;
    private TurnResult run;

    @BeforeEach
    void serve() throws IOException {
        ScriptedChatProvider provider = new ScriptedChatProvider().enqueue(Chunks.stream("m").content("Volume ", "30.")
                .toolCall(0, "call_1", "device_volume_adjust", "{\"mode\":\"absolute\",\"value\":30}")
                .finish("tool_calls").done().payloads());
        try (TurnRuntime runtime = TurnRuntime.builder().plugins(BuiltInPlugins.withInMemoryPorts())
                .providers(new ProviderRegistry().register("p", provider))
                .config(RuntimeConfig.of(InvocationMode.CHAT_AGENT_TOOLS, "p", "m", "You are Pip.")).build()) {
            run = runtime.runTurn(new Conversation("s1", ZoneId.of("UTC"), Locale.ENGLISH), "set the volume to 30",
                    VisibleSink.discard());
        }
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/good", exchange -> respond(exchange, run.audit(), true));
        server.createContext("/no-resume", exchange -> respond(exchange, run.audit(), false));
        List<AguiEvent> leaky = new ArrayList<>(run.audit());
        Map<String, Object> withCost = new LinkedHashMap<>(leaky.get(leaky.size() - 1).fields());
        withCost.put("cost", 0.0002);
        leaky.set(leaky.size() - 1, new AguiEvent(leaky.get(leaky.size() - 1).type(), withCost));
        server.createContext("/leaky", exchange -> respond(exchange, leaky, true));
        server.createContext("/missing", exchange -> {
            exchange.sendResponseHeaders(404, -1);
            exchange.close();
        });
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private String url(String path) {
        return "http://127.0.0.1:" + server.getAddress().getPort() + path;
    }

    private static void respond(HttpExchange exchange, List<AguiEvent> events, boolean honourLastEventId)
            throws IOException {
        byte[] body = AguiSseCodec.resume(events, honourLastEventId ? exchange.getRequestHeaders()
                .getFirst("Last-Event-ID") : null).getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "text/event-stream");
        exchange.sendResponseHeaders(200, body.length);
        exchange.getResponseBody().write(body);
        exchange.close();
    }

    @Test
    @DisplayName("a service serving a run with Last-Event-ID resume passes every rule")
    void passes() {
        AguiEndpointContract.Report report = AguiEndpointContract.check(url("/good"), run.turnId(), Duration.ofSeconds(10));
        assertThat(report.violations()).isEmpty();
        assertThat(report.frames()).hasSize(run.audit().size());
    }

    @Test
    @DisplayName("a service that ignores Last-Event-ID breaks the resume rule, naming the ids")
    void noResume() {
        AguiEndpointContract.Report report = AguiEndpointContract.check(url("/no-resume"), run.turnId(),
                Duration.ofSeconds(10));
        assertThat(report.violations()).singleElement().asString().startsWith("AGUI-RESUME: after Last-Event-ID 1 "
                + "the endpoint sent [1, 2");
    }

    @Test
    @DisplayName("internal usage fields on the wire break a stream rule")
    void leaksCost() {
        AguiEndpointContract.Report report = AguiEndpointContract.check(url("/leaky"), run.turnId(),
                Duration.ofSeconds(10));
        assertThat(report.violations()).anySatisfy(v -> assertThat(v).contains("cost"));
    }

    @Test
    @DisplayName("an unreadable endpoint is a clear error naming the URL and the status")
    void unreadable() {
        assertThatThrownBy(() -> AguiEndpointContract.check(url("/missing"), "r", Duration.ofSeconds(5)))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("/missing").hasMessageContaining("404");
    }
}
