package io.agentlab.report.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentlab.kernel.api.InvocationMode;
import io.agentlab.report.RunMetadata;
import io.agentlab.report.TestOutcome;
import io.agentlab.report.metrics.TurnRecord;
import io.agentlab.report.metrics.TurnTimeline;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * A report draws a bounded number of timelines, whatever the run's length: the broken cases' first, then the slowest
 * cases', at most {@value Turns#MAX_DRAWN} turns, and says how many of how many and where the rest are
 * (docs/engine.md#html-report, docs/performance.md#memory).
 */
class TimelinesDrawnTest {

    private static final RunMetadata META = new RunMetadata(Instant.EPOCH, Instant.EPOCH.plusSeconds(1), "0.1-test",
            Optional.empty(), "synthesized", 0.0, List.of("dual_agent", "chat_agent_tools"), List.of("gpt-4o-mini"),
            "k", "m", "whole suites");

    /** One turn of case {@code i} in {@code mode}; case i's wall time is {@code wall}. */
    private static TurnTimeline turn(int i, int turn, InvocationMode mode, double wall) {
        return new TurnTimeline("s", String.format("case-%04d", i), turn, "turn " + turn, mode,
                TurnRecord.Timing.MODELLED, wall, Optional.of(1.0), 2, Optional.empty(), Optional.empty(),
                Optional.empty(), List.of(), List.of(), false, Optional.empty());
    }

    private static TestOutcome test(int i, TestOutcome.Status status) {
        String caseId = String.format("case-%04d", i);
        return new TestOutcome("[engine:agentlab-conformance]/[suite:s]/[case:" + caseId + "]/[mode:dual_agent]",
                "mode", Optional.of("s"), Optional.of(caseId), "dual_agent", caseId + " [dual_agent]", List.of(),
                status, 1, status == TestOutcome.Status.PASSED ? Optional.empty() : Optional.of("broken " + i));
    }

    /**
     * {@code cases} cases of two turns in both modes; cases 42, 123 and 2,000 are broken (those that exist), and the
     * cases whose number ends in 7 are the slow ones (case i takes i ms more).
     */
    private static RunReport report(int cases) {
        List<TurnTimeline> timelines = new ArrayList<>();
        List<TestOutcome> tests = new ArrayList<>();
        for (int i = 0; i < cases; i++) {
            double wall = i % 10 == 7 ? 1_000 + i : 10;
            for (int t = 0; t < 2; t++) {
                for (InvocationMode mode : InvocationMode.values()) {
                    timelines.add(turn(i, t, mode, wall));
                }
            }
            tests.add(test(i, i == 42 || i == 123 || i == 2_000 ? TestOutcome.Status.FAILED
                    : TestOutcome.Status.PASSED));
        }
        return new RunReport(META, tests, List.of(), timelines, List.of(), List.of(), Map.of(), List.of());
    }

    @Test
    @DisplayName("of 2,500 cases (5,000 turns), 200 turns are drawn: the broken cases first, then the slowest")
    void boundedFailuresFirstThenSlowest() {
        RunReport report = report(2_500);
        Document page = Jsoup.parse(HtmlReport.render(report));

        assertThat(page.select("figure.turn")).hasSize(Turns.MAX_DRAWN);
        assertThat(page.select("details.timeline")).hasSize(Turns.MAX_DRAWN / 2);
        // 3 broken cases, then the 97 slowest: cases 1,537 to 2,497 that end in 7
        assertThat(page.select("details.timeline").eachAttr("id")).startsWith("tl-s--case-0042", "tl-s--case-0123",
                "tl-s--case-2000").contains("tl-s--case-2497", "tl-s--case-1537")
                .doesNotContain("tl-s--case-1527", "tl-s--case-0000");
        assertThat(page.getElementById("timelines-drawn").text()).isEqualTo("The timelines of 200 of this run's "
                + "5,000 turns are drawn (at most 200, whole cases): the cases with a failed or aborted test first, "
                + "then the slowest cases. Every turn's record, its timings included, is in metrics.json, under turns.");
        Element failure = page.selectFirst("#failures li.failure");
        assertThat(failure.selectFirst("a.timeline-link").attr("href")).isEqualTo("#tl-s--case-0042");
        assertThat(page.select("tr.result")).as("every test is still listed").hasSize(2_500);
        assertThat(MarkdownReport.render(report)).contains("Turn tables are given for the failed cases among the 200 "
                + "turns the report draws");
    }

    @Test
    @DisplayName("a run within the bound draws every turn and says nothing about it")
    void smallRunDrawsAll() {
        RunReport report = report(100);
        Document page = Jsoup.parse(HtmlReport.render(report));

        assertThat(page.select("figure.turn")).hasSize(200);
        assertThat(page.getElementById("timelines-drawn")).isNull();
        assertThat(report.drawnNote()).isEmpty();
        assertThat(page.select("details.timeline").eachAttr("id")).first().isEqualTo("tl-s--case-0042");
    }
}
