package io.agentlab.cli;

import static io.agentlab.cli.Run.run;
import static io.agentlab.cli.Run.suites;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every wrong value a person types is the usage error 2 in exactly one line on stderr, naming the option, the value
 * and what is allowed, before anything starts (docs/cli.md#accepted-values); the valid neighbours still pass.
 */
class BadValuesTest {

    /** Long enough for a parse error on a loaded machine; far shorter than a proxy left waiting for a request. */
    private static final Duration QUICK = Duration.ofSeconds(20);

    @TempDir
    Path temp;

    /** The run's stderr: one line, {@code agentlab <command>: }, naming every fragment, never an exception. */
    private static void oneLine(Run run, String command, String... fragments) {
        assertThat(run.code()).as(run.err()).isEqualTo(AgentLab.USAGE);
        assertThat(run.err().lines().toList()).as(run.err()).singleElement().asString()
                .startsWith("agentlab " + command + ": ").contains(fragments)
                .doesNotContain("Exception", "please report", "PT0S", "\tat ");
    }

    /**
     * {@code record} against an upstream nothing listens on, its recordings in the temp folder unless {@code options}
     * give {@code --out}; bounded, so a command that starts and waits fails the test instead of hanging it.
     */
    private Run record(String... options) {
        List<String> args = new ArrayList<>(List.of("record", "--upstream", "http://127.0.0.1:9/v1"));
        if (!List.of(options).contains("--out")) {
            args.addAll(List.of("--out", temp.resolve("recordings").toString()));
        }
        args.addAll(List.of(options));
        return assertTimeoutPreemptively(QUICK, () -> run(args.toArray(String[]::new)));
    }

    @ParameterizedTest(name = "--live-base-url {0}")
    @ValueSource(strings = {"not-a-url", "file:///etc/hosts", "ftp://example.com/v1", "http:///v1", "http://",
            "localhost:8080/v1", ""})
    @DisplayName("run --live-base-url: anything but an http or https URL with a host is exit 2 before any case runs")
    void liveBaseUrl(String url) {
        oneLine(run("run", "--provider", "live", "--live-base-url", url, "--suites", suites("passing"), "--report",
                temp.resolve("report").toString()), "run",
                "--live-base-url", "'" + url + "'", "http or https URL with a host");
    }

    @Test
    @DisplayName("run --live-base-url: an http or https URL is accepted as before (validate discovers, exit 0)")
    void liveBaseUrlValid() {
        for (String url : List.of("http://127.0.0.1:9/v1", "HTTPS://api.example.com/v1")) {
            Run run = run("validate", "--provider", "live", "--live-base-url", url, "--suites", suites("passing"));
            assertThat(run.code()).as(url + ": " + run.err()).isZero();
        }
    }

    @ParameterizedTest(name = "--runtime {0}")
    @ValueSource(strings = {"http://example.com:8080", "http://10.0.0.7:8080", "ftp://127.0.0.1:8080", "127.0.0.1:8080",
            ""})
    @DisplayName("run --runtime: anything but an http or https URL on loopback is exit 2 before any case runs")
    void runtimeUrl(String url) {
        oneLine(run("run", "--runtime", url, "--suites", suites("passing"), "--report",
                temp.resolve("report").toString()), "run", "--runtime", "'" + url + "'", "on loopback");
    }

    @Test
    @DisplayName("run --runtime-command with a quote left open is exit 2; --runtime with --provider live too")
    void runtimeCommand() {
        oneLine(run("run", "--runtime-command", "python3 \"my runtime.py", "--suites", suites("passing"), "--report",
                temp.resolve("report").toString()), "run", "--runtime-command", "every quote closed");
        oneLine(run("run", "--runtime", "http://127.0.0.1:8080", "--provider", "live", "--live-base-url",
                "http://127.0.0.1:9/v1", "--suites", suites("passing"), "--report", temp.resolve("report").toString()),
                "run", "--runtime and --runtime-command judge a runtime against the kit's replay");
    }

    @Test
    @DisplayName("a value given with '=' that starts with '-' is judged by its option (red: picocli read -V5 as -V); "
            + "a value forgotten before the next option still says so")
    void attachedValueLikeAnOption() {
        oneLine(run("validate", "--runtime-command=-V5 \"x", "--suites", suites("passing")), "validate",
                "'--runtime-command'", "every quote closed", "got '-V5 \"x'");
        oneLine(run("validate", "--speed=-h", "--suites", suites("passing")), "validate", "'--speed'",
                "expected a number from 0 to 10", "got '-h'");
        oneLine(run("validate", "--suites", "--speed", "0"), "validate",
                "Expected parameter for option '--suites' but found '--speed'");
        // the '=' value is let through, but an option followed by a separate one still does not take it as its value
        oneLine(run("validate", "--speed=-h", "--suites", "--runtime-command", "x"), "validate",
                "Expected parameter for option '--suites' but found '--runtime-command'");
        oneLine(run("run", "--speed=-h", "--rerun-failed", "--suites", suites("passing")), "run",
                "'--rerun-failed' cannot be read without a value next to '--speed=-h'", "or put it last");
        oneLine(run("run", "--suites", suites("passing"), "--speed=-h", "--rerun-failed"), "run", "'--speed'",
                "expected a number from 0 to 10", "got '-h'");
        // a value spelled like an option's name without its dashes is a value: a folder called "suites"
        oneLine(run("validate", "--suites", "suites", "--speed=-h"), "validate", "'--speed'",
                "expected a number from 0 to 10", "got '-h'");
    }

    @Test
    @DisplayName("a mistyped option names the closest one, as a mistyped --config key does; a name like none names none; "
            + "another command's option names that command")
    void mistypedOption() {
        oneLine(run("run", "--sped", "0", "--suites", suites("passing")), "run", "Unknown options: '--sped', '0'",
                "; did you mean --speed? (see agentlab run --help)");
        oneLine(run("validate", "--suits", suites("passing")), "validate", "did you mean --suites?");
        // the closest, not picocli's first option sharing two letters (it offered --recordings)
        oneLine(run("run", "--repport", temp.toString(), "--suites", suites("passing")), "run",
                "did you mean --report?");
        oneLine(run("run", "--no-gate", "--suites", suites("passing")), "run", "did you mean --no-gates?");
        // the first unmatched option, though a stray word comes before it; two letters swapped are one edit
        oneLine(run("run", "stray", "--repotr", temp.toString(), "--suites", suites("passing")), "run",
                "did you mean --report?");
        // another command's option is said to be that command's, not answered with a near name of this one (--port)
        Run elsewhere = run("record", "--report", temp.toString(), "--upstream", "http://127.0.0.1:9/v1");
        oneLine(elsewhere, "record", "Unknown options: '--report'",
                "; --report is an option of agentlab run, not of agentlab record (see agentlab record --help)");
        assertThat(elsewhere.err()).doesNotContain("did you mean");
        oneLine(run("record", "--report=" + temp, "--upstream", "http://127.0.0.1:9/v1"), "record",
                "; --report is an option of agentlab run, not of agentlab record");
        oneLine(run("run", "--out", temp.toString(), "--suites", suites("passing")), "run",
                "; --out is an option of ", " or agentlab ", ", not of agentlab run");
        Run subcommand = run("rnu", "--suites", suites("passing"));
        assertThat(subcommand.code()).isEqualTo(AgentLab.USAGE);
        assertThat(subcommand.err()).startsWith("agentlab: ").contains("'rnu'", "did you mean run?");
        Run unlike = run("validate", "--zzzzzzzz", "--suites", suites("passing"));
        oneLine(unlike, "validate", "Unknown option: '--zzzzzzzz'");
        assertThat(unlike.err()).doesNotContain("did you mean");
    }

    @ParameterizedTest(name = "--upstream {0}")
    @ValueSource(strings = {"not-a-url", "file:///tmp/v1", "http://"})
    @DisplayName("record --upstream: not an http or https URL is exit 2 at once (it used to start and wait forever)")
    void recordUpstream(String url) {
        Run run = assertTimeoutPreemptively(QUICK, () -> run("record", "--upstream", url, "--out",
                temp.resolve("recordings").toString()));
        oneLine(run, "record", "--upstream", "'" + url + "'", "http or https URL with a host");
        assertThat(temp.resolve("recordings")).doesNotExist();
    }

    @ParameterizedTest(name = "--speed {0}")
    @ValueSource(strings = {"1e9", "10.5", "-1", "-0.1", "NaN", "Infinity", "fast", ""})
    @DisplayName("run --speed: outside 0 to 10 (or not a number) is exit 2 naming the range")
    void speed(String speed) {
        oneLine(run("run", "--speed", speed, "--suites", suites("passing"), "--report",
                temp.resolve("report").toString()), "run", "--speed", "'" + speed + "'", "from 0 to 10", "1.0 faithful");
    }

    @Test
    @DisplayName("run --speed: 0, 0.5, 1, 2.5 and 10 are accepted as before")
    void speedValid() {
        for (String speed : List.of("0", "0.5", "1", "2.5", "10")) {
            Run run = run("validate", "--speed", speed, "--suites", suites("passing"));
            assertThat(run.code()).as(speed + ": " + run.err()).isZero();
        }
    }

    @ParameterizedTest(name = "--timeout {0}")
    @ValueSource(strings = {"99999999999", "0", "-5", "3601", "99999999999999999999", "1.5", "soon"})
    @DisplayName("check-stream --timeout: outside 1 to 3600 seconds is exit 2 naming the range, no overflow or PT0S")
    void timeout(String seconds) {
        oneLine(run("check-stream", "--timeout", seconds, "http://127.0.0.1:9/runs/r1/events"), "check-stream",
                "--timeout", "'" + seconds + "'", "from 1 to 3600");
    }

    @Test
    @DisplayName("check-stream --timeout 3600 and 1 are accepted: a saved stream is read and judged as before")
    void timeoutValid() throws IOException {
        Path saved = Files.writeString(temp.resolve("run.sse"), "data: {\"type\":\"RUN_STARTED\",\"threadId\":\"t\","
                + "\"runId\":\"r1\"}\n\ndata: {\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"r1\"}\n\n");
        for (String seconds : List.of("1", "3600")) {
            Run run = run("check-stream", "--timeout", seconds, saved.toString());
            assertThat(run.code()).as(seconds + ": " + run.out() + run.err()).isIn(0, 1);
            assertThat(run.out()).contains("2 event(s)");
        }
    }

    @ParameterizedTest(name = "--{0} {1}")
    @org.junit.jupiter.params.provider.CsvSource({"max-frame-bytes, 0", "max-frame-bytes, -1",
            "max-events, 0", "max-events, 99999999999999999999"})
    @DisplayName("check-stream --max-frame-bytes and --max-events: below 1 is exit 2 naming the bound")
    void checkStreamCaps(String option, String value) {
        oneLine(run("check-stream", "--" + option, value, "http://127.0.0.1:9/runs/r1/events"), "check-stream",
                "--" + option, "'" + value + "'", "from 1 to");
    }

    @Test
    @DisplayName("record --out an existing file: one line saying it is a file, exit 2, before the proxy starts")
    void recordOutIsAFile() throws IOException {
        Path file = Files.writeString(temp.resolve("recordings.txt"), "not a folder");
        Run run = record("--out", file.toString(), "--requests", "1");
        oneLine(run, "record", "--out", "'" + file + "'", "is a file");
        assertThat(run.out()).as("the proxy never started").isEmpty();
    }

    @ParameterizedTest(name = "--requests {0}")
    @ValueSource(strings = {"-1", "0", "2147483648", "many"})
    @DisplayName("record --requests: below 1 (or not a whole number) is exit 2 before the proxy starts")
    void recordRequests(String requests) {
        Run run = record("--requests", requests);
        oneLine(run, "record", "--requests", "'" + requests + "'", "from 1 to 2147483647");
        assertThat(run.out()).as("the proxy never started").isEmpty();
    }

    @ParameterizedTest(name = "--port {0}")
    @ValueSource(strings = {"0", "-1", "65536", "http"})
    @DisplayName("record --port: outside 1 to 65535 is exit 2 before the proxy starts")
    void recordPortRange(String port) {
        Run run = record("--port", port);
        oneLine(run, "record", "--port", "'" + port + "'", "from 1 to 65535");
        assertThat(run.out()).as("the proxy never started").isEmpty();
    }

    @Test
    @DisplayName("record --port a port in use: one line saying so, exit 2")
    void recordPortInUse() throws IOException {
        try (java.net.ServerSocket taken = new java.net.ServerSocket(0, 1,
                java.net.InetAddress.getByName("127.0.0.1"))) {
            String port = Integer.toString(taken.getLocalPort());
            Run run = record("--port", port);
            oneLine(run, "record", "--port", "127.0.0.1:" + port + " is in use");
        }
    }

    @Test
    @DisplayName("run/validate --recordings: a folder of recordings the suites name; a missing folder is exit 2")
    void recordingsFolder() throws IOException {
        Path folder = Files.createDirectories(temp.resolve("my-recordings"));
        String recorded = Files.readString(Path.of("../providers-recorded/src/main/resources/recordings/"
                + "fault-http-500.json")).replace("\"fault-http-500\"", "\"my-500\"");
        Files.writeString(folder.resolve("my-500.json"), recorded);
        Path suite = Files.writeString(temp.resolve("mine.suite.yaml"), """
                id: mine
                title: My recording
                kernel: {events: [device.volume.adjust]}
                cases:
                  - id: server-error
                    clause: docs/design.md#provider-fault-codes a server error is the error provider_http_500
                    turns:
                      - user: fault 500
                        recordings: [my-500]
                        expect: {error: provider_http_500}
                """);

        Run without = run("validate", "--suites", suite.toString());
        assertThat(without.code()).as(without.out() + without.err()).isNotZero();
        assertThat(without.out() + without.err()).contains("my-500");
        Run with = run("validate", "--suites", suite.toString(), "--recordings", folder.toString());
        assertThat(with.code()).as(with.out() + with.err()).isZero();
        oneLine(run("validate", "--suites", suite.toString(), "--recordings", temp.resolve("nowhere").toString()),
                "validate", "--recordings: no such folder");
    }

    @Test
    @DisplayName("run --suites a file that is not a suite, given beside a folder: exit 2 naming it, not left out")
    void suitesNotASuiteFile() throws IOException {
        Path text = Files.writeString(temp.resolve("notes.txt"), "a note\n");
        Path yaml = Files.writeString(temp.resolve("settings.yaml"), "colour: blue\n");
        for (Path file : List.of(text, yaml)) {
            Run run = run("run", "--suites", suites("passing"), "--suites", file.toString(), "--speed", "0",
                    "--no-gates", "--report", temp.resolve("report").toString());
            oneLine(run, "run", "--suites", file.toString(), "is not a suite file", "*.suite.yaml");
            assertThat(run.out()).as("no case ran").doesNotContain("  ok ");
            Run validate = run("validate", "--suites", suites("passing"), "--suites", file.toString());
            assertThat(validate.code()).as("validate reports it as a problem").isEqualTo(1);
            assertThat(validate.out()).contains("problem: --suites: " + file + " is not a suite file");
        }
    }

    @Test
    @DisplayName("help: a command, listing the commands; help run prints run's usage; help nosuch is exit 2")
    void helpCommand() {
        Run all = run("help");
        assertThat(all.code()).as(all.err()).isZero();
        assertThat(all.out()).contains("Usage: agentlab", "run", "record", "check-stream", "help");
        Run one = run("help", "run");
        assertThat(one.code()).isZero();
        assertThat(one.out()).startsWith("Usage: agentlab run").contains("--speed");
        Run unknown = run("help", "nosuch");
        assertThat(unknown.code()).isEqualTo(AgentLab.USAGE);
        assertThat(unknown.err().lines().toList()).singleElement().asString()
                .isEqualTo("agentlab: Unknown subcommand 'nosuch'. (see agentlab --help)");
    }

    @Test
    @DisplayName("every command's help, in a JVM of its own, prints no [picocli WARN] (an unescaped % in a "
            + "description does)")
    void helpHasNoPicocliWarnings() throws Exception {
        // a JVM of its own: picocli's tracer keeps the System.err of when CommandLine was first loaded, so
        // System.setErr in this JVM would not see its warnings
        Path err = temp.resolve("err.txt");
        Path out = temp.resolve("out.txt");
        Process process = new ProcessBuilder(Run.javaCommand(List.of(), HelpPages.class)).redirectError(err.toFile())
                .redirectOutput(out.toFile()).start();
        assertThat(process.waitFor(2, TimeUnit.MINUTES)).as("the help pages render").isTrue();
        assertThat(process.exitValue()).as(Files.readString(err)).isZero();
        assertThat(Files.readString(out)).as("every command rendered").contains("agentlab run", "agentlab record",
                "agentlab check-stream", "agentlab help");
        assertThat(Files.readString(err)).as("stderr").doesNotContain("[picocli WARN]").isEmpty();
    }
}
