package io.agentlab.providers.recorded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.longs;

import io.agentlab.runtime.llm.Json;
import io.agentlab.providers.recorded.imports.StreamImport;
import io.agentlab.providers.recorded.imports.StreamImport.Imported;
import io.agentlab.providers.recorded.imports.StreamImport.Options;
import io.agentlab.providers.recorded.imports.StreamImport.Outcome;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * The round trip of docs/recording.md#importing-streams: generated chunk streams in the shapes real providers send
 * (usage absent or with {@code prompt_tokens_details: null}, {@code n > 1} choices, duplicate and missing tool-call
 * ids, {@code reasoning_content}, unknown fields, unicode, an early {@code finish_reason}; this test's own and
 * {@link StreamShapes}'), wrapped in each source
 * format, imported, written and parsed again: the loader accepts it, every {@code data:} payload is byte-identical
 * to the generated one, and so is every payload a client receives when {@link TimedReplay} serves the recording. QuickTheories prints the seed of a failure; {@code -Dagentlab-build.properties.seed=N} replays it,
 * {@code agentlab-build.properties.import-examples} sets the count per format (default 100).
 */
class StreamImportPropertiesTest {

    private static final int EXAMPLES = Integer.getInteger("agentlab-build.properties.import-examples", 100);
    private static final Long SEED = Long.getLong("agentlab-build.properties.seed");
    private static final Options OPTIONS = Options.defaults().withToday(LocalDate.of(2026, 12, 1));
    private static final YAMLMapper YAML = new YAMLMapper();
    /** A made-up key in every captured request (synthesized): it must never reach a recording. */
    private static final String KEY = "example!placeholder!credential!not!a!key";
    /** Text pieces: short enough that no piece can look like a credential, with the characters that break escaping. */
    private static final List<String> PIECES = List.of("Okay", ", ", "the lamp", " is on.", "\"quoted\"", "back\\slash",
            "tab\there", "line\nbreak", "crlf\r\n", "音量调到三十", "🙂", "𝟘", "é", "\u2028", "\u0085", "\u0000", "</data>",
            "data: x", ": not a comment", "[DONE]", "{\"json\":1}", "", " ", "ünïcödé", "ØÆ");

    /** A generated stream: the payloads, and the seed they came from (so a failure shows both). */
    record Stream(long seed, List<String> payloads) {
    }

    private static org.quicktheories.QuickTheory theory() {
        // a seed has no smaller form worth minutes of shrinking: the failing stream is printed whole
        org.quicktheories.QuickTheory theory = qt().withExamples(EXAMPLES).withShrinkCycles(20);
        return SEED == null ? theory : theory.withFixedSeed(SEED);
    }

    /** This test's streams, and half the time the shapes the recorder's round trip uses ({@link StreamShapes}). */
    static Gen<Stream> streams() {
        return longs().all().map(seed -> new Stream(seed, payloads(new Random(seed))))
                .mix(StreamShapes.streams().map(payloads -> new Stream(-1, payloads)));
    }

    /** One stream's payloads, compact JSON as a provider writes it. */
    static List<String> payloads(Random random) {
        String id = "chatcmpl-" + Long.toString(random.nextLong() & Long.MAX_VALUE, 36);
        int choices = random.nextInt(4) == 0 ? 2 + random.nextInt(2) : 1;
        int steps = 1 + random.nextInt(12);
        List<String> payloads = new ArrayList<>();
        for (int step = 0; step <= steps; step++) {
            Map<String, Object> chunk = new LinkedHashMap<>();
            chunk.put("id", id);
            chunk.put("object", "chat.completion.chunk");
            chunk.put("created", 1_796_000_000 + random.nextInt(100_000));
            chunk.put("model", random.nextBoolean() ? "gpt-4.1-mini" : "deepseek-chat");
            chunk.put("system_fingerprint", random.nextInt(5) == 0 ? null : "fp_0a1b2c3d4e");
            if (random.nextInt(6) == 0) {
                chunk.put(List.of("x_extra", "obfuscation", "provider_meta").get(random.nextInt(3)),
                        random.nextBoolean() ? piece(random) : Map.of("n", random.nextInt(9), "nested", List.of()));
            }
            List<Object> list = new ArrayList<>();
            boolean usageOnly = step == steps && random.nextInt(3) > 0;
            if (!usageOnly) {
                int first = random.nextInt(choices);
                for (int index = first; index < choices && (index == first || random.nextBoolean()); index++) {
                    list.add(choice(random, index, step == 0));
                }
            }
            chunk.put("choices", list);
            if (usageOnly) {
                chunk.put("usage", usage(random));
            } else if (random.nextBoolean()) {
                chunk.put("usage", null);
            }
            payloads.add(Json.write(chunk));
        }
        if (random.nextInt(5) > 0) {
            payloads.add("[DONE]");
        }
        return payloads;
    }

    private static Map<String, Object> choice(Random random, int index, boolean first) {
        Map<String, Object> delta = new LinkedHashMap<>();
        if (first) {
            delta.put("role", "assistant");
        }
        switch (random.nextInt(4)) {
            case 0 -> delta.put("reasoning_content", piece(random));
            case 1 -> {
                Map<String, Object> call = new LinkedHashMap<>();
                call.put("index", random.nextInt(2));
                int id = random.nextInt(4); // 0: no id, 1: "" (DashScope), 2 and 3: ids that repeat across chunks
                if (id > 0) {
                    call.put("id", id == 1 ? "" : "call_" + id);
                }
                call.put("type", "function");
                Map<String, Object> function = new LinkedHashMap<>();
                if (random.nextBoolean()) {
                    function.put("name", "device_power_set");
                }
                function.put("arguments", random.nextBoolean() ? "{\"on\":" : piece(random));
                call.put("function", function);
                delta.put("tool_calls", List.of(call));
            }
            default -> delta.put("content", random.nextInt(8) == 0 ? null : piece(random) + piece(random));
        }
        Map<String, Object> choice = new LinkedHashMap<>();
        choice.put("index", index);
        choice.put("delta", delta);
        choice.put("logprobs", null);
        choice.put("finish_reason", random.nextInt(6) == 0
                ? List.of("stop", "length", "tool_calls", "content_filter").get(random.nextInt(4)) : null);
        return choice;
    }

    private static Map<String, Object> usage(Random random) {
        Map<String, Object> usage = new LinkedHashMap<>();
        int prompt = random.nextInt(5000);
        int completion = random.nextInt(500);
        usage.put("prompt_tokens", prompt);
        usage.put("completion_tokens", completion);
        usage.put("total_tokens", prompt + completion);
        int details = random.nextInt(3);
        if (details == 1) {
            usage.put("prompt_tokens_details", null);
        } else if (details == 2) {
            usage.put("prompt_tokens_details", Map.of("cached_tokens", random.nextInt(prompt + 1)));
        }
        return usage;
    }

    private static String piece(Random random) {
        return PIECES.get(random.nextInt(PIECES.size()));
    }

    // ---------------------------------------------------------------- the source formats

    static String sse(List<String> payloads, String newline, boolean extras) {
        StringBuilder out = new StringBuilder();
        if (extras) {
            out.append("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\n: connected").append(newline)
                    .append(newline);
        }
        for (int i = 0; i < payloads.size(); i++) {
            if (extras) {
                out.append("event: message").append(newline).append("id: ").append(i).append(newline);
            }
            out.append("data: ").append(payloads.get(i)).append(newline).append(newline);
        }
        return out.toString();
    }

    static String jsonl(List<String> payloads, boolean wrapped) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < payloads.size(); i++) {
            out.append(wrapped ? Json.write(Map.of("at_ms", 10 * i, "data", payloads.get(i))) : payloads.get(i))
                    .append('\n');
        }
        return out.toString();
    }

    static String har(List<String> payloads, boolean base64) {
        String body = sse(payloads, "\n", false);
        Map<String, Object> content = new LinkedHashMap<>();
        content.put("mimeType", "text/event-stream");
        if (base64) {
            content.put("encoding", "base64");
        }
        content.put("text", base64 ? Base64.getEncoder().encodeToString(body.getBytes(StandardCharsets.UTF_8)) : body);
        return "{\"log\":{\"version\":\"1.2\",\"entries\":[" + Json.write(Map.of(
                "startedDateTime", "2026-11-30T10:00:00.000Z", "time", 250.0,
                "request", Map.of("method", "POST", "url", "https://api.example.test/v1/chat/completions",
                        "headers", List.of(Map.of("name", "Authorization", "value", "Bearer " + KEY)),
                        "postData", Map.of("mimeType", "application/json", "text", request())),
                "response", Map.of("status", 200, "headers", List.of(), "content", content),
                "timings", Map.of("blocked", -1, "send", 1, "wait", 99, "receive", 150))) + "]}}";
    }

    static String vcrpy(List<String> payloads) {
        ObjectNode root = YAML.createObjectNode();
        ObjectNode interaction = root.putArray("interactions").addObject();
        ObjectNode request = interaction.putObject("request");
        request.put("body", request()).put("method", "POST").put("uri", "https://api.example.test/v1/chat/completions");
        request.putObject("headers").putArray("Authorization").add("Bearer " + KEY);
        ObjectNode response = interaction.putObject("response");
        response.putObject("body").put("string", sse(payloads, "\n", false));
        response.putObject("headers").putArray("Content-Type").add("text/event-stream");
        response.putObject("status").put("code", 200).put("message", "OK");
        root.put("version", 1);
        return YAML.writeValueAsString(root);
    }

    static String rubyVcr(List<String> payloads, boolean base64) {
        ObjectNode root = YAML.createObjectNode();
        ObjectNode interaction = root.putArray("http_interactions").addObject();
        ObjectNode request = interaction.putObject("request");
        request.put("method", "post").put("uri", "https://api.example.test/v1/chat/completions");
        request.putObject("body").put("encoding", "UTF-8").put("string", request());
        ArrayNode auth = request.putObject("headers").putArray("Authorization");
        auth.add("Bearer " + KEY);
        ObjectNode response = interaction.putObject("response");
        response.putObject("status").put("code", 200).put("message", "OK");
        response.putObject("headers").putArray("Content-Type").add("text/event-stream");
        String body = sse(payloads, "\n", false);
        if (base64) {
            // Ruby's Base64.encode64 breaks lines every 60 characters
            String encoded = Base64.getMimeEncoder(60, "\n".getBytes(StandardCharsets.US_ASCII))
                    .encodeToString(body.getBytes(StandardCharsets.UTF_8));
            response.putObject("body").put("encoding", "ASCII-8BIT").put("base64_string", encoded + "\n");
        } else {
            response.putObject("body").put("encoding", "UTF-8").put("string", body);
        }
        interaction.put("recorded_at", "Mon, 30 Nov 2026 10:00:00 GMT");
        root.put("recorded_with", "VCR 6.3.1");
        return YAML.writeValueAsString(root);
    }

    static String goVcr(List<String> payloads) {
        ObjectNode root = YAML.createObjectNode();
        root.put("version", 2);
        ObjectNode interaction = root.putArray("interactions").addObject();
        interaction.put("id", 0);
        ObjectNode request = interaction.putObject("request");
        request.put("body", request()).put("url", "https://api.example.test/v1/chat/completions").put("method", "POST");
        request.putObject("headers").putArray("Authorization").add("Bearer " + KEY);
        ObjectNode response = interaction.putObject("response");
        response.put("body", sse(payloads, "\n", false));
        response.putObject("headers").putArray("Content-Type").add("text/event-stream");
        response.put("status", "200 OK").put("code", 200).put("duration", "812.5ms");
        return YAML.writeValueAsString(root);
    }

    private static List<String> data(Recording recording) {
        return recording.response().events().stream().map(Recording.TimedEvent::data).toList();
    }

    private static List<Long> offsets(Recording recording) {
        return recording.response().events().stream().map(Recording.TimedEvent::offsetMs).toList();
    }

    /** The data payloads of an SSE text, split by hand (the test's own reading, not the importer's). */
    private static List<String> dataLines(String sse) {
        return sse.lines().filter(line -> line.startsWith("data: ")).map(line -> line.substring(6)).toList();
    }

    private static String request() {
        return "{\"model\":\"gpt-4.1-mini\",\"messages\":[{\"role\":\"user\",\"content\":\"turn the lamp on\"}],"
                + "\"stream\":true}";
    }

    // ---------------------------------------------------------------- the property

    private static TimedReplay replay;
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final AtomicInteger SCOPES = new AtomicInteger();

    @BeforeAll
    static void startReplay() {
        replay = TimedReplay.start(List.of(), 0);
    }

    @AfterAll
    static void stopReplay() {
        replay.close();
    }

    /** What a client receives when the replay serves {@code recording}: the data payloads, in order. */
    static List<String> served(Recording recording) throws Exception {
        String scope = "s" + SCOPES.incrementAndGet();
        String base = replay.scope(scope, List.of(recording));
        try {
            String body = "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":"
                    + Json.write(recording.request().lastUserMessage()) + "}]" + (recording.request().mode()
                    .equals("chat_agent_tools") ? ",\"tools\":[]" : "") + ",\"stream\":true}";
            HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create(base + "/chat/completions"))
                    .timeout(Duration.ofSeconds(20)).header("Content-Type", "application/json")
                    .header("X-Agentlab-Call-Role", recording.request().role())
                    .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
            return dataLines(response.body());
        } finally {
            replay.closeScope(scope);
        }
    }

    private static void roundTrip(String source, Function<List<String>, String> wrap) {
        theory().forAll(streams()).checkAssert(stream -> {
            String text = wrap.apply(stream.payloads());
            List<Outcome> outcomes = StreamImport.read(source, text, OPTIONS);
            assertThat(outcomes).as("%s of %s", source, stream).hasSize(1);
            assertThat(outcomes.get(0)).as("%s of %s", source, stream).isInstanceOf(Imported.class);
            Recording imported = ((Imported) outcomes.get(0)).recording();
            String file = Recordings.write(imported);
            assertThat(file).doesNotContain(KEY);
            Recording reloaded = Recordings.parse(file, source);
            assertThat(data(reloaded)).as("%s of %s", source, stream).isEqualTo(stream.payloads());
            List<Long> offsets = offsets(reloaded);
            for (int i = 1; i < offsets.size(); i++) {
                assertThat(offsets.get(i)).isGreaterThanOrEqualTo(offsets.get(i - 1));
            }
            try {
                assertThat(served(reloaded)).as("served by TimedReplay, %s of %s", source, stream)
                        .isEqualTo(stream.payloads());
            } catch (Exception e) {
                throw new AssertionError("replay of " + source + " failed: " + e, e);
            }
        });
    }

    @Test
    @DisplayName("SSE transcripts (LF, CRLF, CR; with curl -i headers, comments, event: and id: lines) round-trip")
    void sseRoundTrip() {
        roundTrip("s.sse", p -> sse(p, "\n", false));
        roundTrip("crlf.sse", p -> sse(p, "\r\n", true));
        roundTrip("cr.sse", p -> sse(p, "\r", false));
    }

    @Test
    @DisplayName("JSON lines, bare and {at_ms, data}, round-trip")
    void jsonlRoundTrip() {
        roundTrip("bare.jsonl", p -> jsonl(p, false));
        roundTrip("wrapped.jsonl", p -> jsonl(p, true));
    }

    @Test
    @DisplayName("HAR, plain and base64 content, round-trips")
    void harRoundTrip() {
        roundTrip("plain.har", p -> har(p, false));
        roundTrip("base64.har", p -> har(p, true));
    }

    @Test
    @DisplayName("vcrpy, Ruby VCR (string and base64_string) and go-vcr cassettes round-trip")
    void vcrRoundTrip() {
        roundTrip("vcrpy.yaml", StreamImportPropertiesTest::vcrpy);
        roundTrip("ruby.yml", p -> rubyVcr(p, false));
        roundTrip("ruby64.yml", p -> rubyVcr(p, true));
        roundTrip("go.yaml", StreamImportPropertiesTest::goVcr);
    }
}
