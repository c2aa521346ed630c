package io.agentlab.engine.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectFile;

import io.agentlab.engine.ConformanceTestEngine;
import io.agentlab.engine.Constants;
import io.agentlab.runtime.service.RuntimeService;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;

/**
 * The engine judges a runtime over the wire (docs/wire.md): the reference service, started by command with the test's
 * class path, runs the sample suites and gets the verdicts the in-process kernel gets.
 */
class OverTheWireTest {

    @TempDir
    Path temp;

    /** The reference service started as a process, as an operator's command line would start it. */
    static String serviceCommand() {
        return "\"" + Path.of(System.getProperty("java.home"), "bin", "java") + "\" -cp \""
                + System.getProperty("java.class.path") + "\" " + RuntimeService.class.getName();
    }

    private EngineExecutionResults run(String suite, boolean wire) {
        EngineTestKit.Builder kit = EngineTestKit.engine(ConformanceTestEngine.ENGINE_ID)
                .configurationParameter(Constants.REPLAY_SPEED, "0")
                .configurationParameter(Constants.CONTROL_RUNS, "false")
                .configurationParameter("agentlab.gates.enabled", "false")
                .configurationParameter(Constants.REPORT_DIRECTORY, temp.resolve(wire ? "wire" : "local").toString())
                .selectors(selectFile(Path.of("src/test/resources/sample-suites", suite).toFile()));
        if (wire) {
            kit.configurationParameter(Constants.RUNTIME_COMMAND, serviceCommand());
        }
        return kit.execute();
    }

    /** Each test's name and verdict. */
    private static List<String> verdicts(EngineExecutionResults results) {
        return results.testEvents().finished().stream().map(OverTheWireTest::verdict).sorted()
                .collect(Collectors.toList());
    }

    private static String verdict(Event event) {
        TestExecutionResult result = event.getRequiredPayload(TestExecutionResult.class);
        return event.getTestDescriptor().getUniqueId() + " " + result.getStatus()
                + result.getThrowable().map(t -> " " + t.getMessage()).orElse("");
    }

    @org.junit.jupiter.params.ParameterizedTest(name = "{0}")
    @org.junit.jupiter.params.provider.ValueSource(strings = {"volume.suite.yaml", "batch.suite.yaml",
            "search.suite.yaml"})
    @DisplayName("a sample suite over the wire against the reference service: the in-process verdicts")
    void sameVerdicts(String suite) throws java.io.IOException {
        List<String> local = verdicts(run(suite, false));
        List<String> wire = verdicts(run(suite, true));
        assertThat(local).isNotEmpty();
        assertThat(wire).isEqualTo(local);
        assertThat(java.nio.file.Files.readString(temp.resolve("wire/runtime.log")))
                .contains("agentlab runtime service (agentlab-wire/1) listening on http://127.0.0.1:");
    }
}
