package io.agentlab.kernel.demo;

import com.sun.net.httpserver.HttpServer;
import io.agentlab.kernel.api.EventResult;
import io.agentlab.kernel.api.InvocationMode;
import io.agentlab.runtime.Conversation;
import io.agentlab.runtime.protocol.RuntimeConfig;
import io.agentlab.runtime.TurnResult;
import io.agentlab.runtime.TurnRuntime;
import io.agentlab.runtime.llm.Chunks;
import io.agentlab.runtime.llm.Json;
import io.agentlab.provider.openai.OpenAiCompatibleClient;
import io.agentlab.runtime.llm.ProviderRegistry;
import io.agentlab.runtime.usage.PricingCatalog;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.ZoneId;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * One turn in each mode against a locally served OpenAI-compatible stream, printing the visible text, the events,
 * their results and the turn's metrics.
 *
 * <p>The local server is a stand-in provider: its streams are hand-written (the same answer in both modes, as a
 * hidden block or as native tool calls), paced at {@value #PACE_MS} ms per SSE event, and its usage is a rough model
 * (prompt tokens = request characters / 4), so the timing and token figures show the mechanics and the relative
 * prompt size of the modes, not a provider's behaviour.
 *
 * <p>Run with {@code mvn -B -q compile exec:java -Dexec.mainClass=io.agentlab.kernel.demo.TurnDemo} in
 * {@code examples/demos}, after {@code mvn -B -q install -DskipTests}.
 */
public final class TurnDemo {

    static final int PACE_MS = 20;
    private static final String UTTERANCE = "turn the lamp on, note buy milk, and how is the weather?";

    private TurnDemo() {
    }

    /** Runs both turns and prints to standard output. */
    public static void main(String[] args) throws IOException {
        run(System.out, PACE_MS);
    }

    /** Runs both turns, printing to {@code out}; {@code paceMs} between SSE events (0 in tests). */
    public static void run(PrintStream out, int paceMs) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/v1/chat/completions", exchange -> {
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            List<String> payloads = answer(body);
            exchange.getResponseHeaders().add("Content-Type", "text/event-stream");
            exchange.sendResponseHeaders(200, 0);
            try (OutputStream stream = exchange.getResponseBody()) {
                for (String payload : payloads) {
                    LockSupport.parkNanos(Duration.ofMillis(paceMs).toNanos()); // the demo's pacing model
                    stream.write(("data: " + payload + "\n\n").getBytes(StandardCharsets.UTF_8));
                    stream.flush();
                }
            }
        });
        server.start();
        String baseUrl = "http://127.0.0.1:" + server.getAddress().getPort() + "/v1";
        try {
            // One silent turn first, so class loading and the first connection do not land on either mode's figures.
            turn(new PrintStream(OutputStream.nullOutputStream(), true, StandardCharsets.UTF_8),
                    InvocationMode.DUAL_AGENT, baseUrl);
            for (InvocationMode mode : InvocationMode.values()) {
                turn(out, mode, baseUrl);
            }
        } finally {
            server.stop(0);
        }
    }

    private static void turn(PrintStream out, InvocationMode mode, String baseUrl) {
        ProviderRegistry providers = new ProviderRegistry().register("local",
                new OpenAiCompatibleClient(new OpenAiCompatibleClient.Config(baseUrl, null, Duration.ofSeconds(2),
                        Duration.ofSeconds(10))));
        try (TurnRuntime runtime = TurnRuntime.builder()
                .definitions(KernelDemo.lamp(), KernelDemo.note(), KernelDemo.weather(new AtomicInteger(1)))
                .providers(providers)
                .config(RuntimeConfig.of(mode, "local", "demo-model", "You are Pip, a cheerful voice toy."))
                .pricing(PricingCatalog.parse("{\"models\":{\"demo-model\":{\"tiers\":[{\"max_prompt_tokens\":null,"
                        + "\"input_cost_per_token\":0.00000027,\"output_cost_per_token\":0.0000011}]}}}", "demo"))
                .build()) {
            StringBuilder visible = new StringBuilder();
            String[] lastMessage = {null};
            TurnResult result = runtime.runTurn(new Conversation("demo", ZoneId.of("Asia/Shanghai"), Locale.ENGLISH),
                    UTTERANCE, (messageId, delta) -> {
                        if (lastMessage[0] != null && !lastMessage[0].equals(messageId)) {
                            visible.append(" | "); // a new message: confirmation or follow-up
                        }
                        lastMessage[0] = messageId;
                        visible.append(delta);
                    });
            out.println("== " + mode.wireName() + ": \"" + UTTERANCE + "\"");
            out.println("visible, message by message: " + visible.toString().replace("\n", " ").replaceAll(" +", " ").strip());
            out.println("events:");
            for (EventResult event : result.batch().map(b -> b.results()).orElse(List.of())) {
                out.println("  " + event.eventId() + " " + event.name() + " " + Json.write(event.arguments()) + " → "
                        + event.status() + " (" + event.resolution().outcome().name().toLowerCase(Locale.ROOT) + ")");
            }
            out.println("decision: " + result.decision().map(d -> d.kind()).orElse("-"));
            out.println("metrics: " + result.metrics().summary());
            out.println();
        }
    }

    /** The stand-in provider's answer for a request body. */
    private static List<String> answer(String body) {
        boolean followUp = body.contains("The actions have finished");
        boolean tools = body.contains("\"tools\"");
        int promptTokens = body.length() / 4;
        Chunks chunks = Chunks.stream("demo-model");
        if (followUp) {
            return chunks.content("Update: ", "it's sunny ", "in Shanghai, ", "21 degrees.").finish("stop")
                    .openAiUsage(promptTokens, 9, 0).done().payloads();
        }
        chunks.content("Okay! ", "Lamp on, ", "milk noted, ", "and let me check the weather.");
        if (tools) {
            chunks.toolCall(0, "call_1", "demo_lamp_switch", "{\"state\":").toolCall(0, null, null, "\"on\"}")
                    .toolCall(1, "call_2", "demo_note_create", "{\"text\":\"buy milk\"}")
                    .toolCall(2, "call_3", "demo_weather_lookup", "{\"city\":\"Shanghai\"}")
                    .finish("tool_calls");
        } else {
            chunks.content("\n[[EVENTS]] demo.lamp.switch, ", "demo.note.create, demo.weather.lookup").finish("stop");
        }
        return chunks.openAiUsage(promptTokens, tools ? 60 : 30, 0).done().payloads();
    }

}
