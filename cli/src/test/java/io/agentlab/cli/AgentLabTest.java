package io.agentlab.cli;

import static io.agentlab.cli.Run.run;
import static io.agentlab.cli.Run.suites;
import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.agentlab.agui.AguiEvent;
import io.agentlab.agui.AguiSseCodec;
import io.agentlab.runtime.llm.CallRole;
import io.agentlab.runtime.llm.ChatMessage;
import io.agentlab.runtime.llm.ChatRequest;
import io.agentlab.provider.openai.OpenAiCompatibleClient;
import io.agentlab.providers.recorded.Recordings;
import io.agentlab.providers.recorded.TimedReplay;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The agentlab commands, executed as a user would (output and exit codes), over real HTTP where they talk to one. */
class AgentLabTest {

    @TempDir
    Path temp;

    @Test
    @DisplayName("resolve: a plugin's resolver on an utterance, in the session's zone and time")
    void resolve() {
        Run run = run("resolve", "--event", "calendar.schedule.create", "--timezone", "Asia/Shanghai", "--now",
                "2026-11-30T09:00:00+08:00", "remind", "me", "tomorrow", "at", "9am", "to", "call", "grandma");
        assertThat(run.code()).isZero();
        assertThat(run.out()).contains("arguments:     {\"date\":\"2026-12-01\",\"time\":\"09:00\","
                + "\"timezone\":\"Asia/Shanghai\",\"title\":\"call grandma\"}", "missing:       none");
    }

    @Test
    @DisplayName("resolve: 'missing' lists the schema's required fields the words did not give, never 'none'")
    void resolveMissing() {
        Run run = run("resolve", "--event", "calendar.schedule.create", "--timezone", "Asia/Shanghai", "--now",
                "2026-11-30T09:00:00+08:00", "remind", "me", "this", "afternoon", "to", "buy", "milk");
        assertThat(run.code()).isZero();
        assertThat(run.out()).contains("missing:       time", "clarification: What time").doesNotContain("none");
    }

    @Test
    @DisplayName("resolve --json: one JSON object with arguments, missing fields, the question and the source clause")
    void resolveJson() throws Exception {
        Run run = run("resolve", "--json", "--event", "calendar.schedule.create", "--timezone", "Asia/Shanghai",
                "--now", "2026-11-30T09:00:00+08:00", "remind", "me", "tomorrow", "to", "call", "grandma");
        assertThat(run.code()).isZero();
        tools.jackson.databind.JsonNode document = tools.jackson.databind.json.JsonMapper.builder().build()
                .readTree(run.out());
        assertThat(document.get("event").asString()).isEqualTo("calendar.schedule.create");
        assertThat(document.get("arguments").get("date").asString()).isEqualTo("2026-12-01");
        assertThat(document.get("missing").toString()).isEqualTo("[\"time\"]");
        assertThat(document.get("clarification").asString()).isEqualTo("What time should I set it for?");
        assertThat(document.get("source").asString()).isEqualTo("remind me tomorrow to call grandma");
    }

    @Test
    @DisplayName("resolve: an unknown event is a usage error that lists the offered events")
    void resolveUnknown() {
        Run run = run("resolve", "--event", "lamp.power.toggle", "lamp", "on");
        assertThat(run.code()).isEqualTo(2);
        assertThat(run.err()).startsWith("agentlab resolve: no event named 'lamp.power.toggle'")
                .contains("device.volume.adjust");
    }

    @Test
    @DisplayName("resolve: a --now that is not a time with an offset is one line saying the form it takes")
    void resolveBadNow() {
        Run run = run("resolve", "--event", "device.volume.adjust", "--now", "yesterday", "louder");
        assertThat(run.code()).isEqualTo(2);
        assertThat(run.err().strip()).isEqualTo("agentlab resolve: --now: expected a date and time with its offset, "
                + "e.g. 2026-12-01T08:00+08:00, got 'yesterday'");
    }

