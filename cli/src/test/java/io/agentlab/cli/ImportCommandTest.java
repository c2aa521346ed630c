package io.agentlab.cli;

import static io.agentlab.cli.Run.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.agentlab.providers.recorded.Recording;
import io.agentlab.providers.recorded.Recordings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code agentlab import} as a user runs it: one line per entry, files written once, exit codes 0, 1 and 2. */
class ImportCommandTest {

    /** A made-up key (synthesized): it must never reach a recording. */
    private static final String KEY = "example!placeholder!credential!not!a!key";
    private static final String CHUNK = "{\"id\":\"chatcmpl-AbCdEfGhIjKlMnOpQrStUvWxYz012\",\"object\":"
            + "\"chat.completion.chunk\",\"created\":1796047267,\"model\":\"m\",\"choices\":[{\"index\":0,\"delta\":"
            + "{\"role\":\"assistant\",\"content\":\"Okay, the lamp is on.\"},\"finish_reason\":\"stop\"}]}";

    @TempDir
    Path temp;
    Path out;
    Path sse;
    Path har;

    @BeforeEach
    void captures() throws IOException {
        out = temp.resolve("recordings");
        // synthesized captures: a curl -i -N transcript, and a HAR with a page's GET and one streamed completion
        sse = Files.writeString(temp.resolve("lamp.sse"), "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\n"
                + "data: " + CHUNK + "\n\ndata: [DONE]\n\n");
        String request = "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"turn the lamp on\"}],"
                + "\"stream\":true}";
        har = Files.writeString(temp.resolve("session.har"), "{\"log\":{\"version\":\"1.2\",\"entries\":["
                + "{\"request\":{\"method\":\"GET\",\"url\":\"https://app.test/\",\"headers\":[]},\"response\":"
                + "{\"status\":200,\"content\":{\"mimeType\":\"text/html\",\"text\":\"<html>\"}}},"
                + "{\"time\":300,\"timings\":{\"send\":1,\"wait\":99,\"receive\":200},\"request\":{\"method\":\"POST\","
                + "\"url\":\"https://api.test/v1/chat/completions\",\"headers\":[{\"name\":\"Authorization\",\"value\":"
                + "\"Bearer " + KEY + "\"}],\"postData\":{\"mimeType\":\"application/json\",\"text\":"
                + io.agentlab.runtime.llm.Json.write(request) + "}},\"response\":{\"status\":200,\"content\":"
                + "{\"mimeType\":\"text/event-stream\",\"text\":" + io.agentlab.runtime.llm.Json.write(
                "data: " + CHUNK + "\n\ndata: [DONE]\n\n") + "}}}]}}");
    }

    @Test
    @DisplayName("every entry imported or skipped: exit 0, a line each, recordings that load and hold no key")
    void imports() throws IOException {
        Run run = run("import", sse.toString(), har.toString(), "--out", out.toString(), "--mode", "dual_agent",
                "--last-user-message", "turn the lamp on");
        assertThat(run.code()).as(run.out() + run.err()).isZero();
        assertThat(run.err()).isEmpty();
        assertThat(run.out().lines().toList()).containsExactly(
                sse + ": imported -> " + out.resolve("lamp.json"),
                har + " entries[0] (line 1): skipped: GET / is not a chat completion POST",
                har + " entries[1] (line 1): imported -> " + out.resolve("session-1.json"),
                "imported 2, skipped 1, unreadable or not written 0");
        List<Recording> recordings = Recordings.loadDirectory(out);
        assertThat(recordings).extracting(Recording::id).containsExactly("lamp", "session-1");
        assertThat(recordings).allSatisfy(r -> {
            assertThat(r.request().lastUserMessage()).isEqualTo("turn the lamp on");
            assertThat(r.metadata().provider()).isEqualTo("openai-compatible");
            assertThat(r.response().events()).extracting(Recording.TimedEvent::data).containsExactly(CHUNK, "[DONE]");
        });
        assertThat(recordings.get(1).response().events()).extracting(Recording.TimedEvent::offsetMs)
                .containsExactly(100L, 300L);
        for (Path file : List.of(out.resolve("lamp.json"), out.resolve("session-1.json"))) {
            assertThat(Files.readString(file)).doesNotContain(KEY, "Authorization");
        }
    }

