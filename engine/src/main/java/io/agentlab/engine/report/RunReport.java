package io.agentlab.engine.report;

import io.agentlab.engine.metrics.ModeMetrics;
import io.agentlab.kernel.api.InvocationMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * Everything the end-of-run reports show: per-mode measures, the all-disabled/all-enabled control, the
 * capability-growth curve and how the streams were timed. Renders the console table; {@link HtmlReport} and
 * {@link #markdown()} render the files.
 *
 * @param modes  the per-mode measures, dual_agent first
 * @param matrix the control cells (empty when not run)
 * @param growth the capability-growth curve
 * @param timing per suite, how its streams were timed
 */
public record RunReport(List<ModeMetrics> modes, List<ControlMatrix.Cell> matrix, List<CapabilityGrowth.Point> growth,
                        Map<String, String> timing) {

    /** Copies the collections. */
    public RunReport {
        modes = List.copyOf(modes);
        matrix = List.copyOf(matrix);
        growth = List.copyOf(growth);
        timing = Map.copyOf(timing);
    }

    /**
     * One compared measure.
     *
     * @param label  what it is
     * @param unit   its unit
     * @param value  how to read it from a mode's measures (null when unknown)
     */
    public record Measure(String label, String unit, Function<ModeMetrics, Number> value) {
    }

    /** The measures of {@code docs/design.md#metrics-per-mode} compared side by side. */
    public static List<Measure> measures() {
        return List.of(
                new Measure("first-visible TTFT p50", "ms", m -> m.firstVisibleTtftMs().p50()),
                new Measure("first-visible TTFT p95", "ms", m -> m.firstVisibleTtftMs().p95()),
                new Measure("ChatAgent call TTFT p50", "ms", m -> m.chatCallTtftMs().p50()),
                new Measure("first-answer completion p50", "ms", m -> m.firstAnswerCompletionMs().p50()),
                new Measure("second-answer TTFT p50", "ms", m -> m.secondAnswerTtftMs().p50()),
                new Measure("turn wall time p50", "ms", m -> m.turnWallTimeMs().p50()),
                new Measure("event-dispatch delay p50", "ms", m -> m.eventDispatchDelayMs().p50()),
                new Measure("per-event latency p50", "ms", m -> m.eventLatencyMs().p50()),
                new Measure("ChatAgent prompt tokens per turn", "tokens", m -> perTurn(m, m.chatPromptTokens())),
                new Measure("ChatAgent completion tokens per turn", "tokens", m -> perTurn(m, m.chatCompletionTokens())),
                new Measure("LLM calls per turn", "", ModeMetrics::llmCallsPerTurn),
                new Measure("ChatAgent calls per ordinary turn", "", ModeMetrics::chatCallsPerOrdinaryTurn),
                new Measure("EventAgent fallback rate", "", ModeMetrics::fallbackRate),
                new Measure("EventAgent fallback tokens", "tokens", ModeMetrics::fallbackTokens),
                new Measure("deterministic-resolution hit rate", "", ModeMetrics::deterministicHitRate),
                new Measure("event-selection precision", "", ModeMetrics::selectionPrecision),
                new Measure("event-selection recall", "", ModeMetrics::selectionRecall),
                new Measure("multi-event recall", "", ModeMetrics::multiEventRecall),
                new Measure("valid arguments before normalization", "", ModeMetrics::validBeforeNormalization),
                new Measure("valid arguments after normalization", "", ModeMetrics::validAfterNormalization),
                new Measure("execution success rate", "", ModeMetrics::executionSuccessRate),
                new Measure("estimated cost", "USD", ModeMetrics::cost),
                new Measure("cost per successful event", "USD", ModeMetrics::costPerSuccessfulEvent));
    }

    private static Double perTurn(ModeMetrics m, long total) {
        return m.turns() == 0 ? null : Math.round(total * 10.0 / m.turns()) / 10.0;
    }

    /** The measures of {@code mode}, if it ran. */
    public ModeMetrics mode(InvocationMode mode) {
        return modes.stream().filter(m -> m.mode() == mode).findFirst().orElse(null);
    }

    /** The console table: one row per measure, a column per mode, and tools ÷ dual. */
    public String table() {
        ModeMetrics dual = mode(InvocationMode.DUAL_AGENT);
        ModeMetrics tools = mode(InvocationMode.CHAT_AGENT_TOOLS);
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"measure", "dual_agent", "chat_agent_tools", "tools / dual"});
        rows.add(new String[] {"turns", count(dual), count(tools), ""});
        for (Measure measure : measures()) {
            Number a = dual == null ? null : measure.value().apply(dual);
            Number b = tools == null ? null : measure.value().apply(tools);
            rows.add(new String[] {measure.label() + (measure.unit().isEmpty() ? "" : " (" + measure.unit() + ")"),
                    format(a), format(b), ratio(a, b)});
        }
        int[] widths = new int[4];
        for (String[] row : rows) {
            for (int i = 0; i < 4; i++) {
                widths[i] = Math.max(widths[i], row[i].length());
            }
        }
        StringBuilder out = new StringBuilder();
        for (int r = 0; r < rows.size(); r++) {
            String[] row = rows.get(r);
            out.append(String.format(Locale.ROOT, "%-" + widths[0] + "s  %" + widths[1] + "s  %" + widths[2] + "s  %"
                    + widths[3] + "s", (Object[]) row).stripTrailing()).append('\n');
            if (r == 0) {
                out.append("-".repeat(widths[0] + widths[1] + widths[2] + widths[3] + 6)).append('\n');
            }
        }
        return out.toString();
    }

    /** The Markdown report: the table, the control matrix, the growth curve and how the streams were timed. */
    public String markdown() {
        StringBuilder out = new StringBuilder("# Conformance run: mode comparison\n\n");
        out.append("Measures per docs/design.md#metrics-per-mode, counted by the fair-comparison contract ")
                .append("(docs/design.md#usage-fair-comparison). ")
                .append("Synthesized streams are timed by a latency *model*; see \"Timing\".\n\n```\n").append(table())
                .append("```\n\n## All events disabled vs all enabled\n\n")
                .append("| mode | enabled events | turns | first-visible TTFT p50 (ms) | p95 (ms) | prompt tokens per turn |\n")
                .append("| --- | --- | --- | --- | --- | --- |\n");
        for (ControlMatrix.Cell cell : matrix) {
            out.append("| ").append(cell.mode().wireName()).append(" | ").append(cell.events()).append(" | ")
                    .append(cell.turns()).append(" | ").append(format(cell.firstVisibleTtftMs().p50())).append(" | ")
                    .append(format(cell.firstVisibleTtftMs().p95())).append(" | ")
                    .append(format(cell.promptTokensPerTurn())).append(" |\n");
        }
        out.append("\n## Capability growth: ChatAgent prompt tokens by enabled events\n\n")
                .append("| events | dual_agent | chat_agent_tools | tools / dual |\n| --- | --- | --- | --- |\n");
        for (CapabilityGrowth.Point point : growth) {
            if (point.events() <= 10 || point.events() % 10 == 0) {
                out.append("| ").append(point.events()).append(" | ").append(point.dualAgent()).append(" | ")
                        .append(point.chatAgentTools()).append(" | ")
                        .append(ratio(point.dualAgent(), point.chatAgentTools())).append(" |\n");
            }
        }
        out.append("\n## Timing\n\n");
        timing.forEach((suite, how) -> out.append("- `").append(suite).append("`: ").append(how).append('\n'));
        return out.toString();
    }

    private static String count(ModeMetrics metrics) {
        return metrics == null ? "-" : Integer.toString(metrics.turns());
    }

    static String format(Number value) {
        if (value == null) {
            return "-";
        }
        double v = value.doubleValue();
        if (v == Math.rint(v) && Math.abs(v) < 1e9) {
            return Long.toString((long) v);
        }
        return Math.abs(v) < 0.01 ? String.format(Locale.ROOT, "%.6f", v) : String.format(Locale.ROOT, "%.3f", v);
    }

    static String ratio(Number dual, Number tools) {
        if (dual == null || tools == null || dual.doubleValue() == 0) {
            return "";
        }
        return String.format(Locale.ROOT, "%.2fx", tools.doubleValue() / dual.doubleValue());
    }
}