    @Test
    @DisplayName("record: an unknown provider family is a usage error before anything is forwarded")
    void recordUnknownFamily() {
        Run run = run("record", "--upstream", "http://127.0.0.1:9/v1", "--provider-family", "mistral",
                "--out", temp.resolve("recordings").toString(), "--requests", "1");
        assertThat(run.code()).isEqualTo(2);
        assertThat(run.err()).contains("--provider-family: unknown provider family 'mistral'; the kit describes "
                + "openai, deepseek, dashscope and llamacpp (and openai-compatible for any other server)")
                .doesNotContain("Exception");
    }

    @Test
    @DisplayName("run: a passing folder exits 0 and prints progress, the comparison and the report path")
    void runPasses() {
        Path report = temp.resolve("report");
        Run run = run("run", "--suites", suites("passing"), "--speed", "0", "--no-gates", "--report", report.toString(),
                "--config", "agentlab.report.control=false");
        assertThat(run.code()).as(run.out()).isZero();
        assertThat(run.out()).contains("  ok    set-to-thirty [dual_agent]", "  ok    set-to-thirty [parity]",
                "3 tests: 3 passed, 0 failed, 0 skipped");
        assertThat(report.resolve("index.html")).exists();
        assertThat(report.resolve("metrics.json")).exists();
    }

    @Test
    @DisplayName("run in a project with WireMock stubs of its own: the replay server loads none of them")
    void projectStubsStayOut() throws Exception {
        // WireMock reads src/test/resources/mappings of the working directory by default; a service team's project
        // has its stubs there (docs/limits-and-safety.md#replay-server). A JVM of its own, to set the directory.
        Path project = temp.resolve("project");
        Path mappings = Files.createDirectories(project.resolve("src/test/resources/mappings"));
        Files.writeString(mappings.resolve("team-stub.json"), "{ \"request\": this team's stub, malformed");
        Path report = temp.resolve("report");
        Path out = temp.resolve("out.txt");
        List<String> command = Run.javaCommand(List.of(), AgentLab.class);
        command.addAll(List.of("run", "--suites", suites("passing"), "--speed", "0", "--no-gates", "--report",
                report.toString(), "--config", "agentlab.report.control=false"));
        Process process = new ProcessBuilder(command).directory(project.toFile()).redirectErrorStream(true)
                .redirectOutput(out.toFile()).start();
        try {
            assertThat(process.waitFor(2, TimeUnit.MINUTES)).as("the run ends").isTrue();
        } finally {
            process.destroyForcibly();
        }
        String printed = Files.readString(out);
        assertThat(process.exitValue()).as(printed).isZero();
        assertThat(printed).contains("3 tests: 3 passed, 0 failed, 0 skipped").doesNotContain("team-stub");
    }

    @Test
    @DisplayName("baseline: a run's metrics.json becomes the baseline file; unreadable input exits 2 with one line")
    void baseline() throws IOException {
        Path report = temp.resolve("report");
        assertThat(run("run", "--suites", suites("passing"), "--speed", "0", "--no-gates", "--report",
                report.toString(), "--config", "agentlab.report.control=false").code()).isZero();
        Path baseline = temp.resolve("gate/baseline.json");
        Run written = run("baseline", "--from", report.resolve("metrics.json").toString(), "--to", baseline.toString());
        assertThat(written.code()).as(written.err()).isZero();
        assertThat(written.out()).contains("wrote " + baseline, "dual_agent, chat_agent_tools");
        assertThat(Files.readString(baseline)).contains("\"chatPromptTokensPerTurn\"", "\"selectionRecall\"");
        Run missing = run("baseline", "--from", temp.resolve("none.json").toString(), "--to", baseline.toString());
        assertThat(missing.code()).isEqualTo(2);
        assertThat(missing.err().lines()).singleElement().asString().startsWith("agentlab baseline: cannot read the "
                + "run's metrics");
    }

