package io.agentlab.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClasspathResource;
import static org.junit.platform.testkit.engine.EventConditions.displayName;
import static org.junit.platform.testkit.engine.EventConditions.event;
import static org.junit.platform.testkit.engine.EventConditions.finishedWithFailure;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.message;

import io.agentlab.engine.gates.Gates;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;

/** Gates are test nodes after every suite: a breach fails the run naming the gate, the value and the threshold. */
class GatesTest {

    @TempDir
    Path temp;

    private EngineTestKit.Builder kit() {
        return EngineTestKit.engine(ConformanceTestEngine.ENGINE_ID).selectors(selectClasspathResource("sample-suites"))
                .configurationParameter(ConformanceSettings.REPLAY_SPEED, "0")
                .configurationParameter(ConformanceSettings.CONTROL_RUNS, "false")
                .configurationParameter(Gates.ENABLED, "true")
                // speed 0 makes TTFT noise; this test is about the mechanics, not the ratio
                .configurationParameter(Gates.MAX_TTFT_RATIO, "100")
                .outputDirectoryCreator(new TempOutputDirectories(temp.resolve("out")));
    }

    @Test
    @DisplayName("every gate holds on the sample suites; an unset cost gate is skipped, saying why")
    void gatesHold() {
        EngineExecutionResults results = kit().execute();
        results.testEvents().assertStatistics(stats -> stats.failed(0).skipped(2).succeeded(27 + 8));
        assertThat(results.testEvents().skipped().stream().map(e -> e.getPayload(String.class).orElse("")))
                .allSatisfy(reason -> assertThat(reason).contains("agentlab.gate.max-cost-per-successful-event is not set"));
    }

    @Test
    @DisplayName("a breached threshold fails its gate node, naming the gate, the value and the key")
    void breach() {
        EngineExecutionResults results = kit().configurationParameter(Gates.MIN_PRECISION, "1.01").execute();
        results.testEvents().assertThatEvents().haveExactly(1, event(displayName(
                "event-selection precision (dual_agent) ≥ 1.01"), finishedWithFailure(message(
                "gate min-precision-dual_agent breached: measured 1, threshold ≥ 1.01 (agentlab.gate.min-precision)"))));
    }

    @Test
    @DisplayName("baseline: update writes the figures; a regression beyond the allowance names the figure")
    void baseline() throws IOException {
        Path baseline = temp.resolve("baseline.json");
        kit().configurationParameter(Gates.BASELINE_FILE, baseline.toString())
                .configurationParameter(Gates.UPDATE_BASELINE, "true").execute()
                .testEvents().assertStatistics(stats -> stats.failed(0));
        String written = Files.readString(baseline);
        assertThat(written).contains("\"chatPromptTokensPerTurn\"", "\"dual_agent\"", "\"chat_agent_tools\"");
        kit().configurationParameter(Gates.BASELINE_FILE, baseline.toString()).execute()
                .testEvents().assertStatistics(stats -> stats.failed(0).succeeded(27 + 8 + 14));
        // pretend the baseline was much leaner: today's prompt tokens are now a regression
        Files.writeString(baseline, written.replaceAll("\"chatPromptTokensPerTurn\" : [0-9.]+",
                "\"chatPromptTokensPerTurn\" : 10.0"));
        EngineExecutionResults regressed = kit().configurationParameter(Gates.BASELINE_FILE, baseline.toString())
                .execute();
        regressed.testEvents().assertThatEvents().haveExactly(1, event(finishedWithFailure(message(m -> m.startsWith(
                "gate baseline-dual_agent-chatPromptTokensPerTurn breached: measured ")
                && m.contains("threshold ≤ 11 (agentlab.baseline.max-regression); baseline 10 in ")))));
    }
}
