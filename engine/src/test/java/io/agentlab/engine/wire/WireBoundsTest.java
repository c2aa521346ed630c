package io.agentlab.engine.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectFile;

import io.agentlab.engine.ConformanceTestEngine;
import io.agentlab.engine.Constants;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;

/**
 * A runtime over the wire the kit cannot observe (docs/wire.md#bounds): unreachable, a command that exits at once, a
 * malformed stream, a hang mid-turn, a crash mid-turn. Each mode test of each case fails with one line naming the
 * cause, the first case's second turn is not run nor reported, the later case still runs, and the run ends within
 * the documented bound (with room for a loaded machine). The stubs are {@link StubRuntime}s: no sleeps.
 */
class WireBoundsTest {

    private static final Path SUITE = Path.of("src/test/wire-suites/bounds.suite.yaml");
    /** Room for a loaded 2-core machine above each documented bound; far below the defaults of 30 s. */
    private static final Duration SLACK = Duration.ofSeconds(15);

    @TempDir
    Path temp;

    private record Outcome(EngineExecutionResults results, Duration took) {
        /** The failure message of each mode test, by case and mode. */
        Map<String, String> modeFailures() {
            return finished("[mode:");
        }

        /** Each finished test whose unique id contains {@code segment}: its status and message. */
        Map<String, String> finished(String segment) {
            Map<String, String> failures = new java.util.TreeMap<>();
            for (Event event : results.testEvents().finished().list()) {
                String id = event.getTestDescriptor().getUniqueId().toString();
                if (!id.contains(segment)) {
                    continue;
                }
                TestExecutionResult result = event.getRequiredPayload(TestExecutionResult.class);
                failures.put(id.substring(id.indexOf("[case:")), result.getStatus() + " "
                        + result.getThrowable().map(Throwable::getMessage).orElse(""));
            }
            return failures;
        }
    }

    private Outcome run(Map<String, String> configuration) {
        EngineTestKit.Builder kit = EngineTestKit.engine(ConformanceTestEngine.ENGINE_ID)
                .configurationParameter(Constants.REPLAY_SPEED, "0")
                .configurationParameter(Constants.CONTROL_RUNS, "false")
                .configurationParameter(Constants.GATES_ENABLED, "false")
                .configurationParameter(Constants.REPORT_DIRECTORY, temp.resolve("report").toString())
                .selectors(selectFile(SUITE.toFile()));
        configuration.forEach(kit::configurationParameter);
        long started = System.nanoTime();
        EngineExecutionResults results = kit.execute();
        return new Outcome(results, Duration.ofNanos(System.nanoTime() - started));
    }

    /**
     * Both cases ran in both modes, each mode test failed with exactly one cause line, on turn 1, containing every
     * part of {@code cause}.
     */
    private static void oneClearFailureEach(Outcome outcome, String... cause) {
        Map<String, String> failures = outcome.modeFailures();
        assertThat(failures.keySet()).containsExactly("[case:later-case]/[mode:chat_agent_tools]",
                "[case:later-case]/[mode:dual_agent]", "[case:two-turns]/[mode:chat_agent_tools]",
                "[case:two-turns]/[mode:dual_agent]");
        failures.forEach((test, message) -> {
            assertThat(message).as(test).startsWith("FAILED ").contains("1 expectation(s) failed");
            List<String> lines = message.lines().filter(line -> line.startsWith("  - ")).toList();
            assertThat(lines).as(test + ": " + message).hasSize(1);
            assertThat(lines.get(0)).as(test).startsWith("  - turn 1 (\"set the volume to ").contains(cause);
        });
        assertThat(outcome.finished("[parity:")).as("parity over runs the wire could not show is not judged, never "
                + "passed").hasSize(2).allSatisfy((test, result) -> assertThat(result)
                .startsWith("ABORTED parity needs both modes observed, but ").contains(cause));
    }

    private static String stubCommand(String behaviour) {
        return OverTheWireTest.javaCommand(StubRuntime.class) + " " + behaviour;
    }

    @Test
    @DisplayName("an unreachable runtime URL: one line per test naming the URL and the ready bound, within it")
    void unreachable() throws IOException {
        // bound and never listening: connections are refused for as long as it is held, and no other process can
        // take the port meanwhile (a port closed again could be handed out to another test JVM's server)
        try (Socket held = new Socket()) {
            held.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            String url = "http://127.0.0.1:" + held.getLocalPort();
            Outcome outcome = run(Map.of(Constants.RUNTIME_URL, url, Constants.RUNTIME_READY_TIMEOUT, "1s"));
            oneClearFailureEach(outcome, "the runtime at " + url + " was not ready within 1 s "
                    + "(agentlab.runtime.ready-timeout)");
            assertThat(outcome.took()).isLessThan(Duration.ofSeconds(1).plus(SLACK));
        }
    }