    @Test
    @DisplayName("an existing recording is never overwritten without --force (exit 1, the file unchanged)")
    void noOverwrite() throws IOException {
        Files.createDirectories(out);
        Path existing = Files.writeString(out.resolve("lamp.json"), "mine");
        Run run = run("import", sse.toString(), "--out", out.toString(), "--id-prefix", "");
        assertThat(run.code()).as("an empty prefix is no prefix name").isEqualTo(2);
        run = run("import", sse.toString(), "--out", out.toString());
        assertThat(run.code()).isEqualTo(1);
        assertThat(run.err()).isEqualTo(sse + ": not written: " + existing + " exists (--force overwrites)"
                + System.lineSeparator());
        assertThat(Files.readString(existing)).isEqualTo("mine");
        run = run("import", sse.toString(), "--out", out.toString(), "--force");
        assertThat(run.code()).isZero();
        assertThat(Files.readString(existing)).contains("\"id\" : \"lamp\"");
        run = run("import", sse.toString(), "--out", out.toString(), "--id-prefix", "kitchen-", "--family", "vllm");
        assertThat(run.code()).isZero();
        assertThat(run.out()).contains("  note: no description of provider family 'vllm' was found");
        // described in the folder the run reads beside these recordings: the notes hold it to that shape instead
        Files.createDirectories(out.resolve("families"));
        Files.writeString(out.resolve("families/vllm.json"), "{\"name\": \"vllm\", \"description\": \"vLLM "
                + "(synthesized for this test)\", \"extends\": \"openai\"}");
        run = run("import", sse.toString(), "--out", out.toString(), "--id-prefix", "kitchen-", "--family", "vllm",
                "--force");
        assertThat(run.code()).as(run.out() + run.err()).isZero();
        assertThat(run.out()).doesNotContain("no description").contains("  note: event 0 lacks");
        assertThat(Recordings.parse(Files.readString(out.resolve("kitchen-lamp.json")), "x").metadata().provider())
                .isEqualTo("vllm");
    }

    @Test
    @DisplayName("an unreadable entry: exit 1 with one line naming file, line and why; the other files still import")
    void unreadable() throws IOException {
        Path broken = Files.writeString(temp.resolve("broken.jsonl"), CHUNK + "\n{\"choices\": [\n");
        Run run = run("import", broken.toString(), sse.toString(), "--out", out.toString());
        assertThat(run.code()).isEqualTo(1);
        assertThat(run.err().lines().toList()).singleElement().asString()
                .startsWith(broken + ": unreadable: line 2 is not JSON: ");
        assertThat(run.out()).contains(sse + ": imported -> ", "imported 1, skipped 0, unreadable or not written 1");
        assertThat(Files.exists(out.resolve("lamp.json"))).isTrue();
        assertThat(Files.exists(out.resolve("broken.json"))).isFalse();
    }

    @Test
    @DisplayName("bad usage: exit 2 with one line naming the option, before any file is read or written")
    void badUsage() {
        List<List<String>> cases = List.of(
                List.of("--format", "xml"),
                List.of("--family", "Open AI"),
                List.of("--mode", "tools"),
                List.of("--role", "boss"),
                List.of("--id-prefix", "Lamp/"),
                List.of("--out"));
        for (List<String> options : cases) {
            List<String> args = new java.util.ArrayList<>(List.of("import", sse.toString()));
            if (!options.equals(List.of("--out"))) {
                args.addAll(List.of("--out", out.toString()));
            }
            args.addAll(options);
            Run run = run(args.toArray(String[]::new));
            assertThat(run.code()).as("%s: %s", options, run.err()).isEqualTo(2);
            assertThat(run.err().lines().toList()).as("%s", options).singleElement().asString()
                    .startsWith("agentlab import: ").doesNotContain("Exception", "\tat ");
            assertThat(run.out()).isEmpty();
            assertThat(Files.exists(out)).as("nothing written for %s", options).isFalse();
        }
        assertThat(run("import", sse.toString(), "--out", out.toString(), "--mode", "tools").err())
                .contains("--mode: mode 'tools' is not one of any, chat_agent_tools, dual_agent");
        assertThat(run("import", temp.resolve("none.har").toString(), "--out", out.toString()).err())
                .contains("FILE: '" + temp.resolve("none.har") + "' is not a file");
        assertThat(run("import", "--help").out()).contains("--format", "--family", "--force");
    }
}
