package io.agentlab.report.internal;

import static io.agentlab.report.internal.ReportTemplate.esc;

import io.agentlab.report.controls.CapabilityGrowth;
import io.agentlab.report.metrics.Figure;
import io.agentlab.report.metrics.Metric;
import java.util.List;
import java.util.Locale;
import java.util.function.DoubleFunction;

/**
 * The report's charts as inline SVG, each with a text alternative: the per-unit bar charts of the comparison and the
 * control matrix (a dual_agent and a chat_agent_tools bar per row, p95 whiskers), the capability-growth curve, and the
 * axis, bar, marker and label pieces the turn timelines ({@link TurnFigures}) draw with. Drawn here, not by the
 * page's script, so the page reads without script and every chart is checked without a browser
 * (docs/engine.md#html-report).
 */
final class SvgCharts {

    /** dual_agent's colour in every chart. */
    static final String DUAL = "#2f6fb3";
    /** chat_agent_tools' colour in every chart. */
    static final String TOOLS = "#c0571b";
    /**
     * The longest row label left of a chart's bars or a timeline's lanes, in characters: about 6.5 px each at the
     * report's 12 px, so it ends before the bars begin (ReportBrowserTest#labelsNeitherOverlapNorGetCut).
     */
    static final int ROW_LABEL_CHARS = 30;

    private SvgCharts() {
    }

    /** A chart row: one bar per mode. */
    record Bars(String label, Figure dual, Figure tools) {
    }

    /** A horizontal bar chart with an axis: per row a dual_agent and a chat_agent_tools bar, p95 whiskers. */
    static String barChart(String id, String axisTitle, Metric.Unit unit, List<Bars> rows) {
        double max = 0;
        for (Bars row : rows) {
            for (Figure figure : new Figure[] {row.dual(), row.tools()}) {
                max = Math.max(max, top(figure));
            }
        }
        boolean rate = unit == Metric.Unit.RATE;
        Axis axis = rate ? new Axis(1, 0.2) : Axis.of(max);
        int width = 640;
        int left = 220;
        int right = width - 125; // room right of the longest bar for its value
        double scale = (right - left) / axis.max();
        StringBuilder svg = new StringBuilder();
        StringBuilder desc = new StringBuilder();
        int y = 26;
        svg.append("<g class=\"chart-legend\"><rect x=\"").append(left).append("\" y=\"4\" width=\"12\" height=\"12\" ")
                .append("fill=\"").append(DUAL).append("\"/>").append(text(left + 16, 14, "legend-text", "dual_agent"))
                .append("<rect x=\"").append(left + 110).append("\" y=\"4\" width=\"12\" height=\"12\" fill=\"")
                .append(TOOLS).append("\"/>").append(text(left + 126, 14, "legend-text", "chat_agent_tools"))
                .append("</g>");
        for (Bars row : rows) {
            svg.append(text(8, y + 17, "row-label", shorten(row.label(), ROW_LABEL_CHARS)));
            svg.append(chartBar(row.dual(), unit, left, y, scale, DUAL, "dual_agent", row.label(), desc));
            svg.append(chartBar(row.tools(), unit, left, y + 14, scale, TOOLS, "chat_agent_tools", row.label(), desc));
            y += 36;
        }
        svg.append(axis(axis, left, scale, y + 2, axisTitle, rate ? v -> Format.plain(Math.round(v * 1000) / 10.0)
                + "%" : Format::plain));
        int height = y + 2 + AXIS_HEIGHT;
        return "<div class=\"chart-scroll\"><svg id=\"" + id + "\" class=\"bar-chart\" viewBox=\"0 0 " + width + " "
                + height + "\" role=\"img\" aria-labelledby=\"" + id + "-desc\"><desc id=\"" + id + "-desc\">"
                + esc(desc.toString().strip()) + "</desc>" + svg + "</svg></div>";
    }

    private static double top(Figure figure) {
        if (figure instanceof Figure.Distribution d && d.p95() != null) {
            return d.p95();
        }
        return figure == null || figure.value() == null ? 0 : figure.value().doubleValue();
    }

