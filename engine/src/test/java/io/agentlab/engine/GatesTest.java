package io.agentlab.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClasspathResource;
import static org.junit.platform.testkit.engine.EventConditions.displayName;
import static org.junit.platform.testkit.engine.EventConditions.event;
import static org.junit.platform.testkit.engine.EventConditions.finishedWithFailure;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.message;

import io.agentlab.report.gates.Baseline;
import io.agentlab.report.gates.Gates;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.DiscoveryIssue;
import org.junit.platform.testkit.engine.EngineDiscoveryResults;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;

/**
 * Gates are test nodes after every suite: a breach fails the run naming the gate, the value and the threshold. They
 * read nothing while the tree is discovered; the baseline is refreshed by a command, never by a run.
 * The clause this checks: {@code docs/design.md#metrics-gates}.
 */
class GatesTest {

    @TempDir
    Path temp;

    private EngineTestKit.Builder kit() {
        return EngineTestKit.engine(ConformanceTestEngine.ENGINE_ID).selectors(selectClasspathResource("sample-suites"))
                .configurationParameter(Constants.REPLAY_SPEED, "0")
                .configurationParameter(Constants.CONTROL_RUNS, "false")
                .configurationParameter(Constants.GATES_ENABLED, "true")
                // speed 0 makes TTFT noise; this test is about the mechanics, not the ratio
                .configurationParameter(Constants.GATES_MAX_TTFT_RATIO, "100")
                .outputDirectoryCreator(new TempOutputDirectories(temp.resolve("out")));
    }

    /**
     * The clause this checks: {@code docs/design.md#metrics-targets} (the gate on ChatAgent calls per ordinary turn).
     */
    @Test
    @DisplayName("every gate holds on the sample suites; an unset cost gate is skipped, saying why")
    void gatesHold() {
        EngineExecutionResults results = kit().execute();
        results.testEvents().assertStatistics(stats -> stats.failed(0).skipped(2).succeeded(27 + 8));
        assertThat(results.testEvents().skipped().stream().map(e -> e.getPayload(String.class).orElse("")))
                .allSatisfy(reason -> assertThat(reason).contains("agentlab.gates.max-cost-per-successful-event is not set"));
    }

    @Test
    @DisplayName("a breached threshold fails its gate node, naming the gate, the value and the key")
    void breach() {
        EngineExecutionResults results = kit().configurationParameter(Constants.GATES_MIN_PRECISION, "1.01").execute();
        results.testEvents().assertThatEvents().haveExactly(1, event(displayName(
                "event-selection precision (dual_agent) ≥ 1.01"), finishedWithFailure(message(
                "gate min-precision-dual_agent breached: measured 1, threshold ≥ 1.01 (agentlab.gates.min-precision)"))));
    }

    @Test
    @DisplayName("a renamed key still works under its old name (agentlab.gate.* → agentlab.gates.*), with one warning"
            + " naming the new one; the new name wins when both are set")
    void deprecatedAlias() {
        EngineTestKit.Builder old = kit().configurationParameter("agentlab.gate.min-precision", "1.01");
        assertThat(old.discover().getDiscoveryIssues()).singleElement().satisfies(issue -> {
            assertThat(issue.severity()).isEqualTo(DiscoveryIssue.Severity.WARNING);
            assertThat(issue.message()).contains("'agentlab.gate.min-precision' is deprecated",
                    "use '" + Constants.GATES_MIN_PRECISION + "'");
        });
        old.execute().testEvents().assertThatEvents().haveExactly(1, event(finishedWithFailure(message(
                "gate min-precision-dual_agent breached: measured 1, threshold ≥ 1.01 (agentlab.gates.min-precision)"))));
        kit().configurationParameter("agentlab.gate.min-precision", "1.01")
                .configurationParameter(Constants.GATES_MIN_PRECISION, "0.5").execute()
                .testEvents().assertStatistics(stats -> stats.failed(0));
    }

    @Test
    @DisplayName("baseline: the refresh command writes a run's figures; a regression beyond the allowance names the figure")
    void baseline() throws IOException {
        Path baseline = temp.resolve("baseline.json");
        EngineExecutionResults first = kit().execute();
        String written = Baseline.refresh(MetricsReportTest.published(first, "metrics.json"), baseline);
        assertThat(Files.readString(baseline)).isEqualTo(written);
        assertThat(written).contains("\"chatPromptTokensPerTurn\"", "\"dual_agent\"", "\"chat_agent_tools\"",
                "agentlab baseline");
        kit().configurationParameter(Constants.BASELINE_FILE, baseline.toString()).execute()
                .testEvents().assertStatistics(stats -> stats.failed(0).succeeded(27 + 8 + 1 + 14));
        // pretend the baseline was much leaner: today's prompt tokens are now a regression
        Files.writeString(baseline, written.replaceAll("\"chatPromptTokensPerTurn\" : [0-9.]+",
                "\"chatPromptTokensPerTurn\" : 10.0"));
        EngineExecutionResults regressed = kit().configurationParameter(Constants.BASELINE_FILE, baseline.toString())
                .execute();
        regressed.testEvents().assertThatEvents().haveExactly(1, event(finishedWithFailure(message(m -> m.startsWith(
                "gate baseline-dual_agent-chatPromptTokensPerTurn breached: measured ")
                && m.contains("threshold ≤ 11 (agentlab.baseline.max-regression); baseline 10 in ")
                && m.contains("agentlab baseline --from")))));
    }

    @Test
    @DisplayName("discovery reads no baseline: a missing file fails one gate when the gates run, and skips the figures")
    void baselineReadWhenGatesRun() {
        Path missing = temp.resolve("no-such-baseline.json");
        EngineTestKit.Builder kit = kit().configurationParameter(Constants.BASELINE_FILE, missing.toString());
        EngineDiscoveryResults discovery = kit.discover();
        assertThat(discovery.getDiscoveryIssues()).isEmpty();
        assertThat(discovery.getEngineDescriptor().getDescendants()).filteredOn(d -> d.getUniqueId().getLastSegment()
                .getValue().startsWith("baseline-")).hasSize(1 + 14);
        EngineExecutionResults results = kit.execute();
        results.testEvents().assertThatEvents().haveExactly(1, event(displayName("baseline: " + missing
                + " is readable"), finishedWithFailure(message(m -> m.startsWith("gate baseline-file breached: cannot read the baseline " + missing + ": no such file; ")
                && m.contains("agentlab baseline --from")))));
        assertThat(results.testEvents().skipped().stream().map(e -> e.getPayload(String.class).orElse("")))
                .filteredOn(reason -> reason.contains("the baseline could not be read")).hasSize(14);
    }

    @Test
    @DisplayName("the retired agentlab.baseline.update is refused at discovery, pointing at the command")
    void retiredUpdateKey() {
        EngineDiscoveryResults discovery = kit().configurationParameter("agentlab.baseline.update", "true").discover();
        assertThat(discovery.getDiscoveryIssues()).singleElement().satisfies(issue -> {
            assertThat(issue.severity()).isEqualTo(DiscoveryIssue.Severity.ERROR);
            assertThat(issue.message()).contains("agentlab.baseline.update is no longer read",
                    "agentlab baseline --from");
        });
    }
}
