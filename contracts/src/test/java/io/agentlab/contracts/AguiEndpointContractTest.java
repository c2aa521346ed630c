package io.agentlab.contracts;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.agentlab.contracts.AguiEndpointContract.Checked;
import io.agentlab.contracts.AguiEndpointContract.Report;
import io.agentlab.contracts.AguiEndpointContract.Settings;
import io.agentlab.contracts.AguiEndpointContract.Unreadable;
import io.agentlab.kernel.api.InvocationMode;
import io.agentlab.runtime.Conversation;
import io.agentlab.runtime.protocol.RuntimeConfig;
import io.agentlab.runtime.TurnResult;
import io.agentlab.runtime.TurnRuntime;
import io.agentlab.runtime.VisibleSink;
import io.agentlab.agui.AguiEvent;
import io.agentlab.agui.AguiSseCodec;
import io.agentlab.agui.AguiStreamChecker.Violation;
import io.agentlab.runtime.llm.Chunks;
import io.agentlab.runtime.llm.ProviderRegistry;
import io.agentlab.runtime.llm.ScriptedChatProvider;
import io.agentlab.plugins.BuiltInPlugins;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneId;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The endpoint contract over real HTTP against small services: a reference-runtime run served as SSE with resume, and
 * hostile or broken servers. Reading is bounded whatever the server sends, and every input gets a verdict: the broken
 * rule with its real cause, or one line saying what could not be read and where.
 */
class AguiEndpointContractTest {

    private static final String CONTENT = "data: {\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m1\","
            + "\"delta\":\"and again \"}\n\n";