    private static String chartBar(Figure figure, Metric.Unit unit, int left, int y, double scale, String colour,
                                   String mode, String label, StringBuilder desc) {
        if (figure == null || figure.value() == null) {
            desc.append(label).append(", ").append(mode).append(": no figure. ");
            return text(left + 4, y + 11, "bar-label", mode + ": no figure");
        }
        double value = figure.value().doubleValue();
        String shown = chartValue(unit, value);
        StringBuilder svg = new StringBuilder(bar(left, y, value * scale, 12, colour, 1, label + ", " + mode + ": "
                + shown).replace("<rect ", "<rect class=\"" + mode + "\" "));
        double end = value * scale;
        if (figure instanceof Figure.Distribution d && d.p95() != null) {
            double p95 = d.p95() * scale;
            svg.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#333\"/>"
                    + "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#333\"/>", left + end, y + 6,
                    left + p95, y + 6, left + p95, y + 2, left + p95, y + 10));
            end = p95;
            shown += " (p95 " + chartValue(unit, d.p95()) + ")";
        }
        desc.append(label).append(", ").append(mode).append(": ").append(shown).append(". ");
        svg.append(text(left + end + 4, y + 11, "bar-label", shown));
        return svg.toString();
    }

    private static String chartValue(Metric.Unit unit, double value) {
        return switch (unit) {
            case RATE -> String.format(Locale.ROOT, "%.1f%%", value * 100);
            case USD -> String.format(Locale.ROOT, "%.6f", value);
            case CALLS -> String.format(Locale.ROOT, "%.2f", value);
            default -> String.format(Locale.ROOT, "%.1f", value);
        };
    }

    /** The growth curve: a line per mode over 0..N enabled events, with both axes. */
    static String growthChart(List<CapabilityGrowth.Point> points) {
        if (points.isEmpty()) {
            return "<p>No growth curve in this run.</p>";
        }
        int width = 720;
        int height = 300;
        int left = 70;
        int right = width - 20;
        int top = 30;
        int bottom = height - 50;
        int maxEvents = points.get(points.size() - 1).events();
        Axis y = Axis.of(points.stream().mapToInt(p -> Math.max(p.dualAgent(), p.chatAgentTools())).max().orElse(1));
        Axis x = Axis.of(Math.max(1, maxEvents));
        StringBuilder dual = new StringBuilder();
        StringBuilder tools = new StringBuilder();
        for (CapabilityGrowth.Point p : points) {
            double px = left + p.events() / x.max() * (right - left);
            dual.append(String.format(Locale.ROOT, "%.1f,%.1f ", px, bottom - p.dualAgent() / y.max()
                    * (bottom - top)));
            tools.append(String.format(Locale.ROOT, "%.1f,%.1f ", px, bottom - p.chatAgentTools() / y.max()
                    * (bottom - top)));
        }
        StringBuilder svg = new StringBuilder();
        for (double v = 0; v <= y.max() + 1e-9; v += y.step()) {
            double py = bottom - v / y.max() * (bottom - top);
            svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" class=\"grid\"/>",
                    left, py, right, py)).append(text(left - 6, (int) Math.round(py) + 4, "tick end", Format.plain(v)));
        }
        for (double v = 0; v <= x.max() + 1e-9; v += x.step()) {
            double px = left + v / x.max() * (right - left);
            svg.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" class=\"axis\"/>",
                    px, bottom, px, bottom + 5)).append(text(px, bottom + 18, "tick middle", Format.plain(v)));
        }
        CapabilityGrowth.Point last = points.get(points.size() - 1);
        String desc = "With 0 events enabled, dual_agent sends " + points.get(0).dualAgent()
                + " prompt tokens and chat_agent_tools " + points.get(0).chatAgentTools() + "; with " + last.events()
                + " events, " + last.dualAgent() + " and " + last.chatAgentTools() + ".";
        return "<div class=\"chart-scroll\"><svg id=\"chart-growth\" class=\"line-chart\" viewBox=\"0 0 " + width + " "
                + height + "\" role=\"img\" aria-labelledby=\"chart-growth-desc\"><desc id=\"chart-growth-desc\">"
                + esc(desc) + "</desc>" + svg
                + "<line x1=\"" + left + "\" y1=\"" + bottom + "\" x2=\"" + right + "\" y2=\"" + bottom
                + "\" class=\"axis\"/><line x1=\"" + left + "\" y1=\"" + top + "\" x2=\"" + left + "\" y2=\"" + bottom
                + "\" class=\"axis\"/>"
                + "<polyline class=\"dual_agent\" fill=\"none\" stroke=\"" + DUAL + "\" stroke-width=\"2.5\" points=\""
                + dual.toString().strip() + "\"/><polyline class=\"chat_agent_tools\" fill=\"none\" stroke=\"" + TOOLS
                + "\" stroke-width=\"2.5\" points=\"" + tools.toString().strip() + "\"/>"
                + text((left + right) / 2, height - 12, "axis-title middle", "enabled events")
                + "<text class=\"axis-title middle\" transform=\"translate(16," + (top + bottom) / 2
                + ") rotate(-90)\">prompt tokens, first request</text>"
                + "<rect x=\"" + (left + 10) + "\" y=\"8\" width=\"12\" height=\"12\" fill=\"" + DUAL + "\"/>"
                + text(left + 26, 18, "legend-text", "dual_agent (" + last.dualAgent() + " at " + last.events() + ")")
                + "<rect x=\"" + (left + 260) + "\" y=\"8\" width=\"12\" height=\"12\" fill=\"" + TOOLS + "\"/>"
                + text(left + 276, 18, "legend-text", "chat_agent_tools (" + last.chatAgentTools() + " at "
                + last.events() + ")") + "</svg></div>";
    }

    /**
     * An axis from 0 to {@code max} in steps of {@code step}.
     *
     * @param max  the axis end
     * @param step the tick spacing
     */
    record Axis(double max, double step) {
        /** A round axis covering {@code value} with about five ticks. */
        static Axis of(double value) {
            if (!(value > 0)) {
                return new Axis(1, 0.2);
            }
            double raw = value / 5;
            double magnitude = Math.pow(10, Math.floor(Math.log10(raw)));
            double norm = raw / magnitude;
            double step = (norm <= 1 ? 1 : norm <= 2 ? 2 : norm <= 2.5 ? 2.5 : norm <= 5 ? 5 : 10) * magnitude;
            return new Axis(Math.ceil(value / step - 1e-9) * step, step);
        }
    }

    /** The height {@link #axis} draws below its line: ticks, their numbers, the title and its descenders. */
    static final int AXIS_HEIGHT = 40;

    static String axis(Axis axis, int left, double scale, int y, String title, DoubleFunction<String> tick) {
        StringBuilder svg = new StringBuilder("<g class=\"x-axis\"><line x1=\"").append(left).append("\" y1=\"")
                .append(y).append("\" x2=\"").append(Format.fixed(left + axis.max() * scale, 1)).append("\" y2=\"")
                .append(y).append("\" class=\"axis\"/>");
        for (double v = 0; v <= axis.max() + 1e-9; v += axis.step()) {
            String x = Format.fixed(left + v * scale, 1);
            svg.append("<line x1=\"").append(x).append("\" y1=\"").append(y).append("\" x2=\"").append(x)
                    .append("\" y2=\"").append(y + 5).append("\" class=\"axis\"/>")
                    .append(text(left + v * scale, y + 18, "tick middle", tick.apply(Math.round(v * 1e6) / 1e6)));
        }
        svg.append(text(left + axis.max() * scale / 2, y + 32, "axis-title middle", title));
        return svg.append("</g>").toString();
    }

    /** A dashed vertical marker with its label already placed ({@code drawnLabel}, an SVG text element). */
    static String marker(double x, int top, int bottom, String colour, String title, String drawnLabel) {
        String at = Format.fixed(x, 1);
        return "<g class=\"marker\"><line x1=\"" + at + "\" y1=\"" + top + "\" x2=\"" + at + "\" y2=\"" + bottom
                + "\" stroke=\"" + colour + "\" stroke-width=\"1.5\" stroke-dasharray=\"4 3\"><title>" + esc(title)
                + "</title></line>" + drawnLabel + "</g>";
    }

    static String bar(double x, int y, double width, int height, String colour, double opacity,
                              String title) {
        // built by hand, not String.format: a report writes thousands (Format#fixed)
        return "<rect x=\"" + Format.fixed(x, 1) + "\" y=\"" + y + "\" width=\"" + Format.fixed(Math.max(1.5, width), 1)
                + "\" height=\"" + height + "\" fill=\"" + colour + "\" fill-opacity=\"" + Format.fixed(opacity, 2)
                + "\"><title>" + esc(title) + "</title></rect>";
    }

    static String text(double x, int y, String cssClass, String content) {
        return "<text x=\"" + Format.fixed(x, 1) + "\" y=\"" + y + "\" class=\"" + cssClass + "\">" + esc(content)
                + "</text>";
    }

    static String statusColour(String status) {
        return switch (status) {
            case "succeeded" -> "#2e8b57";
            case "needs_clarification" -> "#b9770e";
            case "deduplicated", "replayed" -> "#8a9599";
            default -> "#c0392b";
        };
    }

    static String shorten(String text, int max) {
        return text.length() <= max ? text : text.substring(0, max - 1) + "…";
    }

    /** The id of a case's timeline: {@code tl-<suite>--<case>}, only characters an id and a fragment keep as is. */
    static String timelineId(String suite, String caseId) {
        return ("tl-" + suite + "--" + caseId).replaceAll("[^A-Za-z0-9_-]", "_");
    }
}
