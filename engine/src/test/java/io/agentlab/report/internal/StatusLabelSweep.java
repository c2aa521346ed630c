package io.agentlab.report.internal;

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

/**
 * A synthesized report whose timelines put every status word at every half pixel near the right edge of its figure,
 * where a run's own timings put one only by chance: the browser test checks that each label is drawn whole
 * (ReportBrowserTest#statusLabelsStayInsideWhereverTheEventEnds, docs/engine.md#html-report).
 */
public final class StatusLabelSweep {

    /** Every status word a timeline draws, the widest ones included. */
    static final List<String> STATUSES = List.of("succeeded", "needs_clarification", "deduplicated", "replayed",
            "failed", "timed_out", "cancelled", "rejected");

    private StatusLabelSweep() {
    }

    /** The report's page: one turn per status word, two events per half pixel its label may start at. */
    public static String html() {
        List<TurnTimeline> timelines = new ArrayList<>();
        List<TestOutcome> tests = new ArrayList<>();
        // the axis runs 0–1,000 ms (the turn's wall time); a label may start from 160 px before the figure's edge
        // to where an event ending at the axis's end puts it
        double scale = (TurnFigures.AXIS_RIGHT - TurnFigures.AXIS_LEFT) / 1_000.0;
        double first = TurnFigures.AXIS_LEFT + TurnFigures.STATUS_GAP;
        for (String status : STATUSES) {
            List<TurnTimeline.Event> events = new ArrayList<>();
            for (double start = TurnFigures.WIDTH - 160; start <= TurnFigures.AXIS_RIGHT + TurnFigures.STATUS_GAP;
                    start += 0.5) {
                double finished = (start - first) / scale;
                // dispatched just before its end, and dispatched at the turn's start (a handler that ran long), each
                // with a row label long enough to be shortened
                for (double dispatched : new double[] {finished - 1, 0}) {
                    events.add(new TurnTimeline.Event("e" + events.size(), "probe.edge_of_the_figure", status, false,
                            dispatched, Optional.of(dispatched + 0.5), Optional.of(finished - 0.2), finished));
                }
            }
            timelines.add(new TurnTimeline("edges", status, 0, "where does the label go", InvocationMode.DUAL_AGENT,
                    TurnRecord.Timing.MODELLED, 1_000, Optional.of(5.0), 10, Optional.empty(), Optional.empty(),
                    Optional.empty(), List.of(), events, false, Optional.empty()));
            tests.add(new TestOutcome("[engine:agentlab-conformance]/[suite:edges]/[case:" + status
                    + "]/[mode:dual_agent]", "mode", Optional.of("edges"), Optional.of(status), "dual_agent",
                    status + " [dual_agent]", List.of(), TestOutcome.Status.PASSED, 1, Optional.empty()));
        }
        RunMetadata meta = new RunMetadata(Instant.EPOCH, Instant.EPOCH.plusSeconds(1), "0.1-test", Optional.empty(),
                "synthesized", 0.0, List.of("dual_agent"), List.of("gpt-4o-mini"), "k", "m", "whole suites");
        return HtmlReport.render(new RunReport(meta, tests, List.of(), timelines, List.of(), List.of(), Map.of(),
                List.of()));
    }
}