    private HttpServer server;
    private ExecutorService handlers;
    private final CountDownLatch release = new CountDownLatch(1);
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
        handlers = Executors.newCachedThreadPool();
        server.setExecutor(handlers);
        server.createContext("/good", exchange -> send(exchange, "text/event-stream",
                AguiSseCodec.resume(run.audit(), exchange.getRequestHeaders().getFirst("Last-Event-ID"))));
        server.createContext("/plain", exchange -> send(exchange, "text/html; charset=utf-8",
                AguiSseCodec.resume(run.audit(), exchange.getRequestHeaders().getFirst("Last-Event-ID"))));
        server.createContext("/cut", exchange -> {
            String body = AguiSseCodec.encode(run.audit(), 1);
            send(exchange, "text/event-stream", body.substring(0, body.indexOf("TEXT_MESSAGE_CONTENT") + 30));
        });
        server.createContext("/endless", exchange -> endless(exchange, (out) -> {
            out.write(("data: {\"type\":\"RUN_STARTED\",\"threadId\":\"s\",\"runId\":\"r\"}\n\n"
                    + "data: {\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m1\"}\n\n").getBytes(StandardCharsets.UTF_8));
            byte[] frame = CONTENT.getBytes(StandardCharsets.UTF_8);
            while (true) {
                out.write(frame);
            }
        }));
        server.createContext("/endless-line", exchange -> endless(exchange, (out) -> {
            out.write("data: {\"type\":\"RUN_STARTED\",\"threadId\":\"".getBytes(StandardCharsets.UTF_8));
            byte[] chunk = "x".repeat(4096).getBytes(StandardCharsets.UTF_8);
            while (true) {
                out.write(chunk);
            }
        }));
        server.createContext("/silent", exchange -> endless(exchange, (out) -> {
            out.write(": keep-alive\n\n".getBytes(StandardCharsets.UTF_8));
            out.flush();
            release.await();
        }));
        server.createContext("/missing", exchange -> {
            exchange.sendResponseHeaders(404, -1);
            exchange.close();
        });
        server.start();
    }

    @AfterEach
    void stop() {
        release.countDown();
        server.stop(0);
        handlers.shutdownNow();
    }

    private interface Body {
        void write(OutputStream out) throws IOException, InterruptedException;
    }

    /** Streams until the client goes away (a write fails) or the test ends. */
    private static void endless(HttpExchange exchange, Body body) throws IOException {
        exchange.getResponseHeaders().add("Content-Type", "text/event-stream");
        exchange.sendResponseHeaders(200, 0);
        try (OutputStream out = exchange.getResponseBody()) {
            body.write(out);
        } catch (IOException | InterruptedException e) {
            // the checker hung up: the point of the test
        } finally {
            exchange.close();
        }
    }

    private static void send(HttpExchange exchange, String type, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", type);
        exchange.sendResponseHeaders(200, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    private String url(String path) {
        return "http://127.0.0.1:" + server.getAddress().getPort() + path;
    }

    private static List<String> rules(Report report) {
        return report.violations().stream().map(Violation::rule).distinct().toList();
    }

    private static long byteOf(String problem) {
        Matcher at = Pattern.compile("at byte (\\d+)").matcher(problem);
        assertThat(at.find()).as(problem).isTrue();
        return Long.parseLong(at.group(1));
    }

    @Test
    @DisplayName("a service serving a run with Last-Event-ID resume passes every rule")
    void passes() {
        Report report = AguiEndpointContract.check(url("/good"), Settings.defaults().withRunId(run.turnId()));
        assertThat(report).isInstanceOf(Checked.class);
        assertThat(report.violations()).isEmpty();
        assertThat(report.events()).isEqualTo(run.audit().size());
    }

    @Test
    @DisplayName("the requested run is the stream's: another run id breaks ENDPOINT-03 at RUN_STARTED")
    void otherRun() {
        Report report = AguiEndpointContract.check(url("/good"), Settings.defaults().withRunId("s1-t7"));
        assertThat(report.violations()).singleElement().satisfies(v -> assertThat(v.toString())
                .isEqualTo("ENDPOINT-03 at event 1 RUN_STARTED, field /runId: the stream is run " + run.turnId()
                        + ", the request was for run s1-t7"));
    }

    @Test
    @DisplayName("a wrong content type is reported as such (ENDPOINT-01), and the stream is still checked")
    void wrongContentType() {
        Report report = AguiEndpointContract.check(url("/plain"), Settings.defaults());
        assertThat(report).isInstanceOf(Checked.class);
        assertThat(rules(report)).containsExactly("ENDPOINT-01");
        assertThat(report.violations().get(0).message()).contains("'text/html; charset=utf-8'")
                .contains("not text/event-stream");
    }

    @Test
    @DisplayName("a stream closed in the middle of an event is reported as closed mid-frame, with what it cut off")
    void closedMidEvent() {
        Report report = AguiEndpointContract.check(url("/cut"), Settings.defaults());
        assertThat(report).isInstanceOf(Checked.class);
        assertThat(rules(report)).contains("ENDPOINT-02", "AGUI1-01", "AGUI1-07");
        assertThat(report.violations()).filteredOn(v -> v.rule().equals("ENDPOINT-02")).singleElement()
                .satisfies(v -> assertThat(v.message()).startsWith("the stream closed in the middle of its last frame"));
    }

    @Test
    @DisplayName("an endless fast stream stops at the event cap: bounded reading, one line saying where")
    void endlessEvents() {
        Report report = AguiEndpointContract.check(url("/endless"), Settings.defaults().withMaxEvents(2_000));
        assertThat(report).isInstanceOfSatisfying(Unreadable.class, unreadable -> {
            assertThat(unreadable.problem()).startsWith("the stream sent more than 2000 events without ending")
                    .contains("--max-events").doesNotContain("\n");
            assertThat(unreadable.events()).isEqualTo(2_000);
            assertThat(byteOf(unreadable.problem())).isLessThanOrEqualTo(2_001L * CONTENT.length() + 200);
        });
    }

    @Test
    @DisplayName("an endless line stops at the frame cap: never more than the cap held or read for one frame")
    void endlessLine() {
        Report report = AguiEndpointContract.check(url("/endless-line"), Settings.defaults()
                .withMaxFrameBytes(64 * 1024));
        assertThat(report).isInstanceOfSatisfying(Unreadable.class, unreadable -> {
            assertThat(unreadable.problem()).startsWith("frame 1 is longer than the 65536-byte cap")
                    .contains("--max-frame-bytes");
            assertThat(byteOf(unreadable.problem())).isLessThanOrEqualTo(64 * 1024 + 1);
        });
    }

    @Test
    @DisplayName("a server that never ends the stream is cut off at the deadline, saying so")
    void deadline() {
        Report report = AguiEndpointContract.check(url("/silent"), Settings.defaults()
                .withTimeout(Duration.ofMillis(500)));
        assertThat(report).isInstanceOfSatisfying(Unreadable.class, unreadable -> assertThat(unreadable.problem())
                .isEqualTo("the stream did not end within 500 ms (--timeout raises it)"));
    }

    @Test
    @DisplayName("unreadable endpoints: the status, a refused connection, a URL that is not one, each in one line")
    void unreadable() throws IOException {
        assertThat(AguiEndpointContract.check(url("/missing"), Settings.defaults()))
                .isInstanceOfSatisfying(Unreadable.class, u -> assertThat(u.problem())
                        .isEqualTo("GET answered HTTP 404 (an AG-UI endpoint answers 200 with an SSE stream)"));
        // bound and never listening: refused while held, and no other process can take the port meanwhile
        try (java.net.Socket held = new java.net.Socket()) {
            held.bind(new java.net.InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), 0));
            int closed = held.getLocalPort();
            assertThat(AguiEndpointContract.check("http://127.0.0.1:" + closed + "/x", Settings.defaults()))
                    .isInstanceOfSatisfying(Unreadable.class, u -> assertThat(u.problem())
                            .startsWith("cannot connect to 127.0.0.1:" + closed));
        }
        assertThat(AguiEndpointContract.check("localhost:8080/runs", Settings.defaults()))
                .isInstanceOfSatisfying(Unreadable.class, u -> assertThat(u.problem())
                        .isEqualTo("not an http or https URL"));
        assertThat(AguiEndpointContract.checkFile(Path.of("no/such/stream.sse"), Settings.defaults()))
                .isInstanceOfSatisfying(Unreadable.class, u -> assertThat(u.problem()).isEqualTo("no such file"));
    }

    @Test
    @DisplayName("the audit stream's events survive the trip: the report counts each of them")
    void countsEvents() {
        Report report = AguiEndpointContract.check(url("/good"), Settings.defaults());
        assertThat(report.events()).isEqualTo(run.audit().size());
        assertThat(run.audit()).extracting(AguiEvent::type).contains(AguiEvent.TOOL_CALL_RESULT);
    }
}
