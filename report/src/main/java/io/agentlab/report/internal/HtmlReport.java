package io.agentlab.report.internal;

import static io.agentlab.report.internal.ReportTemplate.esc;
import static org.apiguardian.api.API.Status.INTERNAL;

import io.agentlab.kernel.api.InvocationMode;
import io.agentlab.report.RunMetadata;
import io.agentlab.report.TestLog;
import io.agentlab.report.TestOutcome;
import io.agentlab.report.controls.ControlMatrix;
import io.agentlab.report.internal.ReportTemplate.Html;
import io.agentlab.report.internal.ReportTemplate.Streamed;
import io.agentlab.report.metrics.Figure;
import io.agentlab.report.metrics.Metric;
import io.agentlab.report.metrics.Samples;
import io.agentlab.report.metrics.TurnRecord;
import io.agentlab.report.metrics.TurnTimeline;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
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
 *
 * <p>The page's skeleton, prose, stylesheet and script are resources ({@code io/agentlab/report/internal/report.html},
 * {@code report.css}, {@code report.js}), inlined here into the one file; this class fills the skeleton's holes
 * ({@link ReportTemplate}) with the run's parts, and writes the tests the script filters as a JSON data block
 * ({@link ReportData}). The charts are drawn here ({@link SvgCharts}, {@link TurnFigures}), so the page reads
 * without script (docs/engine.md#html-report).
 */
@API(status = INTERNAL, since = "0.1")
public final class HtmlReport {

    private static final ReportTemplate PAGE = ReportTemplate.load("report.html");
    private static final Html STYLE = new Html(ReportTemplate.resource("report.css"));
    private static final Html SCRIPT = new Html(ReportTemplate.resource("report.js"));

    private HtmlReport() {
    }

    /** The page. */
    public static String render(RunReport report) {
        StringWriter page = new StringWriter();
        try {
            render(report, page);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return page.toString();
    }

    /**
     * Writes the page to {@code out} as it goes: every test's row and the data block are read back from the run's
     * test log one suite at a time and written straight out, never held as one string (docs/performance.md#memory).
     */
    public static void render(RunReport report, Writer out) throws IOException {
        long broken = report.tests().brokenCount();
        Map<String, Object> page = new LinkedHashMap<>();
        page.put("title", (broken == 0 ? "passed" : broken + " broken") + " · Agent Lab conformance, "
                + report.tests().size() + " tests");
        page.put("style", STYLE);
        page.put("badges", badges(report));
        // the run's one cause line, under its results as in the console (docs/wire.md#no-provider-call)
        page.put("cause", new Html(report.providerNote().map(note -> "<p class=\"cause\" id=\"cause\">" + esc(note)
                + "</p>\n").orElse("")));
        page.put("tests", report.tests().size());
        page.put("metadata", metadata(report.metadata()));
        page.put("answer", answer(report.headline(), report.tests().brokenCount()));
        page.put("failures", failures(report));
        page.put("filters", filters(report));
        page.put("suites", new Streamed(html -> suites(report, html)));
        page.put("timelinesNote", new Html(report.modelledNote().map(note -> "<p class=\"modelled\">In this run, "
                + esc(note) + ". Lanes say which.</p>\n").orElse("") + report.drawnNote().map(note ->
                "<p class=\"drawn\" id=\"timelines-drawn\">" + esc(note) + "</p>\n").orElse("")));
        page.put("timelines", timelines(report));
        page.put("withheld", withheld(report));
        page.put("noiseRule", Comparison.NOISE_RULE);
        page.put("comparisonNote", new Html(report.modelledNote().map(note -> "<p class=\"modelled\"><span class=\""
                + "badge model\">model</span> Rows so marked are timings: " + esc(note) + ".</p>\n").orElse("")));
        page.put("measures", measures(report));
        page.put("charts", charts(report));
        page.put("control", control(report));
        page.put("growthEvents", report.growth().isEmpty() ? 0 : report.growth().get(report.growth().size() - 1)
                .events());
        page.put("growth", new Html(SvgCharts.growthChart(report.growth())));
        page.put("history", history(report));
        page.put("timingNote", new Html(report.modelledNote().map(note -> "<p class=\"modelled\">In this run, "
                + esc(note) + ".</p>\n").orElse("")));
        StringBuilder timing = new StringBuilder();
        report.timing().forEach((suite, how) -> timing.append("<li><code>").append(esc(suite)).append("</code>: ")
                .append(esc(how)).append("</li>"));
        page.put("timing", new Html(timing.toString()));
        page.put("kitVersion", report.metadata().kitVersion());
        page.put("data", new Streamed(data -> ReportData.write(report, data)));
        page.put("script", SCRIPT);
        PAGE.fill(page, out);
    }

    /** The answer section: the run's sentence, then one line per family of measures (docs/engine.md#headline). */
    private static Html answer(Headline headline, long broken) {
        Optional<String> summary = headline.summary(broken);
        if (summary.isEmpty()) {
            return new Html("<p class=\"answer\">Only one mode ran: nothing to compare.</p>\n");
        }
        StringBuilder html = new StringBuilder("<p class=\"answer\" id=\"answer-summary\">")
                .append(esc(summary.get())).append("</p>\n<ul class=\"families\">");
        for (Headline.Family family : headline.families()) {
            String tone = family.modelled() ? "model" : family.better().map(InvocationMode::wireName).orElse("even");
            html.append("<li class=\"family ").append(tone).append("\" data-family=\"").append(family.kind().label())
                    .append("\">").append(family.modelled() ? "<span class=\"badge model\">model</span> " : "")
                    .append(esc(family.text())).append("</li>");
        }
        return new Html(html.append("</ul>\n").toString());
    }

    private static Html badges(RunReport report) {
        StringBuilder html = new StringBuilder();
        for (TestOutcome.Status status : TestOutcome.Status.values()) {
            long count = report.count(status);
            if (count > 0 || status == TestOutcome.Status.FAILED) {
                html.append("<span class=\"badge ").append(status.wireName()).append("\">").append(count).append(' ')
                        .append(status.wireName()).append("</span> ");
            }
        }
        return new Html(html.toString());
    }

    private static Html metadata(RunMetadata meta) {
        StringBuilder html = new StringBuilder();
        Map<String, String> rows = new LinkedHashMap<>();
        rows.put("started", Format.instant(meta.startedAt()));
        rows.put("finished", Format.instant(meta.finishedAt()));
        rows.put("kit version", meta.kitVersion());
        rows.put("commit", meta.commit().orElse("unknown"));
        rows.put("provider", meta.provider());
        rows.put("replay speed", Format.plain(meta.replaySpeed()));
        rows.put("modes", String.join(", ", meta.modes()));
        if (!meta.overTheWire()) {
            rows.put("kernel under test", meta.kernelFactory()); // over the wire, the subject row says what ran
        }
        rows.put("subject", meta.subject());
        meta.notObservableSummary().ifPresent(line -> rows.put("not observable", line));
        rows.put("machine", meta.machine());
        rows.put("covered", meta.coverage());
        rows.forEach((name, value) -> html.append("<div><dt>").append(esc(name)).append("</dt><dd>").append(esc(value))
                .append("</dd></div>"));
        return new Html(html.toString());
    }

    private static Html failures(RunReport report) {
        if (report.tests().brokenCount() == 0) {
            return new Html("<p class=\"ok\">Every test passed or was skipped.</p>");
        }
        StringBuilder html = new StringBuilder("<ol class=\"failure-list\">\n");
        for (TestOutcome outcome : report.broken()) {
            html.append("<li class=\"failure\" data-id=\"").append(esc(outcome.id())).append("\"><h3>")
                    .append(statusBadge(outcome.status())).append(' ')
                    .append(esc(outcome.suite().map(s -> s + "/").orElse("") + outcome.name())).append("</h3>");
            timelineLink(html, report, outcome);
            html.append("\n<pre class=\"message\">").append(esc(outcome.message().orElse("(no message)")))
                    .append("</pre></li>\n");
        }
        html.append("</ol>");
        long unlisted = report.tests().brokenCount() - report.broken().size();
        if (unlisted > 0) {
            html.append("<p class=\"unlisted\">And ").append(unlisted).append(" more failed or aborted tests, not ")
                    .append("listed here in full: the results below show each with its message, and results.json ")
                    .append("lists them all.</p>");
        }
        return new Html(html.toString());
    }

    /** A link to the case's timelines, when they are drawn. */
    private static void timelineLink(StringBuilder html, RunReport report, TestOutcome outcome) {
        outcome.caseId().filter(caseId -> report.drawn(RunReport.caseKey(outcome.suite().orElseThrow(), caseId)))
                .ifPresent(caseId -> html.append(" <a class=\"timeline-link\" href=\"#")
                        .append(timelineId(outcome.suite().orElseThrow(), caseId)).append("\">timeline of ")
                        .append(esc(caseId)).append("</a>"));
    }

    private static Html filters(RunReport report) {
        StringBuilder html = new StringBuilder();
        select(html, "f-status", "Status", List.of("broken", "failed", "aborted", "skipped", "passed"),
                Map.of("broken", "failed or aborted"));
        select(html, "f-suite", "Suite", report.suites(), Map.of());
        select(html, "f-mode", "Mode", List.copyOf(report.tests().filterModes()), Map.of("gate", "gates"));
        select(html, "f-tag", "Tag", List.copyOf(report.tests().tags()), Map.of());
        return new Html(html.toString());
    }

    /**
     * Every test by suite, written as the suites are read back; a row's {@code data-test} is its index in the data
     * block's tests, which lists them in the same order ({@link ReportData}).
     */
    private static void suites(RunReport report, Writer out) throws IOException {
        int[] index = {0};
        for (TestLog.Suite group : report.tests().suites()) {
            String suite = group.name();
            long broken = group.broken();
            // a suite with a broken test is open; the others fold to one line until a filter finds something in them
            out.write("<details class=\"suite-group\" data-suite=\"" + esc(suite) + "\" data-broken=\"" + (broken > 0)
                    + '"' + (broken > 0 ? " open" : "") + "><summary><h3>" + esc(suite) + " <small>"
                    + (broken == 0 ? group.tests() + " tests, none broken" : broken + " of " + group.tests()
                    + " broken") + "</small></h3></summary>\n"
                    + "<div class=\"table-wrap\"><table class=\"results\"><thead><tr><th scope=\"col\">status"
                    + "</th><th scope=\"col\">test</th><th scope=\"col\">mode</th><th scope=\"col\" "
                    + "class=\"num\">duration</th><th scope=\"col\">message</th></tr></thead><tbody>\n");
            StringBuilder html = new StringBuilder();
            IOException[] failed = {null};
            report.tests().forEach(suite, test -> {
                html.setLength(0);
                html.append("<tr class=\"result\" data-test=\"").append(index[0]++).append("\" data-status=\"")
                        .append(test.status().wireName()).append("\" data-suite=\"").append(esc(suite))
                        .append("\"><td>").append(statusBadge(test.status())).append("</td><td>")
                        .append(esc(test.name()));
                if (test.broken()) {
                    timelineLink(html, report, test);
                }
                html.append("</td><td>").append(esc(test.mode())).append("</td><td class=\"num\">")
                        .append(Format.ms(test.durationMs())).append(" ms</td><td>");
                test.message().ifPresent(message -> html.append(test.broken() ? "<pre class=\"message\">"
                        + esc(message) + "</pre>" : esc(message)));
                html.append("</td></tr>\n");
                if (failed[0] == null) {
                    try {
                        out.append(html);
                    } catch (IOException e) {
                        failed[0] = e;
                    }
                }
            });
            if (failed[0] != null) {
                throw failed[0];
            }
            out.write("</tbody></table></div></details>\n");
        }
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

    private static Html timelines(RunReport report) {
        StringBuilder html = new StringBuilder();
        List<String> brokenCases = report.broken().stream().filter(o -> o.caseId().isPresent())
                .map(o -> RunReport.caseKey(o.suite().orElseThrow(), o.caseId().get())).distinct().toList();
        report.timelinesByCase().forEach((caseKey, turns) -> {
            TurnTimeline first = turns.values().iterator().next().values().iterator().next();
            boolean isBroken = brokenCases.contains(caseKey);
            html.append("<details class=\"timeline\" id=\"").append(timelineId(first.suiteId(), first.caseId()))
                    .append('"').append(isBroken ? " open" : "").append("><summary>").append(esc(caseKey))
                    .append(isBroken ? " " + statusBadge(TestOutcome.Status.FAILED) : "").append(" <small>")
                    .append(turns.size()).append(turns.size() == 1 ? " turn" : " turns").append("</small></summary>\n");
            turns.forEach((turn, modes) -> html.append(TurnFigures.turnFigure(turn, modes)));
            html.append("</details>\n");
        });
        return new Html(html.toString());
    }

    private static Html withheld(RunReport report) {
        if (report.withheld().isEmpty()) {
            return new Html("<p class=\"ok\">None in this run.</p>");
        }
        StringBuilder html = new StringBuilder("<ul>");
        for (TurnTimeline t : report.withheld()) {
            String caseKey = RunReport.caseKey(t.suiteId(), t.caseId());
            html.append("<li>").append(report.drawn(caseKey) ? "<a href=\"#" + timelineId(t.suiteId(), t.caseId())
                    + "\">" + esc(caseKey) + "</a>" : esc(caseKey)).append(" turn ")
                    .append(t.turnIndex() + 1).append(" (").append(t.mode().wireName()).append("): first visible ")
                    .append("character at ").append(t.firstVisibleMs().map(ms -> Format.ms(ms) + " ms")
                            .orElse("never")).append(", ").append(esc(TurnFigures.timingWord(t))).append("</li>");
        }
        html.append("</ul>");
        long unlisted = report.turns().withheldCount() - report.withheld().size();
        if (unlisted > 0) {
            html.append("<p class=\"unlisted\">And ").append(unlisted).append(" more turns; metrics.json marks each ")
                    .append("(visibleWithheldUntilToolCalls).</p>");
        }
        return new Html(html.toString());
    }

    private static Html measures(RunReport report) {
        boolean modelled = report.modelledNote().isPresent();
        StringBuilder html = new StringBuilder();
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
        return new Html(html.toString());
    }

    private static Html charts(RunReport report) {
        boolean modelled = report.modelledNote().isPresent();
        StringBuilder html = new StringBuilder();
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
                html.append(costHint(report.metadata().models()));
            } else {
                html.append(SvgCharts.barChart("chart-" + unit.name().toLowerCase(Locale.ROOT), chartText(unit)[1],
                        unit, comparisons.stream().map(c -> new SvgCharts.Bars(c.metric().label()
                                + (modelled && c.metric().isTiming() ? " (model)" : ""), c.dual(), c.tools()))
                                .toList()));
            }
            html.append("</figure>\n");
        });
        return new Html(html.toString());
    }

    /** The cost chart's place when no price was known: how to configure one, never a zero. */
    private static String costHint(List<String> models) {
        return "<div class=\"empty-box\" id=\"chart-usd\"><p><strong>No cost figures.</strong> No pricing catalog was "
                + "configured, and an unpriced call is never counted as zero. Point <code>agentlab.pricing.file</code> "
                + "at a pricing catalog for the models this run used (" + esc(String.join(", ", models)) + "): "
                + "<code>-Dagentlab.pricing.file=prices.json</code>, or <code>agentlab run --config "
                + "agentlab.pricing.file=prices.json</code>. The format (USD per token, tiers by prompt tokens) is in "
                + "docs/runtime.md, \"Usage and cost\":</p><pre>" + esc("{\"models\": {\"" + models.stream()
                .findFirst().orElse("gpt-4o-mini") + "\": {\"tiers\": [{\"max_prompt_tokens\": null,\n"
                + "  \"input_cost_per_token\": 0.00000015, \"output_cost_per_token\": 0.0000006}]}}}") + "</pre></div>";
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

    private static Html control(RunReport report) {
        if (report.matrix().isEmpty()) {
            return new Html("<p>The control turns did not run (<code>agentlab.report.control=false</code>, or a live "
                    + "provider).</p>\n");
        }
        int all = report.matrix().stream().mapToInt(ControlMatrix.Cell::events).max().orElse(0);
        List<SvgCharts.Bars> tokens = new ArrayList<>();
        List<SvgCharts.Bars> ttft = new ArrayList<>();
        for (int events : report.matrix().stream().map(ControlMatrix.Cell::events).distinct().toList()) {
            String label = events == 0 ? "no event enabled" : events + " events enabled";
            tokens.add(new SvgCharts.Bars(label, scalar(cell(report, InvocationMode.DUAL_AGENT, events)
                    .map(ControlMatrix.Cell::promptTokensPerTurn)), scalar(cell(report,
                    InvocationMode.CHAT_AGENT_TOOLS, events).map(ControlMatrix.Cell::promptTokensPerTurn))));
            ttft.add(new SvgCharts.Bars(label + " (model)", cell(report, InvocationMode.DUAL_AGENT, events)
                    .map(c -> (Figure) c.firstVisibleTtftMs()).orElse(null), cell(report,
                    InvocationMode.CHAT_AGENT_TOOLS, events).map(c -> (Figure) c.firstVisibleTtftMs()).orElse(null)));
        }
        return new Html("<p>The same " + ControlMatrix.DATASET.size() + " small-talk turns in each mode with every "
                + "event disabled and with all " + all + " offered events enabled "
                + "(docs/design.md#metrics-control-matrix): only the capability context differs. Their times are the "
                + "latency model's.</p>\n<div class=\"charts\"><figure class=\"chart\"><figcaption>ChatAgent prompt "
                + "tokens per turn</figcaption>"
                + SvgCharts.barChart("chart-matrix-tokens", "tokens per turn", Metric.Unit.TOKENS, tokens)
                + "</figure><figure class=\"chart\"><figcaption>First-visible TTFT, latency model (bar: p50, whisker: "
                + "p95)</figcaption>"
                + SvgCharts.barChart("chart-matrix-ttft", "milliseconds (latency model)", Metric.Unit.MS, ttft)
                + "</figure></div>\n");
    }

    private static Optional<ControlMatrix.Cell> cell(RunReport report, InvocationMode mode, int events) {
        return report.matrix().stream().filter(c -> c.mode() == mode && c.events() == events).findFirst();
    }

    private static Figure scalar(Optional<Double> value) {
        return value.<Figure>map(v -> new Figure.Scalar(v, Samples.NONE, null, null)).orElse(null);
    }

    private static Html history(RunReport report) {
        StringBuilder html = new StringBuilder();
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
                    .append("<th scope=\"col\">measure</th><th scope=\"col\" class=\"num\">before</th>")
                    .append("<th scope=\"col\" class=\"num\">now</th><th scope=\"col\" class=\"num\">change</th>")
                    .append("<th scope=\"col\"></th></tr></thead><tbody>\n");
            for (History.Move move : history.changed()) {
                html.append("<tr class=\"").append(move.direction()).append("\"><td>").append(move.mode())
                        .append("</td><td>").append(esc(move.metric().label())).append("</td><td class=\"num\">")
                        .append(esc(Format.value(move.metric(), move.before()))).append("</td><td class=\"num\">")
                        .append(esc(Format.value(move.metric(), move.after()))).append("</td><td class=\"num\">")
                        .append(MarkdownReport.change(move)).append("</td><td>").append(esc(move.describe()))
                        .append("</td></tr>\n");
            }
            html.append("</tbody></table></div>\n");
        }
        return new Html(html.toString());
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

    /** The id of a case's timeline: {@code tl-<suite>--<case>}, only characters an id and a fragment keep as is. */
    static String timelineId(String suite, String caseId) {
        return ("tl-" + suite + "--" + caseId).replaceAll("[^A-Za-z0-9_-]", "_");
    }
}