    @Test
    @DisplayName("baseline: a partial launch's metrics.json is refused in one line, unless --allow-partial")
    void baselineRefusesPartial() throws IOException {
        Path report = temp.resolve("report");
        assertThat(run("run", "--suites", suites("passing"), "--speed", "0", "--no-gates", "--report",
                report.toString(), "--config", "agentlab.report.control=false").code()).isZero();
        String whole = Files.readString(report.resolve("metrics.json"));
        Run partial = run("run", "--suites", suites("passing"), "--speed", "0", "--no-gates", "--report",
                report.toString(), "--config", "agentlab.report.control=false", "--case",
                "[engine:agentlab-conformance]/[suite:cli-volume]/[case:set-to-thirty]/[mode:dual_agent]");
        assertThat(partial.code()).as(partial.out()).isZero();
        assertThat(partial.out()).contains("partial launch: 1 of 1 case(s) (1 of 3 test(s))");
        // the whole run's figures stay where they were; the rerun's are beside them
        assertThat(Files.readString(report.resolve("metrics.json"))).isEqualTo(whole);
        Path baseline = temp.resolve("baseline.json");
        Run refused = run("baseline", "--from", report.resolve("partial/metrics.json").toString(), "--to",
                baseline.toString());
        assertThat(refused.code()).isEqualTo(2);
        assertThat(refused.err().lines()).singleElement().asString().startsWith("agentlab baseline: ")
                .contains("partial launch", "--allow-partial");
        assertThat(baseline).doesNotExist();
        Run allowed = run("baseline", "--from", report.resolve("partial/metrics.json").toString(), "--to",
                baseline.toString(), "--allow-partial");
        assertThat(allowed.code()).as(allowed.err()).isZero();
        assertThat(baseline).exists();
    }

    @Test
    @DisplayName("run: a failing case exits 1 and prints what failed, with its clause")
    void runFails() {
        Run run = run("run", "--suites", suites("failing"), "--speed", "0", "--no-gates", "--report",
                temp.resolve("r").toString(), "--config", "agentlab.report.control=false");
        assertThat(run.code()).isEqualTo(1);
        assertThat(run.out()).contains("  FAIL  wrong-level [dual_agent]",
                "[docs/design.md#plugin-volume-modes absolute level] cli-wrong/wrong-level",
                "expected argument 'value' = 40 but was 30");
    }

    @Test
    @DisplayName("run --evaluate: a label the replies miss is a score, not a failure; --repetitions needs --evaluate")
    void evaluate() throws IOException {
        Path report = temp.resolve("eval");
        Run run = run("run", "--evaluate", "--repetitions", "3", "--suites", suites("failing"), "--speed", "0",
                "--report", report.toString(), "--config", "agentlab.report.control=false");
        assertThat(run.code()).as(run.out()).isZero();
        assertThat(run.out()).contains("evaluating with 3 repetition(s)", "  ok    wrong-level [dual_agent]");
        assertThat(Files.readString(report.resolve("evaluation.md"))).contains("3 repetitions per case and mode",
                "| argument accuracy after normalization | 0.0 % [");
        assertThat(report.resolve("evaluation.json")).exists();

        Run alone = run("run", "--repetitions", "3", "--suites", suites("failing"));
        assertThat(alone.code()).isEqualTo(2);
        assertThat(alone.err()).contains("--repetitions needs --evaluate").doesNotContain("Exception");
    }

    @Test
    @DisplayName("check-stream: a valid AG-UI SSE endpoint passes; a broken one names the rule; an unreadable one "
            + "gets one line on stderr and exit code 2, never a stack trace")
    void checkStream() throws IOException {
        List<AguiEvent> good = List.of(new AguiEvent(AguiEvent.RUN_STARTED, Map.of("runId", "r1", "threadId", "s")),
                new AguiEvent(AguiEvent.RUN_FINISHED, Map.of("runId", "r1", "threadId", "s")));
        List<AguiEvent> broken = List.of(new AguiEvent(AguiEvent.RUN_STARTED, Map.of("runId", "r1", "threadId", "s")));
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/good", exchange -> serve(exchange, good));
        server.createContext("/broken", exchange -> serve(exchange, broken));
        server.createContext("/gone", exchange -> {
            exchange.sendResponseHeaders(410, -1);
            exchange.close();
        });
        server.start();
        try {
            String base = "http://127.0.0.1:" + server.getAddress().getPort();
            Run ok = run("check-stream", base + "/good", "--run-id", "r1");
            assertThat(ok.code()).as(ok.out()).isZero();
            assertThat(ok.out()).contains("2 event(s), profile agui-1.0", "the stream passes every rule");
            Run bad = run("check-stream", base + "/broken", "--run-id", "r1");
            assertThat(bad.code()).isEqualTo(1);
            assertThat(bad.out()).contains("AGUI1-07 in the stream: the stream closed while its run was active",
                    "1 rule(s) broken");
            Run gone = run("check-stream", base + "/gone");
            assertThat(gone.code()).isEqualTo(2);
            assertThat(gone.err()).isEqualTo("agentlab check-stream: cannot read " + base + "/gone: GET answered HTTP "
                    + "410 (an AG-UI endpoint answers 200 with an SSE stream)" + System.lineSeparator());
        } finally {
            server.stop(0);
        }
    }

