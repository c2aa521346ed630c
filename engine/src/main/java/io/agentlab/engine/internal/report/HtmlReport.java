package io.agentlab.engine.internal.report;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.agentlab.engine.internal.metrics.Figure;
import io.agentlab.engine.internal.metrics.Metric;
import io.agentlab.engine.internal.metrics.TurnRecord;
import io.agentlab.engine.internal.metrics.TurnTimeline;
import io.agentlab.engine.report.TestOutcome;
import io.agentlab.kernel.api.InvocationMode;
import io.agentlab.kernel.runtime.llm.CallRole;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.function.DoubleFunction;
import org.apiguardian.api.API;

/**
 * The self-contained {@code index.html}: one file, no script, font or stylesheet from the network, readable from a
 * phone to a wide screen. Results first — the broken tests with their messages, then every test by suite under a
 * filter (text, status, suite, mode, tag; {@code /} focuses it, Escape clears it) — then each case's turn timelines
 * (one lane per mode on a shared time axis), the comparison with its charts, the control matrix and the
 * capability-growth curve, what moved, and how streams were timed. Every chart is inline SVG with a text
 * alternative; ids the browser test relies on: {@code failures}, {@code filter}, {@code results},
 * {@code tl-<suite>--<case>}, {@code measures}, {@code chart-<unit>}, {@code chart-matrix-tokens},
 * {@code chart-matrix-ttft}, {@code chart-growth}.
 */
@API(status = INTERNAL, since = "0.1")
public final class HtmlReport {

    private static final String DUAL = "#2f6fb3";
    private static final String TOOLS = "#c0571b";

    private HtmlReport() {
    }