    @Test
    @DisplayName("a runtime command that exits at once: one line per test naming the command, its exit code and log")
    void exitsAtOnce() {
        Outcome outcome = run(Map.of(Constants.RUNTIME_COMMAND, stubCommand("exit"),
                Constants.RUNTIME_READY_TIMEOUT, "20s"));
        oneClearFailureEach(outcome, "exited with code " + StubRuntime.EXIT_AT_ONCE + " before it was ready",
                StubRuntime.class.getName() + " exit", "runtime.log");
        // seen on the ready probe's next poll, not at the ready bound
        assertThat(outcome.took()).isLessThan(SLACK);
    }

    @Test
    @DisplayName("a malformed stream: one line per test naming the frame, and later cases still run")
    void malformed() throws IOException {
        try (StubRuntime stub = StubRuntime.start("malformed")) {
            Outcome outcome = run(Map.of(Constants.RUNTIME_URL, stub.url()));
            oneClearFailureEach(outcome, "the runtime's stream is malformed: frame 1 is not an AG-UI event",
                    "{this is not json");
            assertThat(outcome.took()).isLessThan(SLACK);
        }
    }

    @Test
    @DisplayName("a runtime that hangs mid-turn: one line per test naming the silence bound, each within it")
    void hangs() throws IOException {
        try (StubRuntime stub = StubRuntime.start("hang")) {
            Outcome outcome = run(Map.of(Constants.RUNTIME_URL, stub.url(), Constants.RUNTIME_TURN_TIMEOUT,
                    "500ms"));
            oneClearFailureEach(outcome, "the stream hung: nothing received for 500 ms "
                    + "(agentlab.runtime.turn-timeout) at " + stub.url() + "/agui");
            // four turns at most 500 ms of silence each, not the 30 s default
            assertThat(outcome.took()).isLessThan(Duration.ofSeconds(2).plus(SLACK));
        }
    }

    @Test
    @DisplayName("a runtime that crashes mid-turn: one line per test naming the exit code; it is started again for "
            + "the next case, at most 3 times")
    void crashes() {
        Outcome outcome = run(Map.of(Constants.RUNTIME_COMMAND, stubCommand("crash")));
        Map<String, String> failures = outcome.modeFailures();
        assertThat(failures).hasSize(4);
        // four starts (the first and three restarts), each crashing in its first turn
        failures.forEach((test, message) -> {
            List<String> lines = message.lines().filter(line -> line.startsWith("  - ")).toList();
            assertThat(lines).as(test + ": " + message).hasSize(1);
            assertThat(lines.get(0)).as(test).startsWith("  - turn 1 (").contains("the runtime exited with code "
                    + StubRuntime.CRASH, "runtime.log");
        });
        assertThat(outcome.took()).isLessThan(SLACK.plus(SLACK));
    }

    @Test
    @DisplayName("a started runtime that calls no provider: each provider error says the kit's provider served no "
            + "model call, the report says the cause once under its results and names the port the kit chose")
    void callsNoProvider() throws IOException {
        Outcome outcome = run(Map.of(Constants.RUNTIME_COMMAND, stubCommand("no-provider")));
        Map<String, String> failures = outcome.modeFailures();
        assertThat(failures).hasSize(4).allSatisfy((test, message) -> assertThat(message).contains("  - turn 1 (\"set "
                + "the volume to ", "): expected no error but the turn ended with error provider_connection; the kit's "
                + "provider served no model call in this turn: the runtime's model calls must go to the "
                + "AGENTLAB_PROVIDER_BASE_URL the kit gives it (docs/wire.md#no-provider-call)"));
        String cause = "cause: the kit's provider served no model call in any of the 6 turns, and 6 of them ended "
                + "with a provider error";
        assertThat(Files.readString(temp.resolve("report/report.md"))).contains(cause).doesNotContain("{port}")
                .containsPattern("\\| subject \\| over the wire: http://127\\.0\\.0\\.1:[1-9][0-9]* \\(started: ");
        // under the results line, before the run's metadata, as on the console
        String html = Files.readString(temp.resolve("report/index.html"));
        assertThat(html).contains("<p class=\"cause\" id=\"cause\">" + cause);
        assertThat(html.indexOf("id=\"cause\"")).isBetween(html.indexOf("id=\"summary\""),
                html.indexOf("id=\"run-metadata\""));
    }

    @Test
    @DisplayName("a runtime that fails before any model call with an error of its own: no word of the provider")
    void ownErrorBeforeAnyCall() throws IOException {
        Outcome outcome = run(Map.of(Constants.RUNTIME_COMMAND, stubCommand("own-error")));
        assertThat(outcome.modeFailures()).hasSize(4).allSatisfy((test, message) -> assertThat(message)
                .contains("expected no error but the turn ended with error runtime_error")
                .doesNotContain("served no model call"));
        assertThat(Files.readString(temp.resolve("report/report.md"))).doesNotContain("cause:");
    }
}