    @Test
    @DisplayName("check-stream files: the runs of one thread in order, checked against the profile chosen")
    void checkStreamFiles() throws IOException {
        Path social = temp.resolve("social.sse");
        Files.writeString(social, "event: RUN_STARTED\ndata: {\"type\":\"RUN_STARTED\",\"threadId\":\"s\","
                + "\"runId\":\"r1\"}\n\nevent: RUN_ERROR\ndata: {\"type\":\"RUN_ERROR\",\"threadId\":\"s\","
                + "\"runId\":\"r1\",\"message\":\"run canceled by user\",\"code\":\"RUN_CANCELED\"}\n\n");
        Run dialect = run("check-stream", social.toString(), "--profile", "social-dialect");
        assertThat(dialect.code()).as(dialect.out()).isZero();
        Run agui = run("check-stream", social.toString());
        assertThat(agui.code()).isEqualTo(1);
        assertThat(agui.out()).contains("AGUI1-04 at event 2 RUN_ERROR, field /threadId: is not a field of RUN_ERROR");
        Run unknown = run("check-stream", social.toString(), "--profile", "ag-ui");
        assertThat(unknown.code()).isEqualTo(2);
        assertThat(unknown.err()).isEqualTo("agentlab check-stream: no AG-UI profile 'ag-ui'; expected one of agui-1.0, "
                + "social-dialect" + System.lineSeparator());
        Run missing = run("check-stream", temp.resolve("none.sse").toString());
        assertThat(missing.code()).isEqualTo(2);
        assertThat(missing.err()).contains("none.sse' is neither an http or https URL nor a file")
                .doesNotContain("\tat ");
    }