    /** The page. */
    public static String render(RunReport report) {
        StringBuilder html = new StringBuilder(64 * 1024);
        long broken = report.broken().size();
        html.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">")
                .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>")
                .append(broken == 0 ? "passed" : broken + " broken").append(" · Agent Lab conformance, ")
                .append(report.outcomes().size()).append(" tests</title>\n<style>").append(STYLE).append("</style>")
                .append("</head>\n<body>\n");
        header(html, report);
        html.append("<main>\n");
        failures(html, report);
        results(html, report);
        timelines(html, report);
        withheld(html, report);
        comparison(html, report);
        control(html, report);
        history(html, report);
        timing(html, report);
        html.append("</main>\n<footer><p>Written by the agentlab-conformance engine ")
                .append(esc(report.metadata().kitVersion())).append(". Self-contained: this file needs no network.")
                .append("</p></footer>\n<script>").append(SCRIPT).append("</script>\n</body></html>\n");
        return html.toString();
    }

    private static void header(StringBuilder html, RunReport report) {
        RunMetadata meta = report.metadata();
        html.append("<header>\n<h1>Agent Lab conformance report</h1>\n<p class=\"summary\" id=\"summary\">");
        for (TestOutcome.Status status : TestOutcome.Status.values()) {
            long count = report.count(status);
            if (count > 0 || status == TestOutcome.Status.FAILED) {
                html.append("<span class=\"badge ").append(status.wireName()).append("\">").append(count).append(' ')
                        .append(status.wireName()).append("</span> ");
            }
        }
        html.append("of ").append(report.outcomes().size()).append(" tests</p>\n<dl class=\"meta\" id=\"run-metadata\">");
        meta(html, "started", Format.instant(meta.startedAt()));
        meta(html, "finished", Format.instant(meta.finishedAt()));
        meta(html, "kit version", meta.kitVersion());
        meta(html, "commit", meta.commit().orElse("unknown"));
        meta(html, "provider", meta.provider());
        meta(html, "replay speed", Format.plain(meta.replaySpeed()));
        meta(html, "modes", String.join(", ", meta.modes()));
        meta(html, "kernel under test", meta.kernelFactory());
        meta(html, "machine", meta.machine());
        meta(html, "covered", meta.coverage());
        html.append("</dl>\n<nav aria-label=\"sections\"><a href=\"#failures\">Failures</a> <a href=\"#results\">")
                .append("All results</a> <a href=\"#timelines\">Timelines</a> <a href=\"#withheld\">Withheld answers</a> ")
                .append("<a href=\"#comparison\">Comparison</a> <a href=\"#control\">Control and growth</a> ")
                .append("<a href=\"#history\">What moved</a> <a href=\"#timing\">Timing</a></nav>\n</header>\n");
    }

    private static void meta(StringBuilder html, String name, String value) {
        html.append("<div><dt>").append(esc(name)).append("</dt><dd>").append(esc(value)).append("</dd></div>");
    }

    private static void failures(StringBuilder html, RunReport report) {
        html.append("<section id=\"failures\" aria-labelledby=\"failures-h\"><h2 id=\"failures-h\">Failures</h2>\n");
        if (report.broken().isEmpty()) {
            html.append("<p class=\"ok\">Every test passed or was skipped.</p>\n");
        } else {
            html.append("<ol class=\"failure-list\">\n");
            for (TestOutcome outcome : report.broken()) {
                html.append("<li class=\"failure\" data-id=\"").append(esc(outcome.id())).append("\"><h3>")
                        .append(statusBadge(outcome.status())).append(' ')
                        .append(esc(outcome.suite().map(s -> s + "/").orElse("") + outcome.name())).append("</h3>");
                timelineLink(html, outcome);
                html.append("\n<pre class=\"message\">").append(esc(outcome.message().orElse("(no message)")))
                        .append("</pre></li>\n");
            }
            html.append("</ol>\n");
        }
        html.append("</section>\n");
    }

    private static void timelineLink(StringBuilder html, TestOutcome outcome) {
        outcome.caseId().ifPresent(caseId -> html.append(" <a class=\"timeline-link\" href=\"#")
                .append(timelineId(outcome.suite().orElseThrow(), caseId)).append("\">timeline of ")
                .append(esc(caseId)).append("</a>"));
    }

    private static void results(StringBuilder html, RunReport report) {
        html.append("<section id=\"results\" aria-labelledby=\"results-h\"><h2 id=\"results-h\">All results</h2>\n")
                .append("<form class=\"filters\" role=\"search\" onsubmit=\"return false\">")
                .append("<label>Search <input id=\"filter\" type=\"search\" autocomplete=\"off\" ")
                .append("placeholder=\"name, message, tag (press /)\" aria-describedby=\"filter-count\"></label>");
        select(html, "f-status", "Status", List.of("broken", "failed", "aborted", "skipped", "passed"),
                Map.of("broken", "failed or aborted"));
        select(html, "f-suite", "Suite", report.suites(), Map.of());
        select(html, "f-mode", "Mode", report.outcomes().stream().map(HtmlReport::modeOrKind)
                .filter(m -> !m.isEmpty()).distinct().sorted().toList(), Map.of("gate", "gates"));
        TreeSet<String> tags = new TreeSet<>();
        report.outcomes().forEach(o -> tags.addAll(o.tags()));
        select(html, "f-tag", "Tag", List.copyOf(tags), Map.of());
        html.append("<output id=\"filter-count\" aria-live=\"polite\">").append(report.outcomes().size()).append(" of ")
                .append(report.outcomes().size()).append(" tests shown</output></form>\n");
        for (String suite : report.suites()) {
            List<TestOutcome> tests = report.outcomes().stream()
                    .filter(o -> o.suite().orElse(RunReport.GATES).equals(suite)).toList();
            long broken = tests.stream().filter(TestOutcome::broken).count();
            // a suite with a broken test is open; the others fold to one line until a filter finds something in them
            html.append("<details class=\"suite-group\" data-suite=\"").append(esc(suite)).append("\" data-broken=\"")
                    .append(broken > 0).append('"').append(broken > 0 ? " open" : "").append("><summary><h3>")
                    .append(esc(suite)).append(" <small>").append(broken == 0 ? tests.size() + " tests, none broken"
                            : broken + " of " + tests.size() + " broken").append("</small></h3></summary>\n")
                    .append("<div class=\"table-wrap\"><table class=\"results\"><thead><tr><th scope=\"col\">status")
                    .append("</th><th scope=\"col\">test</th><th scope=\"col\">mode</th><th scope=\"col\" ")
                    .append("class=\"num\">duration</th><th scope=\"col\">message</th></tr></thead><tbody>\n");
            for (TestOutcome test : tests) {
                String text = (test.suite().orElse("") + " " + test.name() + " " + test.mode() + " "
                        + String.join(" ", test.tags()) + " " + test.message().orElse("")).toLowerCase(Locale.ROOT);
                html.append("<tr class=\"result\" data-status=\"").append(test.status().wireName())
                        .append("\" data-suite=\"").append(esc(suite)).append("\" data-mode=\"").append(esc(modeOrKind(test)))
                        .append("\" data-tags=\"").append(esc(String.join(" ", test.tags()))).append("\" data-text=\"")
                        .append(esc(text)).append("\"><td>").append(statusBadge(test.status())).append("</td><td>")
                        .append(esc(test.name()));
                if (test.broken()) {
                    timelineLink(html, test);
                }
                html.append("</td><td>").append(esc(test.mode())).append("</td><td class=\"num\">")
                        .append(Format.ms(test.durationMs())).append(" ms</td><td>");
                test.message().ifPresent(message -> html.append(test.broken() ? "<pre class=\"message\">"
                        + esc(message) + "</pre>" : esc(message)));
                html.append("</td></tr>\n");
            }
            html.append("</tbody></table></div></details>\n");
        }
        html.append("</section>\n");
    }

    /** What the mode filter calls a test: its mode, {@code parity}, or {@code gate} for every gate. */
    private static String modeOrKind(TestOutcome test) {
        return test.kind().equals("gate") ? "gate" : test.mode();
    }

    private static void select(StringBuilder html, String id, String label, List<String> values,
                               Map<String, String> names) {
        html.append("<label>").append(label).append(" <select id=\"").append(id).append("\"><option value=\"\">all")
                .append("</option>");
        for (String value : values) {
            html.append("<option value=\"").append(esc(value)).append("\">").append(esc(names.getOrDefault(value,
                    value))).append("</option>");
        }
        html.append("</select></label>");
    }

    private static void timelines(StringBuilder html, RunReport report) {
        html.append("<section id=\"timelines\" aria-labelledby=\"timelines-h\"><h2 id=\"timelines-h\">Turn timelines")
                .append("</h2>\n<p>Each turn in both modes, one lane per mode on a shared time axis (milliseconds from ")
                .append("the turn's start): model calls (pale while waiting for the first stream item, solid while ")
                .append("streaming, with their tokens in → out), the first visible character, the end of the first ")
                .append("answer, each event from dispatch (thin line) through its handler (bar, coloured by how it ")
                .append("ended), and the follow-up. ").append(legend()).append("</p>\n");
        report.modelledNote().ifPresent(note -> html.append("<p class=\"modelled\">In this run, ").append(esc(note))
                .append(". Lanes say which.</p>\n"));
        List<String> brokenCases = report.broken().stream().filter(o -> o.caseId().isPresent())
                .map(o -> RunReport.caseKey(o.suite().orElseThrow(), o.caseId().get())).distinct().toList();
        report.timelinesByCase().forEach((caseKey, turns) -> {
            TurnTimeline first = turns.values().iterator().next().values().iterator().next();
            boolean isBroken = brokenCases.contains(caseKey);
            html.append("<details class=\"timeline\" id=\"").append(timelineId(first.suiteId(), first.caseId()))
                    .append('"').append(isBroken ? " open" : "").append("><summary>").append(esc(caseKey))
                    .append(isBroken ? " " + statusBadge(TestOutcome.Status.FAILED) : "").append(" <small>")
                    .append(turns.size()).append(turns.size() == 1 ? " turn" : " turns").append("</small></summary>\n");
            turns.forEach((turn, modes) -> html.append(turnFigure(turn, modes)));
            html.append("</details>\n");
        });
        html.append("</section>\n");
    }

    private static String legend() {
        return "<span class=\"legend\"><i style=\"background:#2f6fb3\"></i>ChatAgent <i style=\"background:#7b3fa0\">"
                + "</i>EventAgent fallback <i style=\"background:#13806f\"></i>follow-up <i style=\"background:"
                + "#2e8b57\"></i>succeeded <i style=\"background:#c0392b\"></i>failed, timed out or rejected "
                + "<i style=\"background:#b9770e\"></i>needs clarification <i style=\"background:#8a9599\"></i>"
                + "deduplicated or replayed</span>";
    }

    /** One turn: a lane per mode on one axis, then the same as a table. */
    private static String turnFigure(int turn, Map<InvocationMode, TurnTimeline> modes) {
        TurnTimeline any = modes.values().iterator().next();
        String id = timelineId(any.suiteId(), any.caseId()) + "-t" + (turn + 1);
        double end = modes.values().stream().mapToDouble(TurnTimeline::endMs).max().orElse(1);
        Axis axis = Axis.of(end);
        int width = 960;
        int left = 250;
        int right = width - 24;
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
                svg.append(text(16, row + 12, "row-label", label));
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
                svg.append(text(16, row + 12, "row-label", shorten(label, 34)));
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
                // the status right of the event, or left of its dispatch when the axis ends too soon
                double after = left + event.finishedMs() * scale + 10;
                svg.append(after + 7 * event.status().length() <= width ? text(after, row + 12, "bar-label",
                        event.status()) : text(startX - 6, row + 12, "bar-label end", event.status()));
                row += 18;
            }
            int top = y + 20;
            int bottom = y + laneHeight - 4;
            t.firstVisibleMs().ifPresent(ms -> svg.append(marker(left + ms * scale, top, bottom, "#1e8449",
                    "first visible character at " + Format.ms(ms) + " ms", "1st char")));
            svg.append(marker(left + t.firstAnswerEndMs() * scale, top, bottom, "#222",
                    "first answer ended at " + Format.ms(t.firstAnswerEndMs()) + " ms", "answer end"));
            t.followUpFirstMs().ifPresent(ms -> svg.append(marker(left + ms * scale, top, bottom, "#13806f",
                    "follow-up's first character at " + Format.ms(ms) + " ms", "follow-up")));
            svg.append("</g>\n");
            desc.append(describe(t)).append(' ');
            y += laneHeight + 6;
        }
        int axisY = y + 4;
        svg.append(axis(axis, left, scale, axisY, "ms from the turn's start" + (modes.values().stream()
                .anyMatch(t -> t.timing() == TurnRecord.Timing.MODELLED) ? " (latency model)" : ""), Format::plain));
        int height = axisY + 36;
        return "<figure class=\"turn\" id=\"" + id + "\"><figcaption>Turn " + (turn + 1) + ": “" + esc(any.userText())
                + "”</figcaption><div class=\"chart-scroll\"><svg class=\"timeline-svg\" viewBox=\"0 0 " + width + " "
                + height + "\" role=\"img\" aria-labelledby=\"" + id + "-title " + id + "-desc\"><title id=\"" + id
                + "-title\">Timeline of turn " + (turn + 1) + " of " + esc(RunReport.caseKey(any.suiteId(),
                any.caseId())) + "</title><desc id=\"" + id + "-desc\">" + esc(desc.toString().strip()) + "</desc>\n"
                + svg + "</svg></div>" + timelineTable(modes) + "</figure>\n";
    }

    private static String timingWord(TurnTimeline t) {
        return switch (t.timing()) {
            case MODELLED -> "latency model (synthesized stream)";
            case RECORDED -> "recorded offsets";
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
        text.append("; ").append(t.calls().size()).append(" model call(s); turn ended at ").append(Format.ms(t.wallMs()))
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

    private static void withheld(StringBuilder html, RunReport report) {
        html.append("<section id=\"withheld\" aria-labelledby=\"withheld-h\"><h2 id=\"withheld-h\">Visible answer ")
                .append("withheld until after tool calls</h2>\n<p>Turns where the provider streamed its tool calls ")
                .append("before any visible content (docs/design.md#modes-visible-withheld-recorded): each is a ")
                .append("direct-mode consistency failure of the provider, listed here rather than hidden in a rate.")
                .append("</p>\n");
        if (report.withheld().isEmpty()) {
            html.append("<p class=\"ok\">None in this run.</p>\n");
        } else {
            html.append("<ul>");
            for (TurnTimeline t : report.withheld()) {
                html.append("<li><a href=\"#").append(timelineId(t.suiteId(), t.caseId())).append("\">")
                        .append(esc(RunReport.caseKey(t.suiteId(), t.caseId()))).append("</a> turn ")
                        .append(t.turnIndex() + 1).append(" (").append(t.mode().wireName()).append("): first visible ")
                        .append("character at ").append(t.firstVisibleMs().map(ms -> Format.ms(ms) + " ms")
                                .orElse("never")).append(", ").append(esc(timingWord(t))).append("</li>");
            }
            html.append("</ul>\n");
        }
        html.append("</section>\n");
    }

    private static void comparison(StringBuilder html, RunReport report) {
        html.append("<section id=\"comparison\" aria-labelledby=\"comparison-h\"><h2 id=\"comparison-h\">Mode ")
                .append("comparison</h2>\n<p>Measures per docs/design.md#metrics-per-mode, counted by the ")
                .append("fair-comparison contract (docs/design.md#usage-fair-comparison). ")
                .append(esc(Comparison.NOISE_RULE)).append("</p>\n");
        report.modelledNote().ifPresent(note -> html.append("<p class=\"modelled\"><span class=\"badge model\">")
                .append("model</span> Rows so marked are timings: ").append(esc(note)).append(".</p>\n"));
        boolean modelled = report.modelledNote().isPresent();
        html.append("<div class=\"table-wrap\"><table id=\"measures\"><thead><tr><th scope=\"col\">measure</th>")
                .append("<th scope=\"col\">unit</th><th scope=\"col\">better</th><th scope=\"col\" class=\"num\">")
                .append("dual_agent</th><th scope=\"col\" class=\"num\">chat_agent_tools</th><th scope=\"col\" ")
                .append("class=\"num\">tools ÷ dual</th><th scope=\"col\">verdict</th></tr></thead><tbody>\n");
        for (Comparison comparison : report.comparisons()) {
            Metric metric = comparison.metric();
            html.append("<tr data-metric=\"").append(metric.key()).append("\"><th scope=\"row\">")
                    .append(esc(metric.label()))
                    .append(modelled && metric.isTiming() ? " <span class=\"badge model\">model</span>" : "")
                    .append("</th><td>").append(esc(Format.unit(metric))).append("</td><td>")
                    .append(arrow(metric.better())).append("</td><td class=\"num\">")
                    .append(esc(Format.figure(metric, comparison.dual()))).append("</td><td class=\"num\">")
                    .append(esc(Format.figure(metric, comparison.tools()))).append("</td><td class=\"num\">")
                    .append(Format.ratio(comparison, "×")).append("</td><td class=\"verdict ")
                    .append(comparison.verdict() instanceof Comparison.Verdict.Better ? "better" : "")
                    .append("\">").append(esc(comparison.verdict().text())).append("</td></tr>\n");
        }
        html.append("</tbody></table></div>\n<div class=\"charts\">\n");
        Map<Metric.Unit, List<Comparison>> byUnit = new LinkedHashMap<>();
        for (Comparison comparison : report.comparisons()) {
            if (comparison.metric().better() != Metric.Better.NEITHER) {
                byUnit.computeIfAbsent(comparison.metric().unit(), unit -> new ArrayList<>()).add(comparison);
            }
        }
        byUnit.forEach((unit, comparisons) -> {
            boolean known = comparisons.stream().anyMatch(c -> known(c.dual()) || known(c.tools()));
            html.append("<figure class=\"chart\"><figcaption>").append(chartText(unit)[0]).append("</figcaption>");
            if (!known && unit == Metric.Unit.USD) {
                html.append("<div class=\"empty-box\" id=\"chart-usd\"><p><strong>No cost figures.</strong> No ")
                        .append("pricing catalog was configured, and an unpriced call is never counted as zero. ")
                        .append("Point <code>agentlab.pricing.file</code> at a pricing catalog for the models this run ")
                        .append("used (").append(esc(String.join(", ", report.metadata().models()))).append("): ")
                        .append("<code>-Dagentlab.pricing.file=prices.json</code>, or <code>agentlab run --config ")
                        .append("agentlab.pricing.file=prices.json</code>. The format (USD per token, tiers by ")
                        .append("prompt tokens) is in docs/runtime.md, \"Usage and cost\":</p><pre>")
                        .append(esc("{\"models\": {\"" + report.metadata().models().stream().findFirst()
                                .orElse("gpt-4o-mini") + "\": {\"tiers\": [{\"max_prompt_tokens\": null,\n"
                                + "  \"input_cost_per_token\": 0.00000015, \"output_cost_per_token\": 0.0000006}]}}}"))
                        .append("</pre></div>");
            } else {
                html.append(barChart("chart-" + unit.name().toLowerCase(Locale.ROOT), chartText(unit)[1], unit,
                        comparisons.stream().map(c -> new Bars(c.metric().label()
                                + (modelled && c.metric().isTiming() ? " (model)" : ""), c.dual(), c.tools())).toList()));
            }
            html.append("</figure>\n");
        });
        html.append("</div></section>\n");
    }

    private static boolean known(Figure figure) {
        return figure != null && figure.value() != null;
    }

    /** A unit's chart: its caption and its axis title. */
    private static String[] chartText(Metric.Unit unit) {
        return switch (unit) {
            case MS -> new String[] {"Timings, milliseconds (bar: p50, whisker: p95; lower is better)", "milliseconds"};
            case TOKENS -> new String[] {"Tokens (lower is better)", "tokens"};
            case CALLS -> new String[] {"Model calls per turn (lower is better)", "calls per turn"};
            case EVENTS -> new String[] {"Events", "events"};
            case TURNS -> new String[] {"Turns (lower is better)", "turns"};
            case RATE -> new String[] {"Rates, percent (the table's arrow says which way is better)", "percent"};
            case USD -> new String[] {"Cost, US dollars (lower is better)", "US dollars"};
        };
    }

    private static void control(StringBuilder html, RunReport report) {
        html.append("<section id=\"control\" aria-labelledby=\"control-h\"><h2 id=\"control-h\">What offering ")
                .append("capabilities costs</h2>\n");
        if (report.matrix().isEmpty()) {
            html.append("<p>The control turns did not run (<code>agentlab.report.control=false</code>, or a live ")
                    .append("provider).</p>\n");
        } else {
            int all = report.matrix().stream().mapToInt(ControlMatrix.Cell::events).max().orElse(0);
            html.append("<p>The same ").append(ControlMatrix.DATASET.size()).append(" small-talk turns in each mode ")
                    .append("with every event disabled and with all ").append(all).append(" offered events enabled ")
                    .append("(docs/design.md#metrics-control-matrix): only the capability context differs. Their ")
                    .append("times are the latency model's.</p>\n<div class=\"charts\">");
            List<Bars> tokens = new ArrayList<>();
            List<Bars> ttft = new ArrayList<>();
            for (int events : report.matrix().stream().map(ControlMatrix.Cell::events).distinct().toList()) {
                String label = events == 0 ? "no event enabled" : events + " events enabled";
                tokens.add(new Bars(label, scalar(cell(report, InvocationMode.DUAL_AGENT, events)
                        .map(ControlMatrix.Cell::promptTokensPerTurn)), scalar(cell(report,
                        InvocationMode.CHAT_AGENT_TOOLS, events).map(ControlMatrix.Cell::promptTokensPerTurn))));
                ttft.add(new Bars(label + " (model)", cell(report, InvocationMode.DUAL_AGENT, events)
                        .map(c -> (Figure) c.firstVisibleTtftMs()).orElse(null), cell(report,
                        InvocationMode.CHAT_AGENT_TOOLS, events).map(c -> (Figure) c.firstVisibleTtftMs())
                        .orElse(null)));
            }
            html.append("<figure class=\"chart\"><figcaption>ChatAgent prompt tokens per turn</figcaption>")
                    .append(barChart("chart-matrix-tokens", "tokens per turn", Metric.Unit.TOKENS, tokens))
                    .append("</figure><figure class=\"chart\"><figcaption>First-visible TTFT, latency model (bar: ")
                    .append("p50, whisker: p95)</figcaption>")
                    .append(barChart("chart-matrix-ttft", "milliseconds (latency model)", Metric.Unit.MS, ttft))
                    .append("</figure></div>\n");
        }
        html.append("<h3>Capability growth</h3>\n<p>ChatAgent's first-request prompt tokens with 0 to ")
                .append(report.growth().isEmpty() ? 0 : report.growth().get(report.growth().size() - 1).events())
                .append(" enabled events (docs/design.md#metrics-capability-growth): catalog lines in dual_agent, ")
                .append("full tool schemas in chat_agent_tools, counted in the model's encoding over the requests the runtime ")
                .append("builds (the offered events first, then synthetic ones of a typical size).</p>\n")
                .append(growthChart(report.growth())).append("\n</section>\n");
    }

    private static Optional<ControlMatrix.Cell> cell(RunReport report, InvocationMode mode, int events) {
        return report.matrix().stream().filter(c -> c.mode() == mode && c.events() == events).findFirst();
    }

    private static Figure scalar(Optional<Double> value) {
        return value.<Figure>map(v -> new Figure.Scalar(v, List.of(), null, null)).orElse(null);
    }

    private static void history(StringBuilder html, RunReport report) {
        html.append("<section id=\"history\" aria-labelledby=\"history-h\"><h2 id=\"history-h\">What moved</h2>\n");
        if (report.history().isEmpty()) {
            html.append("<p>Nothing to compare with: set <code>agentlab.baseline.file</code>, or ")
                    .append("<code>agentlab.report.previous</code> to a previous run's <code>metrics.json</code> (a ")
                    .append("report folder's own earlier <code>metrics.json</code> is used by default).</p>\n");
        }
        for (History history : report.history()) {
            html.append("<h3>Against ").append(esc(history.source())).append("</h3>\n");
            if (history.problem().isPresent()) {
                html.append("<p>Not compared: ").append(esc(history.problem().get())).append("</p>\n");
                continue;
            }
            if (history.changed().isEmpty()) {
                html.append("<p class=\"ok\">Nothing moved (").append(history.moves().size())
                        .append(" figures compared).</p>\n");
                continue;
            }
            html.append("<div class=\"table-wrap\"><table class=\"moves\"><thead><tr><th scope=\"col\">mode</th>")
                    .append("<th scope=\"col\">measure</th><th scope=\"col\" class=\"num\">before</th><th scope=\"col\" ")
                    .append("class=\"num\">now</th><th scope=\"col\" class=\"num\">change</th><th scope=\"col\"></th>")
                    .append("</tr></thead><tbody>\n");
            for (History.Move move : history.changed()) {
                html.append("<tr class=\"").append(move.direction()).append("\"><td>").append(move.mode())
                        .append("</td><td>").append(esc(move.metric().label())).append("</td><td class=\"num\">")
                        .append(esc(Format.value(move.metric(), move.before()))).append("</td><td class=\"num\">")
                        .append(esc(Format.value(move.metric(), move.after()))).append("</td><td class=\"num\">")
                        .append(MarkdownReport.change(move)).append("</td><td>").append(move.direction())
                        .append("</td></tr>\n");
            }
            html.append("</tbody></table></div>\n");
        }
        html.append("</section>\n");
    }

    private static void timing(StringBuilder html, RunReport report) {
        html.append("<section id=\"timing\" aria-labelledby=\"timing-h\"><h2 id=\"timing-h\">Timing</h2>\n");
        report.modelledNote().ifPresent(note -> html.append("<p class=\"modelled\">In this run, ").append(esc(note))
                .append(".</p>\n"));
        html.append("<ul>");
        report.timing().forEach((suite, how) -> html.append("<li><code>").append(esc(suite)).append("</code>: ")
                .append(esc(how)).append("</li>"));
        html.append("</ul>\n</section>\n");
    }

    /** A chart row: one bar per mode. */
    private record Bars(String label, Figure dual, Figure tools) {
    }

    /** A horizontal bar chart with an axis: per row a dual_agent and a chat_agent_tools bar, p95 whiskers. */
    private static String barChart(String id, String axisTitle, Metric.Unit unit, List<Bars> rows) {
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
            svg.append(text(8, y + 17, "row-label", shorten(row.label(), 34)));
            svg.append(chartBar(row.dual(), unit, left, y, scale, DUAL, "dual_agent", row.label(), desc));
            svg.append(chartBar(row.tools(), unit, left, y + 14, scale, TOOLS, "chat_agent_tools", row.label(), desc));
            y += 36;
        }
        svg.append(axis(axis, left, scale, y + 2, axisTitle, rate ? v -> Format.plain(Math.round(v * 1000) / 10.0)
                + "%" : Format::plain));
        int height = y + 38;
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
    private static String growthChart(List<CapabilityGrowth.Point> points) {
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
            dual.append(String.format(Locale.ROOT, "%.1f,%.1f ", px, bottom - p.dualAgent() / y.max() * (bottom - top)));
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
    private record Axis(double max, double step) {
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

    private static String axis(Axis axis, int left, double scale, int y, String title, DoubleFunction<String> tick) {
        StringBuilder svg = new StringBuilder("<g class=\"x-axis\"><line x1=\"").append(left).append("\" y1=\"")
                .append(y).append("\" x2=\"").append(Format.fixed(left + axis.max() * scale, 1)).append("\" y2=\"")
                .append(y).append("\" class=\"axis\"/>");
        for (double v = 0; v <= axis.max() + 1e-9; v += axis.step()) {
            String x = Format.fixed(left + v * scale, 1);
            svg.append("<line x1=\"").append(x).append("\" y1=\"").append(y).append("\" x2=\"").append(x)
                    .append("\" y2=\"").append(y + 5).append("\" class=\"axis\"/>")
                    .append(text(left + v * scale, y + 18, "tick middle", tick.apply(Math.round(v * 1e6) / 1e6)));
        }
        svg.append(text(left + axis.max() * scale / 2, y + 34, "axis-title middle", title));
        return svg.append("</g>").toString();
    }

    private static String marker(double x, int top, int bottom, String colour, String title, String label) {
        String at = Format.fixed(x, 1);
        return "<g class=\"marker\"><line x1=\"" + at + "\" y1=\"" + top + "\" x2=\"" + at + "\" y2=\"" + bottom
                + "\" stroke=\"" + colour + "\" stroke-width=\"1.5\" stroke-dasharray=\"4 3\"><title>" + esc(title)
                + "</title></line>" + text((int) Math.round(x) + 3, top + 8, "marker-label", label) + "</g>";
    }

    private static String bar(double x, int y, double width, int height, String colour, double opacity,
                              String title) {
        // built by hand, not String.format: a report writes thousands (Format#fixed)
        return "<rect x=\"" + Format.fixed(x, 1) + "\" y=\"" + y + "\" width=\"" + Format.fixed(Math.max(1.5, width), 1)
                + "\" height=\"" + height + "\" fill=\"" + colour + "\" fill-opacity=\"" + Format.fixed(opacity, 2)
                + "\"><title>" + esc(title) + "</title></rect>";
    }

    private static String text(double x, int y, String cssClass, String content) {
        return "<text x=\"" + Format.fixed(x, 1) + "\" y=\"" + y + "\" class=\"" + cssClass + "\">" + esc(content)
                + "</text>";
    }

    private static String statusColour(String status) {
        return switch (status) {
            case "succeeded" -> "#2e8b57";
            case "needs_clarification" -> "#b9770e";
            case "deduplicated", "replayed" -> "#8a9599";
            default -> "#c0392b";
        };
    }

    private static String statusBadge(TestOutcome.Status status) {
        return "<span class=\"badge " + status.wireName() + "\">" + status.wireName() + "</span>";
    }

    private static String arrow(Metric.Better better) {
        return switch (better) {
            case LOWER -> "<span aria-label=\"lower is better\">↓ lower</span>";
            case HIGHER -> "<span aria-label=\"higher is better\">↑ higher</span>";
            case NEITHER -> "–";
        };
    }

    private static String shorten(String text, int max) {
        return text.length() <= max ? text : text.substring(0, max - 1) + "…";
    }

    /** The id of a case's timeline: {@code tl-<suite>--<case>}, only characters an id and a fragment keep as is. */
    static String timelineId(String suite, String caseId) {
        return ("tl-" + suite + "--" + caseId).replaceAll("[^A-Za-z0-9_-]", "_");
    }

    private static String esc(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }

    private static final String STYLE = """
            :root{--dual:#2f6fb3;--tools:#c0571b;--ink:#1d2327;--muted:#5c666b;--line:#d6dbde}
            *{box-sizing:border-box}[hidden]{display:none!important}
            body{margin:0;font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--ink);background:#fff}
            header,main,footer{max-width:1200px;margin:0 auto;padding:0 16px}
            header{border-bottom:1px solid var(--line);padding-bottom:8px}
            h1{font-size:1.6rem;margin:16px 0 4px;overflow-wrap:anywhere}h2{margin-top:32px;border-bottom:2px solid var(--line)}
            h3{overflow-wrap:anywhere}small{color:var(--muted);font-weight:normal}
            .summary{font-size:1.1rem}.meta{display:flex;flex-wrap:wrap;gap:4px 20px;margin:8px 0;font-size:.9rem}
            .meta div{display:flex;gap:6px}.meta dt{color:var(--muted)}.meta dd{margin:0;overflow-wrap:anywhere}
            nav{display:flex;flex-wrap:wrap;gap:4px 14px;font-size:.95rem}
            a{color:#1559a0}a:focus,input:focus,select:focus,summary:focus{outline:3px solid #f0b400;outline-offset:2px}
            .badge{display:inline-block;border-radius:4px;padding:0 6px;font-size:.85rem;font-weight:600;color:#fff;background:#5c666b}
            .badge.failed,.badge.aborted{background:#b3261e}.badge.passed{background:#2e7d32}.badge.skipped{background:#7a6a00}
            .badge.model{background:#6a4c93}
            .ok{color:#2e7d32}.modelled{background:#f3effa;border-left:4px solid #6a4c93;padding:6px 10px}
            .failure-list{padding-left:1.2em}.failure h3{margin:12px 0 4px;font-size:1.05rem}
            pre.message{white-space:pre-wrap;overflow-wrap:anywhere;max-height:24em;overflow:auto;background:#fbf3f2;
              border-left:4px solid #b3261e;padding:8px;margin:4px 0;font-size:.85rem}
            .filters{display:flex;flex-wrap:wrap;gap:8px 16px;align-items:flex-end;margin:8px 0 12px;padding:8px;background:#f4f6f7}
            .filters label{display:flex;flex-direction:column;font-size:.85rem;color:var(--muted)}
            .filters input,.filters select{font-size:1rem;padding:4px;min-width:10em;max-width:100%}.filters input{min-width:16em}
            output{font-size:.9rem;padding-bottom:6px}
            .table-wrap{overflow-x:auto}table{border-collapse:collapse;width:100%;font-size:.92rem}
            th,td{border-bottom:1px solid var(--line);padding:4px 8px;text-align:left;vertical-align:top}
            .num{text-align:right;white-space:nowrap}td pre.message{max-height:12em}
            td.verdict.better{font-weight:600}tr.worse td{background:#fbeaea}tr.better td{background:#eaf6ec}
            details.suite-group>summary{cursor:pointer}details.suite-group>summary h3{display:inline;margin:0}
            details.suite-group{margin:6px 0}
            details.timeline{border:1px solid var(--line);border-radius:6px;margin:8px 0;padding:4px 10px}
            details.timeline>summary{cursor:pointer;font-weight:600;padding:4px 0;overflow-wrap:anywhere}
            figure{margin:8px 0}figcaption{font-size:.9rem;color:var(--muted);margin-bottom:4px;overflow-wrap:anywhere}
            .chart-scroll{overflow-x:auto}.chart-scroll svg{width:100%;min-width:560px;height:auto;display:block}
            .chart-scroll svg.line-chart{max-width:860px}
            .charts{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(100%,520px),1fr));gap:12px}
            svg text{font:12px system-ui,sans-serif;fill:var(--ink)}svg .lane-title{font-weight:700;font-size:13px}
            svg .row-label{fill:var(--muted)}svg .marker-label{font-size:10px}svg .tick{font-size:11px;fill:var(--muted)}
            svg .middle{text-anchor:middle}svg .end{text-anchor:end}svg .axis-title{font-size:12px;fill:var(--muted)}
            svg .axis{stroke:#888}svg .grid{stroke:#e3e7e9}svg .lane-bg{fill:#f7f9fa}
            .legend i{display:inline-block;width:11px;height:11px;margin:0 3px 0 10px;vertical-align:middle}
            .empty-box{border:1px dashed #999;padding:8px 12px;background:#fafafa}.empty-box pre{white-space:pre-wrap;overflow-wrap:anywhere}
            footer{color:var(--muted);font-size:.85rem;margin-top:32px;border-top:1px solid var(--line)}
            @media (max-width:640px){body{font-size:14px}.results td:nth-child(4),.results th:nth-child(4){display:none}}
            """;

    private static final String SCRIPT = """
            (function () {
              var rows = Array.prototype.slice.call(document.querySelectorAll('tr.result'));
              var groups = Array.prototype.slice.call(document.querySelectorAll('.suite-group'));
              var text = document.getElementById('filter'), count = document.getElementById('filter-count');
              var selects = ['f-status', 'f-suite', 'f-mode', 'f-tag'].map(function (id) { return document.getElementById(id); });
              function matches(row, q, status, suite, mode, tag) {
                var d = row.dataset;
                if (q && d.text.indexOf(q) < 0) return false;
                if (status && (status === 'broken' ? (d.status !== 'failed' && d.status !== 'aborted') : d.status !== status)) return false;
                if (suite && d.suite !== suite) return false;
                if (mode && d.mode !== mode) return false;
                if (tag && (' ' + d.tags + ' ').indexOf(' ' + tag + ' ') < 0) return false;
                return true;
              }
              function apply() {
                var q = text.value.trim().toLowerCase(), v = selects.map(function (s) { return s.value; }), shown = 0;
                rows.forEach(function (row) {
                  var ok = matches(row, q, v[0], v[1], v[2], v[3]);
                  row.hidden = !ok;
                  if (ok) shown++;
                });
                var filtering = q || v.some(function (x) { return x; });
                groups.forEach(function (g) {
                  var any = !!g.querySelector('tr.result:not([hidden])');
                  g.hidden = !any;
                  // while filtering, every group with a match is open; otherwise only those with a broken test
                  g.open = filtering ? any : g.dataset.broken === 'true';
                });
                count.textContent = shown + ' of ' + rows.length + ' tests shown';
              }
              [text].concat(selects).forEach(function (el) {
                el.addEventListener('input', apply);
                el.addEventListener('change', apply);
              });
              text.addEventListener('keydown', function (e) {
                if (e.key === 'Escape') { text.value = ''; apply(); }
              });
              document.addEventListener('keydown', function (e) {
                var tag = document.activeElement && document.activeElement.tagName;
                if (e.key === '/' && tag !== 'INPUT' && tag !== 'SELECT' && tag !== 'TEXTAREA') {
                  e.preventDefault();
                  text.focus();
                }
              });
              function open(id) {
                var el = id && document.getElementById(id);
                if (!el) return;
                // a link into a closed <details> opens it (and the ones around it) before the browser scrolls there
                for (var d = el.closest('details'); d; d = d.parentElement && d.parentElement.closest('details')) d.open = true;
              }
              document.addEventListener('click', function (e) {
                var link = e.target.closest && e.target.closest('a[href^="#"]');
                if (link) open(decodeURIComponent(link.getAttribute('href').slice(1)));
              });
              window.addEventListener('hashchange', function () { open(decodeURIComponent(location.hash.slice(1))); });
              if (location.hash) {
                open(decodeURIComponent(location.hash.slice(1)));
                var target = document.getElementById(decodeURIComponent(location.hash.slice(1)));
                if (target) target.scrollIntoView();
              }
              apply();
              document.documentElement.setAttribute('data-report-ready', '');
            })();
            """;
}
