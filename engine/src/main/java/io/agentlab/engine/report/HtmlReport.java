package io.agentlab.engine.report;

import io.agentlab.engine.metrics.ModeMetrics;
import io.agentlab.kernel.api.InvocationMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * The self-contained {@code index.html}: no script, font or stylesheet from the network; every chart is inline SVG
 * with an id ({@code chart-ttft}, {@code chart-tokens}, {@code chart-calls}, {@code chart-cost},
 * {@code chart-accuracy}, {@code chart-matrix}, {@code chart-growth}) and a table of the same figures.
 */
public final class HtmlReport {

    private static final String DUAL_COLOUR = "#2f6fb3";
    private static final String TOOLS_COLOUR = "#d2722a";

    private HtmlReport() {
    }

    /** The page. */
    public static String render(RunReport report) {
        ModeMetrics dual = report.mode(InvocationMode.DUAL_AGENT);
        ModeMetrics tools = report.mode(InvocationMode.CHAT_AGENT_TOOLS);
        StringBuilder html = new StringBuilder("""
                <!DOCTYPE html>
                <html lang="en"><head><meta charset="utf-8"><title>Agent Lab conformance: mode comparison</title>
                <style>
                body{font-family:system-ui,sans-serif;margin:2em;color:#222;max-width:1100px}
                table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:4px 8px;text-align:right}
                th:first-child,td:first-child{text-align:left}.legend span{display:inline-block;width:12px;height:12px;margin:0 4px 0 12px}
                section{margin-bottom:2em}svg{background:#fafafa;border:1px solid #eee}
                </style></head><body>
                <h1>Mode comparison: dual_agent vs chat_agent_tools</h1>
                <p>Measures per docs/design.md#metrics-per-mode, counted by the fair-comparison contract
                (docs/design.md#usage-fair-comparison). Timing of synthesized streams is a latency <em>model</em>
                (see Timing).</p>
                """);
        html.append("<p class=\"legend\"><span style=\"background:").append(DUAL_COLOUR).append("\"></span>dual_agent")
                .append("<span style=\"background:").append(TOOLS_COLOUR).append("\"></span>chat_agent_tools</p>\n");
        html.append(section("First-visible TTFT (ms)", bars("chart-ttft", List.of(
                group("p50", dual, tools, m -> m.firstVisibleTtftMs().p50()),
                group("p95", dual, tools, m -> m.firstVisibleTtftMs().p95())))));
        html.append(section("ChatAgent tokens per turn", bars("chart-tokens", List.of(
                group("prompt", dual, tools, m -> perTurn(m, m.chatPromptTokens())),
                group("completion", dual, tools, m -> perTurn(m, m.chatCompletionTokens()))))));
        html.append(section("LLM calls per turn", bars("chart-calls", List.of(
                group("calls / turn", dual, tools, ModeMetrics::llmCallsPerTurn)))));
        html.append(section("Cost per successful event (USD; empty when unpriced)", bars("chart-cost", List.of(
                group("cost / success", dual, tools, ModeMetrics::costPerSuccessfulEvent)))));
        html.append(section("Event selection", bars("chart-accuracy", List.of(
                group("precision", dual, tools, ModeMetrics::selectionPrecision),
                group("recall", dual, tools, ModeMetrics::selectionRecall),
                group("multi-event recall", dual, tools, ModeMetrics::multiEventRecall)))));
        List<Group> matrix = new ArrayList<>();
        for (int events : report.matrix().stream().map(ControlMatrix.Cell::events).distinct().toList()) {
            matrix.add(new Group(events + " events: TTFT p50 (ms)", cell(report, InvocationMode.DUAL_AGENT, events, true),
                    cell(report, InvocationMode.CHAT_AGENT_TOOLS, events, true)));
            matrix.add(new Group(events + " events: prompt tokens", cell(report, InvocationMode.DUAL_AGENT, events, false),
                    cell(report, InvocationMode.CHAT_AGENT_TOOLS, events, false)));
        }
        html.append(section("All events disabled vs all enabled (control turns)", bars("chart-matrix", matrix)));
        html.append(section("Capability growth: ChatAgent prompt tokens by enabled events", growth(report.growth())));
        html.append("<section><h2>All measures</h2>\n<table id=\"measures\"><tr><th>measure</th><th>dual_agent</th>")
                .append("<th>chat_agent_tools</th><th>tools / dual</th></tr>\n");
        for (RunReport.Measure measure : RunReport.measures()) {
            Number a = dual == null ? null : measure.value().apply(dual);
            Number b = tools == null ? null : measure.value().apply(tools);
            html.append("<tr><td>").append(escape(measure.label())).append(measure.unit().isEmpty() ? ""
                    : " (" + escape(measure.unit()) + ")").append("</td><td>").append(RunReport.format(a))
                    .append("</td><td>").append(RunReport.format(b)).append("</td><td>").append(RunReport.ratio(a, b))
                    .append("</td></tr>\n");
        }
        html.append("</table></section>\n<section><h2>Timing</h2><ul>\n");
        report.timing().forEach((suite, how) -> html.append("<li><code>").append(escape(suite)).append("</code>: ")
                .append(escape(how)).append("</li>\n"));
        return html.append("</ul></section>\n</body></html>\n").toString();
    }