    /** Serves a run's events as SSE, resuming after Last-Event-ID as the endpoint contract requires. */
    private static void serve(com.sun.net.httpserver.HttpExchange exchange, List<AguiEvent> events) throws IOException {
        String body = AguiSseCodec.resume(events, exchange.getRequestHeaders().getFirst("Last-Event-ID"));
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "text/event-stream");
        exchange.sendResponseHeaders(200, bytes.length);
        exchange.getResponseBody().write(bytes);
        exchange.close();
    }

    @Test
    @DisplayName("record: a proxy in front of a live provider (WireMock here), on the --port given, writes a recording "
            + "without the key")
    void record() throws Exception {
        Path recordings = temp.resolve("recordings");
        String key = "sk-" + "x".repeat(8) + "cli" + "y".repeat(12); // assembled at run time: no key-shaped literal
        try (TimedReplay upstream = TimedReplay.start(Recordings.loadDirectory(Path.of(
                "../providers-recorded/src/main/resources/recordings")), 0)) {
            Started proxy = recordOnAFreePort(upstream.baseUrl(), recordings);
            var completion = new OpenAiCompatibleClient(new OpenAiCompatibleClient.Config(proxy.url(),
                    "AGENTLAB_CLI_TEST_KEY", Duration.ofSeconds(5), Duration.ofSeconds(10)), name -> key,
                    System::nanoTime).stream(new ChatRequest("m", List.of(ChatMessage.user("turn the lamp on")),
                            List.of(), null, null, true, CallRole.CHAT), delta -> { });
            assertThat(completion.content()).isNotBlank();
            assertThat(proxy.exit().get(30, TimeUnit.SECONDS)).isZero();
        }
        List<Path> written;
        try (var files = Files.list(recordings)) {
            written = files.toList();
        }
        assertThat(written).hasSize(1);
        assertThat(Files.readString(written.get(0))).doesNotContain(key).contains("turn the lamp on");
    }

    @Test
    @DisplayName("record: a short credential is refused in one line naming the header and the bound, exit 2, "
            + "nothing written")
    void recordRefusesShortCredential() throws Exception {
        Path recordings = temp.resolve("recordings");
        try (TimedReplay upstream = TimedReplay.start(Recordings.loadDirectory(Path.of(
                "../providers-recorded/src/main/resources/recordings")), 0)) {
            Started proxy = record("record", "--upstream", upstream.baseUrl(), "--out", recordings.toString());
            assertThat(proxy.url()).as("record exited before printing its URL: %s", proxy.err()).isNotNull();
            var client = new OpenAiCompatibleClient(new OpenAiCompatibleClient.Config(proxy.url(),
                    "AGENTLAB_CLI_TEST_KEY", Duration.ofSeconds(5), Duration.ofSeconds(10)), name -> "delta",
                    System::nanoTime);
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> client.stream(new ChatRequest("m",
                    List.of(ChatMessage.user("turn the lamp on")), List.of(), null, null, true, CallRole.CHAT),
                    delta -> { })).hasMessageContaining("credentials shorter than 16 characters are refused");
            assertThat(proxy.exit().get(30, TimeUnit.SECONDS)).isEqualTo(2); // stops at once, no --requests bound
            assertThat(proxy.err().toString().lines().toList()).singleElement().asString().isEqualTo("agentlab record: "
                    + "refused POST /v1/chat/completions: the Authorization header (Bearer token) carries a credential "
                    + "of 5 characters; credentials shorter than 16 characters are refused, because they cannot be "
                    + "told apart from ordinary text (docs/limits-and-safety.md#credentials)");
        }
        try (var files = Files.list(recordings)) {
            assertThat(files).isEmpty();
        }
    }

    /**
     * A {@code record} command started: the URL it printed ({@code null} if it exited first), its exit code to come
     * and what it wrote on stderr.
     */
    private record Started(String url, CompletableFuture<Integer> exit, java.io.StringWriter err) { }

    /** Starts {@code agentlab <args>} and waits until it prints its proxy URL or exits, whichever comes first. */
    private static Started record(String... args) throws Exception {
        CompletableFuture<String> proxyUrl = new CompletableFuture<>();
        java.io.StringWriter err = new java.io.StringWriter();
        CommandLine cli = AgentLab.commandLine();
        cli.setOut(new PrintWriter(urlWatcher(proxyUrl), true));
        cli.setErr(new PrintWriter(err, true));
        CompletableFuture<Integer> exit = CompletableFuture.supplyAsync(() -> cli.execute(args));
        CompletableFuture.anyOf(proxyUrl, exit).get(30, TimeUnit.SECONDS);
        return new Started(proxyUrl.getNow(null), exit, err);
    }

    /**
     * Starts {@code record --port P} on a port found free a moment before. Another process may bind that port in
     * between (the OS hands a released port out again), which {@code record} answers with its one "is in use" line,
     * exit 2: that case alone is retried, on a new port, a few times; any other early exit fails with what it said.
     */
    private static Started recordOnAFreePort(String upstream, Path recordings) throws Exception {
        for (int attempt = 1; ; attempt++) {
            int port;
            try (java.net.ServerSocket free = new java.net.ServerSocket(0, 1,
                    java.net.InetAddress.getByName("127.0.0.1"))) {
                port = free.getLocalPort();
            }
            Started started = record("record", "--upstream", upstream, "--out", recordings.toString(), "--requests",
                    "1", "--port", Integer.toString(port));
            if (started.url() != null) {
                assertThat(started.url()).startsWith("http://127.0.0.1:" + port + "/");
                return started;
            }
            boolean taken = started.err().toString().contains("127.0.0.1:" + port + " is in use");
            assertThat(taken && attempt < 5).as("record exited %d before printing its URL: %s",
                    started.exit().get(), started.err()).isTrue();
        }
    }

    private static Writer urlWatcher(CompletableFuture<String> proxyUrl) {
        return new Writer() {
            private final StringBuilder seen = new StringBuilder();

            @Override
            public void write(char[] chars, int offset, int length) {
                seen.append(chars, offset, length);
                Matcher matcher = Pattern.compile(" at (http://\\S+/v1);").matcher(seen);
                if (matcher.find()) {
                    proxyUrl.complete(matcher.group(1));
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
    }
}
