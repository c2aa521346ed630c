package io.agentlab.providers.recorded.imports;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.agentlab.runtime.llm.ResponseLimits;
import io.agentlab.providers.recorded.Recording;
import io.agentlab.providers.recorded.Recordings;
import io.agentlab.providers.recorded.Secrets;
import io.agentlab.providers.recorded.TimedReplay;
import io.agentlab.providers.recorded.imports.StreamImport.Format;
import io.agentlab.providers.recorded.imports.StreamImport.Imported;
import io.agentlab.providers.recorded.imports.StreamImport.Options;
import io.agentlab.providers.recorded.imports.StreamImport.Outcome;
import io.agentlab.providers.recorded.imports.StreamImport.Skipped;
import io.agentlab.providers.recorded.imports.StreamImport.Unreadable;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link StreamImport} on the synthesized examples in {@code src/test/resources/import} (one per source format,
 * docs/recording.md#importing-streams) and on malformed inputs, each of which must give one clear outcome.
 */
class StreamImportTest {

    static final Path EXAMPLES = Path.of("src/test/resources/import");
    static final String KEY = "example!placeholder!credential!not!a!key";
    static final Options OPTIONS = Options.defaults().withToday(LocalDate.of(2026, 12, 1));

    @TempDir
    Path temp;

    static List<Outcome> example(String file) {
        return StreamImport.read(EXAMPLES.resolve(file), OPTIONS);
    }

    static Recording imported(Outcome outcome) {
        assertThat(outcome).as("%s", outcome).isInstanceOf(Imported.class);
        return ((Imported) outcome).recording();
    }

    static List<String> data(Recording recording) {
        return recording.response().events().stream().map(Recording.TimedEvent::data).toList();
    }

    static List<Long> offsets(Recording recording) {
        return recording.response().events().stream().map(Recording.TimedEvent::offsetMs).toList();
    }

    /** What a file that is imported must never contain, and must still load as. */
    static void clean(Recording recording) {
        String text = Recordings.write(recording);
        assertThat(text).doesNotContain(KEY, "Authorization", "Bearer");
        assertThat(Secrets.scan(text)).isEmpty();
        assertThat(Recordings.parse(text, "re-read")).isEqualTo(recording);
        assertThat(recording.metadata().synthesized()).as("an imported stream is a real one").isFalse();
        assertThat(recording.metadata().provider()).isEqualTo(OPTIONS.family());
    }

    /** The data payloads of an SSE text, split by hand (the test's own reading, not the importer's). */
    static List<String> dataLines(String sse) {
        return sse.lines().filter(line -> line.startsWith("data: ")).map(line -> line.substring(6)).toList();
    }

    @Test
    @DisplayName("HAR: the page's GET is skipped; both streams import with matcher, base64 body, first-byte offsets")
    void har() throws IOException {
        List<Outcome> outcomes = example("chat.har");
        assertThat(outcomes).hasSize(3);
        assertThat(outcomes.get(0)).isEqualTo(new Skipped(EXAMPLES.resolve("chat.har") + " entries[0] (line 9)",
                "GET /app.js is not a chat completion POST"));

        Recording text = imported(outcomes.get(1));
        clean(text);
        assertThat(text.id()).isEqualTo("chat-1");
        assertThat(text.request()).extracting("mode", "role", "lastUserMessage")
                .containsExactly("dual_agent", "chat", "turn the lamp on");
        assertThat(data(text)).hasSize(7).endsWith("[DONE]");
        assertThat(data(text).get(1)).contains("\"content\":\"Okay, \"");
        // blocked 1.2 + dns 4 + connect 38.5 (ssl inside) + send 0.3 + wait 402 = 446 ms to first byte, time 612.4
        assertThat(offsets(text)).containsExactly(446L, 474L, 501L, 529L, 557L, 584L, 612L);
        assertThat(text.metadata().timing())
                .isEqualTo("har: first byte at 446 ms and end at 612 ms recorded, events between interpolated");
        assertThat(text.metadata().date()).isEqualTo("2026-11-30");
        assertThat(text.metadata().model()).isEqualTo("gpt-4.1-mini-2025-04-14");

        Recording tools = imported(outcomes.get(2));
        clean(tools);
        assertThat(tools.request().mode()).isEqualTo("chat_agent_tools");
        assertThat(tools.request().lastUserMessage()).isEqualTo("switch the lamp on please");
        String har = Files.readString(EXAMPLES.resolve("chat.har"));
        int text64 = har.lastIndexOf("\"text\": \"") + 9;
        String base64 = har.substring(text64, har.indexOf('"', text64));
        assertThat(data(tools)).isEqualTo(dataLines(new String(Base64.getDecoder().decode(base64),
                StandardCharsets.UTF_8)));
        assertThat(String.join("", data(tools))).contains("device_power_set", "call_Xy12Ab34Cd56Ef78Gh90Ij12");
        assertThat(offsets(tools).get(0)).isEqualTo(516L);
        assertThat(offsets(tools).get(6)).isEqualTo(880L);
    }

    @Test
    @DisplayName("vcrpy: body.string, role from X-Agentlab-Call-Role, modelled offsets labelled as such")
    void vcrpy() {
        List<Outcome> outcomes = example("vcrpy.yaml");
        assertThat(outcomes).hasSize(1);
        Recording r = imported(outcomes.get(0));
        clean(r);
        assertThat(outcomes.get(0).where()).endsWith("vcrpy.yaml interactions[0] (line 2)");
        assertThat(r.id()).isEqualTo("vcrpy-0");
        assertThat(r.request()).extracting("mode", "role", "lastUserMessage")
                .containsExactly("dual_agent", "follow_up", "is the lamp on?");
        assertThat(data(r)).hasSize(6).endsWith("[DONE]");
        int prompt = io.agentlab.tokens.PromptTokens.count(
                "{\"model\":\"gpt-4.1-mini-2025-04-14\",\"messages\":[{\"role\":\"system\",\"content\":\"You are Pip, a "
                        + "home assistant.\"},{\"role\":\"user\",\"content\":\"is the lamp on?\"}],\"stream\":true,"
                        + "\"stream_options\":{\"include_usage\":true}}");
        List<Long> expected = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            expected.add(Math.round(150 + 0.05 * prompt + 20 * i));
        }
        assertThat(offsets(r)).isEqualTo(expected);
        assertThat(r.metadata().timing()).startsWith("modelled (the source records no timing): first event 150 ms")
                .endsWith(prompt + " prompt tokens counted in the captured request");
        assertThat(r.metadata().date()).as("vcrpy records no date").isEqualTo("2026-12-01");
    }

    @Test
    @DisplayName("Ruby VCR: http_interactions, a base64_string body with line breaks, unicode kept, recorded_at")
    void rubyVcr() {
        Recording r = imported(example("ruby-vcr.yml").get(0));
        clean(r);
        assertThat(r.request().lastUserMessage()).isEqualTo("turn the lamp on");
        assertThat(String.join("", data(r))).contains("\"content\":\"on — \"", "done ✓");
        assertThat(r.metadata().date()).isEqualTo("2026-11-30");
    }

    @Test
    @DisplayName("go-vcr: request.url, response.code, duration 1.204518s as the last event's offset")
    void goVcr() {
        Recording r = imported(example("go-vcr.yaml").get(0));
        clean(r);
        assertThat(r.request().mode()).isEqualTo("chat_agent_tools");
        assertThat(data(r)).hasSize(7);
        assertThat(offsets(r)).containsExactly(172L, 344L, 516L, 689L, 861L, 1033L, 1205L);
        assertThat(r.metadata().timing()).startsWith("go-vcr: duration 1205 ms recorded");
    }

    @Test
    @DisplayName("curl -i -N: status line and CRLF headers skipped, comment ignored, matcher from the options")
    void curl() throws IOException {
        Options options = OPTIONS.withMatcher("dual_agent", null, "Turn the lamp on");
        List<Outcome> outcomes = StreamImport.read(EXAMPLES.resolve("curl.sse"), options);
        Recording r = imported(outcomes.get(0));
        clean(r);
        assertThat(r.id()).isEqualTo("curl");
        assertThat(r.request()).extracting("mode", "role", "lastUserMessage")
                .containsExactly("dual_agent", "chat", "Turn the lamp on");
        assertThat(data(r)).isEqualTo(dataLines(Files.readString(EXAMPLES.resolve("curl.sse"))));
        assertThat(r.metadata().timing()).endsWith("0 prompt tokens (no request captured)");
        // without a request or --mode the recording answers either mode
        assertThat(imported(StreamImport.read(EXAMPLES.resolve("curl.sse"), OPTIONS).get(0)).request().mode())
                .isEqualTo("any");
    }

    @Test
    @DisplayName("JSON lines: {at_ms, data} offsets kept as given; bare chunk lines are the payloads as written")
    void jsonl() {
        Recording r = imported(example("chunks.jsonl").get(0));
        clean(r);
        assertThat(offsets(r)).containsExactly(182L, 182L, 201L, 224L, 240L, 241L, 241L);
        assertThat(r.metadata().timing()).isEqualTo("jsonl: offsets as given in at_ms");

        String chunk = "{\"id\":\"chatcmpl-1\", \"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"m\","
                + "\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"hi\"},"
                + "\"finish_reason\":null}]}";
        Recording bare = imported(StreamImport.read("bare.jsonl", chunk + "\r\n\n[DONE]\n", OPTIONS).get(0));
        assertThat(data(bare)).containsExactly(chunk, "[DONE]");
        assertThat(offsets(bare)).containsExactly(150L, 170L);
    }

    @Test
    @DisplayName("the format is told by content, whatever the file is called")
    void detection() throws IOException {
        assertThat(StreamImport.detect(Files.readString(EXAMPLES.resolve("chat.har")))).isEqualTo(Format.HAR);
        assertThat(StreamImport.detect(Files.readString(EXAMPLES.resolve("vcrpy.yaml")))).isEqualTo(Format.VCR);
        assertThat(StreamImport.detect(Files.readString(EXAMPLES.resolve("ruby-vcr.yml")))).isEqualTo(Format.VCR);
        assertThat(StreamImport.detect(Files.readString(EXAMPLES.resolve("go-vcr.yaml")))).isEqualTo(Format.VCR);
        assertThat(StreamImport.detect(Files.readString(EXAMPLES.resolve("curl.sse")))).isEqualTo(Format.SSE);
        assertThat(StreamImport.detect(Files.readString(EXAMPLES.resolve("chunks.jsonl")))).isEqualTo(Format.JSONL);
        assertThat(StreamImport.detect("data: {}\n\n")).isEqualTo(Format.SSE);
        assertThat(StreamImport.detect("{\"log\":{\"entries\":[]}}")).isEqualTo(Format.HAR);
        assertThat(StreamImport.detect("hello")).isNull();
        assertThat(StreamImport.read("notes.txt", "hello\n", OPTIONS)).containsExactly(new Unreadable("notes.txt",
                "cannot tell the format: not a HAR file, a VCR cassette, an SSE transcript or JSON lines of chunks "
                        + "(give the format)"));
    }

    @Test
    @DisplayName("credentials: a key echoed in the stream or the message is redacted, a query key too; headers never")
    void redaction() {
        String sse = "data: " + chunk("your key is " + KEY) + "\n\ndata: " + chunk("and q-secret-value-1234") + "\n\n";
        String har = har(List.of(entry("https://llm.example.test/v1/chat/completions?api-key=q-secret-value-1234",
                "turn the lamp on, my key is " + KEY, "text/event-stream", sse, null)));
        Recording r = imported(StreamImport.read("leaky.har", har, OPTIONS).get(0));
        String text = Recordings.write(r);
        assertThat(text).doesNotContain(KEY, "q-secret-value-1234", "X-Custom-Header");
        assertThat(data(r).get(0)).contains("your key is " + Secrets.REDACTED);
        assertThat(r.request().lastUserMessage()).isEqualTo("turn the lamp on, my key is " + Secrets.REDACTED);
        assertThat(r.metadata().redacted()).contains("credential values and key-shaped strings replaced by "
                + Secrets.REDACTED + " in event(s) 0, 1 and the last user message");
    }

    @Test
    @DisplayName("each malformed entry is one clear unreadable outcome naming file, entry and why; others import")
    void malformedEntries() {
        String good = entry("https://api.openai.com/v1/chat/completions", "hi", "text/event-stream",
                "data: " + chunk("ok") + "\n\n", null);
        String noMethod = good.replace("\"method\":\"POST\",", "");
        String json = entry("https://api.openai.com/v1/chat/completions", "hi", "application/json",
                "{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion\",\"choices\":[]}", null);
        String notStreamed = json.replace("\\\"stream\\\":true", "\\\"stream\\\":false");
        String garbage = entry("https://api.openai.com/v1/chat/completions", "hi", "text/event-stream",
                "data: !!!not base64!!!", "base64");
        String noBody = entry("https://api.openai.com/v1/chat/completions", "hi", "text/event-stream", null, null);
        String http429 = good.replace("\"status\":200", "\"status\":429");
        List<Outcome> outcomes = StreamImport.read("mixed.har", har(List.of(good, noMethod, json, notStreamed,
                garbage, noBody, http429)), OPTIONS);
        assertThat(outcomes).hasSize(7);
        imported(outcomes.get(0));
        assertThat(outcomes.get(1)).isEqualTo(new Unreadable("mixed.har entries[1] (line 1)",
                "request.method is missing"));
        assertThat(outcomes.get(2)).isInstanceOf(Unreadable.class).asString()
                .contains("entries[2]", "the response is not SSE (Content-Type 'application/json'");
        assertThat(outcomes.get(3)).isEqualTo(new Skipped("mixed.har entries[3] (line 1)",
                "not streamed: the request did not set \"stream\": true"));
        assertThat(outcomes.get(4)).isInstanceOf(Unreadable.class).asString()
                .contains("entries[4]", "response.content.text (base64) is not valid base64");
        assertThat(outcomes.get(5)).isInstanceOf(Unreadable.class).asString()
                .contains("entries[5]", "response.content.text is missing", "browser devtools");
        assertThat(outcomes.get(6)).isInstanceOf(Skipped.class).asString().contains("HTTP 429");
    }

    @Test
    @DisplayName("malformed JSON stops a HAR at the broken entry, with its line and column; earlier entries import")
    void malformedHar() {
        String good = entry("https://api.openai.com/v1/chat/completions", "hi", "text/event-stream",
                "data: " + chunk("ok") + "\n\n", null);
        String text = "{\"log\":{\"entries\":[\n" + good + ",\n" + good.substring(0, 40) + "}]}}";
        List<Outcome> outcomes = StreamImport.read("cut.har", text, OPTIONS);
        assertThat(outcomes).hasSize(2);
        imported(outcomes.get(0));
        assertThat(outcomes.get(1)).isInstanceOf(Unreadable.class).asString()
                .contains("cut.har entries[1]", "not valid JSON", "at line 3");
        assertThat(StreamImport.read("x.har", "{\"log\":{\"pages\":[]}}", OPTIONS)).containsExactly(
                new Unreadable("x.har", "not a HAR file: no \"log.entries\" array"));
    }

    @Test
    @DisplayName("malformed YAML, a missing status and a bad duration: one clear outcome each")
    void malformedCassettes() throws IOException {
        String vcrpy = Files.readString(EXAMPLES.resolve("vcrpy.yaml"));
        List<Outcome> broken = StreamImport.read("broken.yaml", vcrpy.replace("    method: POST", "   method: [POST"),
                OPTIONS);
        assertThat(broken).hasSize(1);
        assertThat(broken.get(0)).isInstanceOf(Unreadable.class).asString()
                .contains("broken.yaml interactions[0]", "not valid YAML", "at line");
        List<Outcome> noStatus = StreamImport.read("nostatus.yaml", vcrpy.replace("    status:\n      code: 200\n"
                + "      message: OK\n", ""), OPTIONS);
        assertThat(noStatus).containsExactly(new Unreadable("nostatus.yaml interactions[0] (line 2)",
                "response.status.code (or go-vcr's response.code) is missing"));
        String go = Files.readString(EXAMPLES.resolve("go-vcr.yaml"));
        assertThat(StreamImport.read("go.yaml", go.replace("1.204518s", "soon"), OPTIONS)).containsExactly(
                new Unreadable("go.yaml interactions[0] (line 4)",
                        "response.duration 'soon' is not a Go duration (like 1.204s)"));
        assertThat(StreamImport.read("none.yaml", "version: 1\nother: []\n", OPTIONS.withFormat(Format.VCR)))
                .containsExactly(new Unreadable("none.yaml", "not a VCR cassette: no \"interactions\" (vcrpy, "
                        + "go-vcr) or \"http_interactions\" (Ruby VCR) list"));
    }

    @Test
    @DisplayName("a cassette full of emoji imports: a surrogate pair at the YAML reader's buffer edge (found by the "
            + "round-trip property) is no crash")
    void surrogatesAtBufferEdges() throws IOException {
        String vcrpy = Files.readString(EXAMPLES.resolve("vcrpy.yaml"));
        for (String shift : List.of("", "x")) {
            String emoji = shift + "🙂".repeat(3000);
            String cassette = vcrpy.replace("The lamp ", emoji);
            Recording r = imported(StreamImport.read("emoji.yaml", cassette, OPTIONS).get(0));
            assertThat(String.join("", data(r))).contains(emoji);
        }
    }

    @Test
    @DisplayName("vcrpy's !!binary body is decoded; bytes that are not UTF-8 are one clear outcome")
    void binaryBodies() throws IOException {
        String sse = "data: " + chunk("binary ✓") + "\n\ndata: [DONE]\n\n";
        String vcrpy = Files.readString(EXAMPLES.resolve("vcrpy.yaml"));
        int body = vcrpy.indexOf("      string: ");
        String cassette = vcrpy.substring(0, body) + "      string: !!binary |\n        "
                + Base64.getEncoder().encodeToString(sse.getBytes(StandardCharsets.UTF_8))
                + vcrpy.substring(vcrpy.indexOf('\n', body));
        assertThat(data(imported(StreamImport.read("bin.yaml", cassette, OPTIONS).get(0))))
                .containsExactly(chunk("binary ✓"), "[DONE]");
        Path latin1 = Files.write(temp.resolve("latin1.sse"), ("data: " + chunk("caf\u00e9") + "\n\n")
                .getBytes(StandardCharsets.ISO_8859_1));
        assertThat(StreamImport.read(latin1, OPTIONS)).containsExactly(new Unreadable(latin1.toString(),
                "the transcript is not UTF-8 text"));
    }

    @Test
    @DisplayName("malformed JSON lines: the line and why")
    void malformedJsonl() {
        String chunk = chunk("a");
        assertThat(StreamImport.read("c.jsonl", chunk + "\n" + chunk + "\n{\"choices\": [\n", OPTIONS))
                .singleElement().isInstanceOf(Unreadable.class).asString().contains("c.jsonl", "line 3 is not JSON");
        assertThat(StreamImport.read("m.jsonl", "{\"at_ms\":1,\"data\":\"x\"}\n" + chunk + "\n", OPTIONS))
                .containsExactly(new Unreadable("m.jsonl",
                        "line 2 mixes {\"at_ms\", \"data\"} lines with bare chunk lines"));
        assertThat(StreamImport.read("b.jsonl", "{\"at_ms\":9,\"data\":\"x\"}\n{\"at_ms\":3,\"data\":\"y\"}\n",
                OPTIONS)).containsExactly(new Unreadable("b.jsonl", "line 2: at_ms 3 comes before the previous 9"));
        // a message quotes what the parser found ("Unrecognized token '...'"): never a key (a made-up AWS key id)
        String awsKeyId = "AKIA" + "EXAMPLEEXAMPLE00";
        assertThat(StreamImport.read("k.jsonl", chunk + "\n" + awsKeyId + "\n", OPTIONS.withFormat(Format.JSONL)))
                .singleElement().asString().contains("line 2 is not JSON", Secrets.REDACTED).doesNotContain(awsKeyId);
    }

    @Test
    @DisplayName("limits: events, line bytes, response bytes and the file size each give one outcome naming the limit")
    void limits() throws IOException {
        Options small = OPTIONS.withLimits(new ResponseLimits(4_000, 600, 3));
        String four = ("data: " + chunk("x") + "\n\n").repeat(4);
        assertThat(StreamImport.read("many.sse", four, small)).singleElement().asString()
                .contains("many.sse", "the response passed 3 events at line 8");
        String longLine = "data: " + chunk("y".repeat(700)) + "\n\n";
        assertThat(StreamImport.read("long.sse", longLine, small)).singleElement().asString()
                .contains("long.sse", "line 1 passed 600 bytes without ending");
        String big = ("data: " + chunk("z".repeat(300)) + "\n\n").repeat(2);
        String har = har(List.of(entry("https://h.test/v1/chat/completions", "hi", "text/event-stream",
                big.repeat(4), null)));
        assertThat(StreamImport.read("big.har", har, small)).singleElement().asString()
                .contains("big.har entries[0]", "over the response limit of 4000 bytes");
        Path huge = temp.resolve("huge.har");
        Files.writeString(huge, " ".repeat(64 * 4_000 + 1));
        assertThat(StreamImport.read(huge, small)).containsExactly(new Unreadable(huge.toString(), "the file is 256001 "
                + "bytes, over the import limit of 256000 bytes (64 × the response limit of 4000 bytes)"));
        assertThat(StreamImport.read("long.jsonl", chunk("y".repeat(700)) + "\n", small)).containsExactly(
                new Unreadable("long.jsonl", "line 1 is over the line limit of 600 bytes"));
    }

    @Test
    @DisplayName("bad option values are refused when the options are made, quoting the value")
    void badOptions() {
        assertThatThrownBy(() -> OPTIONS.withFamily("Open AI")).hasMessageContaining("family 'Open AI'");
        assertThatThrownBy(() -> OPTIONS.withMatcher("tools", null, null)).hasMessageContaining("mode 'tools'");
        assertThatThrownBy(() -> OPTIONS.withMatcher(null, "agent", null)).hasMessageContaining("role 'agent'");
        assertThatThrownBy(() -> OPTIONS.withIdPrefix("Lamp/")).hasMessageContaining("id prefix 'Lamp/'");
        String sse = "data: " + chunk("x") + "\n\n";
        String har = har(List.of(entry("https://h.test/v1/chat/completions", "hi", "text/event-stream", sse, null)
                .replace("\"headers\":[", "\"headers\":[{\"name\":\"X-Agentlab-Call-Role\",\"value\":\"boss\"},")));
        assertThat(StreamImport.read("role.har", har, OPTIONS)).singleElement().asString()
                .contains("X-Agentlab-Call-Role header is 'boss', not one of chat, event_agent, follow_up");
        assertThat(imported(StreamImport.read("role.har", har, OPTIONS.withMatcher(null, "event_agent", null)).get(0))
                .request().role()).isEqualTo("event_agent");
    }

    @Test
    @DisplayName("replay: TimedReplay serves an imported recording and the client receives the same data payloads")
    void replay() throws Exception {
        List<Recording> recordings = new ArrayList<>();
        for (String file : List.of("chat.har", "vcrpy.yaml", "ruby-vcr.yml", "go-vcr.yaml")) {
            example(file).stream().filter(Imported.class::isInstance).map(o -> ((Imported) o).recording())
                    .forEach(recordings::add);
        }
        Recording text = recordings.get(0);
        try (TimedReplay replay = TimedReplay.start(recordings, 0)) {
            String body = "{\"model\":\"gpt-4.1-mini-2025-04-14\",\"messages\":[{\"role\":\"user\",\"content\":"
                    + "\"turn the lamp on\"}],\"stream\":true}";
            HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                            URI.create(replay.baseUrl() + "/chat/completions")).timeout(Duration.ofSeconds(20))
                    .header("Content-Type", "application/json").header("X-Agentlab-Call-Role", "chat")
                    .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
            assertThat(dataLines(response.body())).isEqualTo(data(text));
        }
    }

    // ---------------------------------------------------------------- builders for inline sources

    /** An OpenAI-shaped content chunk (synthesized). */
    static String chunk(String content) {
        return "{\"id\":\"chatcmpl-AbCdEfGhIjKlMnOpQrStUvWxYz012\",\"object\":\"chat.completion.chunk\","
                + "\"created\":1796047267,\"model\":\"m\",\"system_fingerprint\":\"fp_0a1b2c3d4e\",\"choices\":[{"
                + "\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":" + io.agentlab.runtime.llm.Json
                .write(content) + "},\"logprobs\":null,\"finish_reason\":null}],\"usage\":null}";
    }

    /** One HAR entry on one line: a POST with a bearer key, the response as given. */
    static String entry(String url, String user, String contentType, String body, String encoding) {
        String request = "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":"
                + io.agentlab.runtime.llm.Json.write(user) + "}],\"stream\":true}";
        return "{\"startedDateTime\":\"2026-11-30T10:00:00Z\",\"time\":100,\"request\":{\"method\":\"POST\",\"url\":"
                + io.agentlab.runtime.llm.Json.write(url) + ",\"headers\":[{\"name\":\"Authorization\","
                + "\"value\":\"Bearer " + KEY + "\"},{\"name\":\"X-Custom-Header\",\"value\":\"v\"}],\"postData\":{"
                + "\"mimeType\":\"application/json\",\"text\":" + io.agentlab.runtime.llm.Json.write(request)
                + "}},\"response\":{\"status\":200,\"headers\":[{\"name\":\"Content-Type\",\"value\":\"" + contentType
                + "\"}],\"content\":{\"mimeType\":\"" + contentType + "\"" + (encoding == null ? ""
                : ",\"encoding\":\"" + encoding + "\"") + (body == null ? "" : ",\"text\":"
                + io.agentlab.runtime.llm.Json.write(body)) + "}},\"timings\":{\"send\":1,\"wait\":40,"
                + "\"receive\":59}}";
    }

    static String har(List<String> entries) {
        return "{\"log\":{\"version\":\"1.2\",\"entries\":[" + String.join(",", entries) + "]}}";
    }
}
