package io.agentlab.report.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.agentlab.kernel.api.InvocationMode;
import io.agentlab.kernel.api.OutcomeStatus;
import io.agentlab.kernel.api.ResolutionOutcome;
import io.agentlab.report.Footprint;
import io.agentlab.runtime.llm.CallRole;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * A run's metrics keep nothing per turn in memory: every record goes to the spool as it comes, and every reader reads
 * it back from there (docs/performance.md#memory).
 */
class MetricsSpoolTest {

    /** A plain turn of {@code caseId} in {@code mode}, {@code ms} long. */
    static TurnRecord turn(String suite, String caseId, InvocationMode mode, int turn, long ms) {
        Duration wall = Duration.ofMillis(ms);
        return new TurnRecord(suite, caseId, turn, mode, "set the volume to " + ms, TurnRecord.Timing.MODELLED,
                Optional.of(List.of("device.volume.adjust")), TurnSample.ArgumentScore.NONE,
                new TurnRecord.Clock(wall, Optional.of(Duration.ofMillis(ms / 4)), Duration.ofMillis(ms / 2),
                        Optional.of(Duration.ofMillis(ms / 2)), Optional.empty()),
                List.of(new TurnRecord.Call(CallRole.CHAT, "gpt-4o-mini", Duration.ZERO, Duration.ofMillis(ms / 4),
                        Duration.ofMillis(ms / 2), 120, 8, true, Optional.empty())),
                List.of(new TurnRecord.Event("e1", "device.volume.adjust", OutcomeStatus.SUCCEEDED,
                        ResolutionOutcome.DETERMINISTIC, true, true, Optional.of(Duration.ofMillis(1)),
                        Optional.of(Duration.ofMillis(1)), Optional.of(Duration.ofMillis(2)), Duration.ofMillis(3))),
                List.of("device.volume.adjust"), Optional.of(new BigDecimal("0.000021")), false, false,
                Optional.empty());
    }

    private static void addCases(MetricsReport report, int from, int to) {
        for (int i = from; i < to; i++) {
            for (InvocationMode mode : InvocationMode.values()) {
                report.add(turn("suite-" + (i % 3), "case-" + i, mode, 0, 10 + i % 17));
            }
            report.parity("suite-" + (i % 3), "case-" + i, i % 5 != 0);
        }
    }

    @Test
    @DisplayName("after a thousand more cases the report holds what it held before them: the turns are on disk")
    void keepsNoTurnInMemory() {
        try (MetricsReport report = new MetricsReport()) {
            addCases(report, 0, 600); // past the differing cases it names
            report.mode(InvocationMode.DUAL_AGENT);
            long early = Footprint.of(report);
            addCases(report, 600, 1_600);
            report.mode(InvocationMode.DUAL_AGENT);
            assertThat(Footprint.of(report)).as("elements held after 3,200 turns against 1,200").isEqualTo(early);
            assertThat(report.turns()).isEqualTo(3_200);
            assertThat(report.mode(InvocationMode.CHAT_AGENT_TOOLS).turns()).isEqualTo(1_600);
            assertThat(report.parity().cases()).isEqualTo(1_600);
            assertThat(report.parity().differing()).isEqualTo(320);
            assertThat(report.parity().named()).hasSize(MetricsReport.NAMED_DIFFERENCES)
                    .startsWith("suite-0/case-0", "suite-2/case-5");
        }
    }

    @Test
    @DisplayName("the turns read back sorted by suite, case, mode and turn, whatever order they finished in")
    void readBackSorted() {
        try (MetricsReport report = new MetricsReport()) {
            List<TurnRecord> added = new ArrayList<>();
            for (String caseId : List.of("b", "a", "c")) {
                for (InvocationMode mode : List.of(InvocationMode.CHAT_AGENT_TOOLS, InvocationMode.DUAL_AGENT)) {
                    for (int turn : new int[] {1, 0}) {
                        TurnRecord record = turn(caseId.equals("c") ? "s-2" : "s", caseId, mode, turn, 20);
                        report.add(record);
                        added.add(record);
                    }
                }
            }
            List<String> order = report.records().stream().map(r -> r.suiteId() + "/" + r.caseId() + " "
                    + r.mode().wireName() + " " + r.turnIndex()).toList();
            assertThat(order).startsWith("s/a dual_agent 0", "s/a dual_agent 1", "s/a chat_agent_tools 0")
                    .endsWith("s-2/c chat_agent_tools 1").hasSize(12);
            assertThat(report.records()).containsExactlyInAnyOrderElementsOf(added);
        }
    }

    @Test
    @DisplayName("parity verdicts of suites whose ids prefix each other sort as their keys do (a-b/ before a/)")
    void paritySortsByKey() {
        try (MetricsReport report = new MetricsReport()) {
            report.parity("a", "x", true);
            report.parity("a-b", "y", false);
            report.parity("a", "w", true);
            assertThat(report.parityVerdicts().keySet()).containsExactly("a-b/y", "a/w", "a/x");
            assertThat(report.toJson().replaceAll("\\s", "")).contains(
                    "\"parity\":{\"a-b/y\":false,\"a/w\":true,\"a/x\":true}");
        }
    }

    @Test
    @DisplayName("closed, the spool is gone: the turns and the figures' samples can no longer be read")
    void closeDeletesTheSpool() {
        MetricsReport report = new MetricsReport();
        addCases(report, 0, 6);
        Figure ttft = report.mode(InvocationMode.DUAL_AGENT).figure(Metric.TURN_WALL_TIME);
        assertThat(ttft.samples().sorted()).hasSize(6);
        report.close();
        assertThatThrownBy(() -> ttft.samples().sorted()).isInstanceOf(UncheckedIOException.class)
                .hasMessageContaining("the run's spool");
    }
}