    private record Group(String label, Number dual, Number tools) {
    }

    private static Group group(String label, ModeMetrics dual, ModeMetrics tools, Function<ModeMetrics, Number> value) {
        return new Group(label, dual == null ? null : value.apply(dual), tools == null ? null : value.apply(tools));
    }

    private static Number cell(RunReport report, InvocationMode mode, int events, boolean ttft) {
        return report.matrix().stream().filter(c -> c.mode() == mode && c.events() == events).findFirst()
                .map(c -> ttft ? (Number) c.firstVisibleTtftMs().p50() : (Number) c.promptTokensPerTurn())
                .orElse(null);
    }

    private static Double perTurn(ModeMetrics m, long total) {
        return m.turns() == 0 ? null : (double) total / m.turns();
    }

    private static String section(String title, String body) {
        return "<section><h2>" + escape(title) + "</h2>\n" + body + "</section>\n";
    }

    /** A grouped bar chart: per group a dual and a tools bar, each labelled with its value. */
    private static String bars(String id, List<Group> groups) {
        double max = groups.stream().flatMap(g -> java.util.stream.Stream.of(g.dual(), g.tools()))
                .filter(java.util.Objects::nonNull).mapToDouble(Number::doubleValue).max().orElse(0);
        int width = Math.max(320, 170 * groups.size());
        int height = 200;
        StringBuilder svg = new StringBuilder(String.format(Locale.ROOT,
                "<svg id=\"%s\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" role=\"img\">%n",
                id, width, height + 40));
        for (int i = 0; i < groups.size(); i++) {
            Group group = groups.get(i);
            int x = 20 + i * 170;
            svg.append(bar(x, group.dual(), max, height, DUAL_COLOUR, "dual_agent"));
            svg.append(bar(x + 60, group.tools(), max, height, TOOLS_COLOUR, "chat_agent_tools"));
            svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" font-size=\"12\">%s</text>%n", x,
                    height + 30, escape(group.label())));
        }
        return svg.append("</svg>\n").toString();
    }

    private static String bar(int x, Number value, double max, int height, String colour, String mode) {
        if (value == null) {
            return String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" font-size=\"11\">n/a</text>%n", x, height);
        }
        double h = max <= 0 ? 0 : value.doubleValue() / max * (height - 30);
        return String.format(Locale.ROOT, "<rect class=\"%s\" x=\"%d\" y=\"%.1f\" width=\"50\" height=\"%.1f\" "
                        + "fill=\"%s\"><title>%s: %s</title></rect><text x=\"%d\" y=\"%.1f\" font-size=\"11\">%s</text>%n",
                mode, x, height - h, h, colour, mode, RunReport.format(value), x, height - h - 4,
                RunReport.format(value));
    }

    /** The growth curve: two polylines over 0..N events. */
    private static String growth(List<CapabilityGrowth.Point> points) {
        int width = 720;
        int height = 260;
        int max = points.stream().mapToInt(p -> Math.max(p.dualAgent(), p.chatAgentTools())).max().orElse(1);
        int n = Math.max(1, points.size() - 1);
        StringBuilder dual = new StringBuilder();
        StringBuilder tools = new StringBuilder();
        for (CapabilityGrowth.Point p : points) {
            double x = 50 + (double) p.events() / n * (width - 70);
            dual.append(String.format(Locale.ROOT, "%.1f,%.1f ", x, height - 30 - (double) p.dualAgent() / max * (height - 50)));
            tools.append(String.format(Locale.ROOT, "%.1f,%.1f ", x, height - 30
                    - (double) p.chatAgentTools() / max * (height - 50)));
        }
        CapabilityGrowth.Point last = points.isEmpty() ? new CapabilityGrowth.Point(0, 0, 0) : points.get(points.size() - 1);
        return String.format(Locale.ROOT, """
                <svg id="chart-growth" xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" role="img">
                <line x1="50" y1="%d" x2="%d" y2="%d" stroke="#999"/><line x1="50" y1="20" x2="50" y2="%d" stroke="#999"/>
                <polyline class="dual_agent" fill="none" stroke="%s" stroke-width="2" points="%s"/>
                <polyline class="chat_agent_tools" fill="none" stroke="%s" stroke-width="2" points="%s"/>
                <text x="50" y="%d" font-size="11">0 events</text><text x="%d" y="%d" font-size="11">%d events</text>
                <text x="55" y="18" font-size="11">%d prompt tokens</text>
                <text x="%d" y="%d" font-size="11">dual_agent %d, chat_agent_tools %d at %d events</text>
                </svg>
                """, width, height, height - 30, width - 20, height - 30, height - 30, DUAL_COLOUR, dual.toString().strip(),
                TOOLS_COLOUR, tools.toString().strip(), height - 12, width - 90, height - 12, last.events(), max,
                width - 420, 36, last.dualAgent(), last.chatAgentTools(), last.events());
    }

    private static String escape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
