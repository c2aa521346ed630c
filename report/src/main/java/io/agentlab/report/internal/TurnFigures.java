package io.agentlab.report.internal;

import static io.agentlab.report.internal.ReportTemplate.esc;
import static io.agentlab.report.internal.SvgCharts.axis;
import static io.agentlab.report.internal.SvgCharts.bar;
import static io.agentlab.report.internal.SvgCharts.marker;
import static io.agentlab.report.internal.SvgCharts.shorten;
import static io.agentlab.report.internal.SvgCharts.statusColour;
import static io.agentlab.report.internal.SvgCharts.text;

import io.agentlab.report.metrics.TurnRecord;
import io.agentlab.report.metrics.TurnTimeline;
import io.agentlab.kernel.api.InvocationMode;
import io.agentlab.runtime.llm.CallRole;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * One turn's figure in the report's timelines: a lane per mode on a shared time axis (model calls, events, the first
 * visible character, the first answer's end, the follow-up) as inline SVG with a text alternative, then the same as
 * a table (docs/engine.md#html-report).
 */
final class TurnFigures {

    /** A marker label's width per character at the report's 10 px, a little over the average glyph's. */
    private static final double MARKER_CHAR_PX = 6.2;
    /**
     * A status label's width per character at the report's 12 px: the widest word, "succeeded", draws 64.4 px in
     * DejaVu Sans (7.2 px a character), so 7 px cut it at the figure's edge once; 7.5 leaves room for a wider font.
     */
    private static final double STATUS_CHAR_PX = 7.5;
    /** A turn figure's width, where its axis starts (right of the row labels) and where it ends. */
    static final int WIDTH = 960;
    static final int AXIS_LEFT = 250;
    static final int AXIS_RIGHT = WIDTH - 24;
    /** How far right of its event's end a status label starts. */
    static final int STATUS_GAP = 10;
    /** A marker label's line height, when close markers stack their labels. */
    private static final int MARKER_LINE_PX = 11;
    /** The most lines close markers' labels are stacked on. */
    private static final int MAX_MARKER_LINES = 3;

    private TurnFigures() {
    }

    /** One turn: a lane per mode on one axis, then the same as a table. */
    static String turnFigure(int turn, Map<InvocationMode, TurnTimeline> modes) {
        TurnTimeline any = modes.values().iterator().next();
        String id = HtmlReport.timelineId(any.suiteId(), any.caseId()) + "-t" + (turn + 1);
        double end = modes.values().stream().mapToDouble(TurnTimeline::endMs).max().orElse(1);
        SvgCharts.Axis axis = SvgCharts.Axis.of(end);
        int width = WIDTH;
        int left = AXIS_LEFT;
        int right = AXIS_RIGHT;
        double scale = (right - left) / axis.max();
        StringBuilder svg = new StringBuilder();
        StringBuilder desc = new StringBuilder();
        int y = 8;
        for (TurnTimeline t : modes.values()) {
            int rows = t.calls().size() + t.events().size();
            int laneHeight = 40 + 18 * rows;
            svg.append("<g class=\"lane ").append(t.mode().wireName()).append("\"><rect x=\"0\" y=\"").append(y)
                    .append("\" width=\"").append(width).append("\" height=\"").append(laneHeight)
                    .append("\" class=\"lane-bg\"/>");
            svg.append(text(8, y + 16, "lane-title", t.mode().wireName() + " · " + timingWord(t)
                    + (t.visibleWithheld() ? " · visible answer withheld" : "")
                    + t.error().map(e -> " · ended " + e).orElse("")));
            int row = y + 24;
            for (TurnTimeline.Call call : t.calls()) {
                String label = call.role().wireName() + " " + call.tokens("→")
                        + (call.usageReported() ? " tok" : "") + call.error().map(e -> " " + e).orElse("");
                svg.append(text(16, row + 12, "row-label", shorten(label, SvgCharts.ROW_LABEL_CHARS)));
                String colour = call.role() == CallRole.CHAT ? "#2f6fb3" : call.role() == CallRole.EVENT_AGENT
                        ? "#7b3fa0" : "#13806f";
                svg.append(bar(left + call.startMs() * scale, row + 2, (call.firstItemMs() - call.startMs()) * scale,
                        12, colour, 0.3, label + ": request at " + Format.ms(call.startMs()) + " ms, first item at "
                                + Format.ms(call.firstItemMs()) + " ms"));
                svg.append(bar(left + call.firstItemMs() * scale, row + 2, (call.endMs() - call.firstItemMs()) * scale,
                        12, call.error().isPresent() ? "#c0392b" : colour, 1, label + ": streamed until "
                                + Format.ms(call.endMs()) + " ms"));
                row += 18;
            }
            for (TurnTimeline.Event event : t.events()) {
                String label = event.id() + " " + event.name() + (event.fallback() ? " (fallback)" : "");
                svg.append(text(16, row + 12, "row-label", shorten(label, SvgCharts.ROW_LABEL_CHARS)));
                String colour = statusColour(event.status());
                double startX = left + event.dispatchedMs() * scale;
                double runX = left + event.startedMs().orElse(event.finishedMs()) * scale;
                svg.append("<line x1=\"").append(Format.fixed(startX, 1)).append("\" y1=\"").append(row + 8)
                        .append("\" x2=\"").append(Format.fixed(Math.max(runX, startX + 1), 1)).append("\" y2=\"")
                        .append(row + 8).append("\" stroke=\"").append(colour).append("\" stroke-width=\"2\"/>");
                String detail = label + ": " + event.status() + "; dispatched " + Format.ms(event.dispatchedMs())
                        + " ms, " + event.startedMs().map(s -> "ran " + Format.ms(s) + "–" + Format.ms(
                        event.handlerEndMs().orElse(s)) + " ms, ").orElse("handler never ran, ") + "final "
                        + Format.ms(event.finishedMs()) + " ms";
                if (event.startedMs().isPresent()) {
                    double s = event.startedMs().get();
                    svg.append(bar(left + s * scale, row + 2, (event.handlerEndMs().orElse(s) - s) * scale, 12,
                            colour, 1, detail));
                } else {
                    svg.append("<path d=\"M").append(Format.fixed(left + event.finishedMs() * scale, 1)).append(' ')
                            .append(row + 2).append(" l6 6 l-6 6 l-6 -6 z\" fill=\"").append(colour)
                            .append("\"><title>").append(esc(detail)).append("</title></path>");
                }
                // the status right of the event; when the axis ends too soon, left of its dispatch; when that would
                // run into the row labels (a handler dispatched early that ran to the end), over the bar's end, haloed
                double after = left + event.finishedMs() * scale + STATUS_GAP;
                double statusWidth = STATUS_CHAR_PX * event.status().length();
                svg.append(after + statusWidth <= width ? text(after, row + 12, "bar-label", event.status())
                        : startX - 6 - statusWidth >= left ? text(startX - 6, row + 12, "bar-label end",
                        event.status()) : text(width - 2, row + 12, "bar-label end halo", event.status()));
                row += 18;
            }
            int top = y + 20;
            int bottom = y + laneHeight - 4;
            List<Mark> marks = new ArrayList<>();
            t.firstVisibleMs().ifPresent(ms -> marks.add(new Mark(left + ms * scale, "#1e8449",
                    "first visible character at " + Format.ms(ms) + " ms", "1st char")));
            marks.add(new Mark(left + t.firstAnswerEndMs() * scale, "#222",
                    "first answer ended at " + Format.ms(t.firstAnswerEndMs()) + " ms", "answer end"));
            t.followUpFirstMs().ifPresent(ms -> marks.add(new Mark(left + ms * scale, "#13806f",
                    "follow-up's first character at " + Format.ms(ms) + " ms", "follow-up")));
            svg.append(markers(marks, top, bottom, left, width));
            svg.append("</g>\n");
            desc.append(describe(t)).append(' ');
            y += laneHeight + 6;
        }
        int axisY = y + 4;
        svg.append(axis(axis, left, scale, axisY, "ms from the turn's start" + (modes.values().stream()
                .anyMatch(t -> t.timing() == TurnRecord.Timing.MODELLED) ? " (provider latency modelled)" : ""),
                Format::plain));
        int height = axisY + SvgCharts.AXIS_HEIGHT;
        return "<figure class=\"turn\" id=\"" + id + "\"><figcaption>Turn " + (turn + 1) + ": “" + esc(any.userText())
                + "”</figcaption><div class=\"chart-scroll\"><svg class=\"timeline-svg\" viewBox=\"0 0 " + width + " "
                + height + "\" role=\"img\" aria-labelledby=\"" + id + "-title " + id + "-desc\"><title id=\"" + id
                + "-title\">Timeline of turn " + (turn + 1) + " of " + esc(RunReport.caseKey(any.suiteId(),
                any.caseId())) + "</title><desc id=\"" + id + "-desc\">" + esc(desc.toString().strip()) + "</desc>\n"
                + svg + "</svg></div>" + timelineTable(modes) + "</figure>\n";
    }

    /** A marker on a lane: where, its colour, its tooltip and its label. */
    private record Mark(double x, String colour, String title, String label) {
    }

    /** Where a marker label went: its line (0 the top one) and its horizontal extent. */
    private record Placed(int line, double from, double to) {
        boolean clashes(int otherLine, double otherFrom, double otherTo) {
            return line == otherLine && otherFrom < to + 4 && from < otherTo + 4; // 4 px apart at least
        }
    }

    /**
     * The lane's markers, each label placed so that no marker label overlaps another or leaves the figure (event
     * status labels are not taken into account; the browser test checks the drawn result): right of its line if
     * there is room, else left of it (never over the row labels, left of {@code left}), else one line lower. Placed
     * from the latest marker back, so of two close markers the earlier label goes left and the later right
     * (ReportBrowserTest#labelsNeitherOverlapNorGetCut).
     */
    private static String markers(List<Mark> marks, int top, int bottom, int left, int width) {
        List<Placed> taken = new ArrayList<>();
        StringBuilder svg = new StringBuilder();
        List<Mark> latestFirst = new ArrayList<>(marks);
        latestFirst.sort(Comparator.comparingDouble(Mark::x).reversed());
        for (Mark mark : latestFirst) {
            double labelWidth = mark.label().length() * MARKER_CHAR_PX;
            String label = null;
            // a lane holds at most three markers, so a free place is found within as many lines; the bound only
            // guards against a figure no place fits (then the label goes right of its line, as it always did)
            for (int line = 0; label == null && line < MAX_MARKER_LINES; line++) {
                double rightFrom = mark.x() + 3;
                double leftFrom = mark.x() - 3 - labelWidth;
                int y = top + 8 + MARKER_LINE_PX * line;
                if (rightFrom + labelWidth <= width - 2 && free(taken, line, rightFrom, rightFrom + labelWidth)) {
                    taken.add(new Placed(line, rightFrom, rightFrom + labelWidth));
                    label = text(rightFrom, y, "marker-label", mark.label());
                } else if (leftFrom >= left && free(taken, line, leftFrom, leftFrom + labelWidth)) {
                    taken.add(new Placed(line, leftFrom, leftFrom + labelWidth));
                    label = text(mark.x() - 3, y, "marker-label end", mark.label());
                }
            }
            svg.append(marker(mark.x(), top, bottom, mark.colour(), mark.title(), label != null ? label
                    : text(mark.x() + 3, top + 8, "marker-label", mark.label())));
        }
        return svg.toString();
    }

    private static boolean free(List<Placed> taken, int line, double from, double to) {
        return taken.stream().noneMatch(placed -> placed.clashes(line, from, to));
    }

    static String timingWord(TurnTimeline t) {
        return switch (t.timing()) {
            // the provider's side is modelled or recorded; the kit's own time in the turn is measured, so a lane
            // may show a run's first-case warm-up (docs/engine.md#html-report)
            case MODELLED -> "provider latency modelled, the kit's time measured";
            case RECORDED -> "recorded provider offsets, the kit's time measured";
            case LIVE -> "live, measured";
        };
    }

    private static String describe(TurnTimeline t) {
        StringBuilder text = new StringBuilder(t.mode().wireName() + " (" + timingWord(t) + "): ");
        text.append(t.firstVisibleMs().map(ms -> "first visible character at " + Format.ms(ms) + " ms")
                .orElse("no visible first answer")).append(", first answer ended at ")
                .append(Format.ms(t.firstAnswerEndMs())).append(" ms");
        for (TurnTimeline.Event event : t.events()) {
            text.append("; ").append(event.name()).append(' ').append(event.status()).append(event.startedMs()
                    .map(s -> ", ran from " + Format.ms(s) + " ms").orElse("")).append(", final at ")
                    .append(Format.ms(event.finishedMs())).append(" ms");
        }
        t.followUpFirstMs().ifPresent(ms -> text.append("; follow-up's first character at ").append(Format.ms(ms))
                .append(" ms"));
        text.append("; ").append(t.calls().size()).append(" model call(s); turn ended at ")
                .append(Format.ms(t.wallMs()))
                .append(" ms.");
        return text.toString();
    }

    private static String timelineTable(Map<InvocationMode, TurnTimeline> modes) {
        StringBuilder html = new StringBuilder("<details class=\"as-table\"><summary>the same as a table</summary>")
                .append("<div class=\"table-wrap\"><table><thead><tr><th scope=\"col\">mode</th><th scope=\"col\">")
                .append("what</th><th scope=\"col\" class=\"num\">from (ms)</th><th scope=\"col\" class=\"num\">")
                .append("to (ms)</th><th scope=\"col\">detail</th></tr></thead><tbody>");
        for (TurnTimeline t : modes.values()) {
            String mode = esc(t.mode().wireName());
            t.firstVisibleMs().ifPresent(ms -> row(html, mode, "first visible character", ms, null, ""));
            row(html, mode, "first answer end", t.firstAnswerEndMs(), null, "");
            for (TurnTimeline.Call call : t.calls()) {
                row(html, mode, call.role().wireName() + " call", call.startMs(), call.endMs(), "first item at "
                        + Format.ms(call.firstItemMs()) + " ms; " + (call.usageReported() ? call.promptTokens()
                        + " prompt, " + call.completionTokens() + " completion tokens" : "usage unknown")
                        + call.error().map(e -> "; " + e).orElse(""));
            }
            for (TurnTimeline.Event event : t.events()) {
                row(html, mode, event.id() + " " + event.name(), event.dispatchedMs(), event.finishedMs(),
                        event.status() + event.startedMs().map(s -> "; handler " + Format.ms(s) + "–"
                                + Format.ms(event.handlerEndMs().orElse(s)) + " ms").orElse("; handler never ran"));
            }
            t.followUpFirstMs().ifPresent(ms -> row(html, mode, "follow-up", ms, t.followUpEndMs().orElse(null),
                    "first character to end"));
            row(html, mode, "turn end", t.wallMs(), null, timingWord(t));
        }
        return html.append("</tbody></table></div></details>").toString();
    }

    private static void row(StringBuilder html, String mode, String what, double from, Double to, String detail) {
        html.append("<tr><td>").append(mode).append("</td><td>").append(esc(what)).append("</td><td class=\"num\">")
                .append(Format.ms(from)).append("</td><td class=\"num\">").append(to == null ? "" : Format.ms(to))
                .append("</td><td>").append(esc(detail)).append("</td></tr>");
    }
}
