package io.agentlab.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentlab.report.metrics.Metric;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * What the reports of a run with one deliberately broken case say, read from the files (jsoup for the page):
 * results first with the failure's message and a link to its timeline, every test under a filter, timelines whose
 * moments keep the order the runtime guarantees, modelled timings labelled, the withheld turn listed, the comparison
 * with units, direction and a verdict, the cost box's hint, run metadata and what moved.
 */
class ReportContentTest {

    private static ReportFixture.Run run;
    private static Document page;

    @BeforeAll
    static void load() throws IOException {
        run = ReportFixture.get();
        page = Jsoup.parse(Files.readString(run.html()));
    }

    @Test
    @DisplayName("the run fails exactly the broken case, in both modes")
    void theBrokenCaseFails() {
        run.results().testEvents().assertStatistics(stats -> stats.failed(2));
        assertThat(run.results().testEvents().failed().stream().map(e -> e.getTestDescriptor().getDisplayName()))
                .containsExactlyInAnyOrder("deliberately-broken [dual_agent]", "deliberately-broken [chat_agent_tools]");
    }

    @Test
    @DisplayName("the answer, then the failures, each with its whole message and a link to its open timeline")
    void failuresFirst() {
        Element main = page.selectFirst("main");
        assertThat(main.child(0).id()).isEqualTo("answer");
        assertThat(main.child(0).select("li.family")).extracting(li -> li.attr("data-family"))
                .as("the sample suites compare speed (modelled), tokens, calls, accuracy").contains("speed", "tokens");
        assertThat(main.child(1).id()).isEqualTo("failures");
        List<Element> failures = page.select("#failures li.failure");
        assertThat(failures).extracting(li -> li.selectFirst("h3").text()).containsExactlyInAnyOrder(
                "failed report/deliberately-broken [dual_agent]", "failed report/deliberately-broken [chat_agent_tools]");
        for (Element failure : failures) {
            assertThat(failure.selectFirst("pre.message").text()).contains("deliberately-broken", "35");
            String target = failure.selectFirst("a.timeline-link").attr("href");
            assertThat(target).isEqualTo("#tl-report--deliberately-broken");
            Element timeline = page.getElementById(target.substring(1));
            assertThat(timeline).isNotNull();
            assertThat(timeline.hasAttr("open")).as("a broken case's timeline is open").isTrue();
        }
        assertThat(page.title()).startsWith("2 broken");
    }

    @Test
    @DisplayName("every test is listed once, its suite's broken rows first, with the filter's data")
    void everyTestListed() {
        long tests = run.results().testEvents().finished().count() + run.results().testEvents().skipped().count();
        List<Element> rows = page.select("tr.result");
        assertThat(rows).hasSize((int) tests);
        assertThat(rows.get(0).attr("data-status")).isEqualTo("failed");
        assertThat(rows).allSatisfy(row -> assertThat(row.attr("data-suite")).isEqualTo("report"));
        assertThat(page.select("#f-tag option")).extracting(Element::val).contains("", "broken-on-purpose", "smoke");
        assertThat(page.select("#f-mode option")).extracting(Element::val)
                .contains("dual_agent", "chat_agent_tools", "parity");
        assertThat(page.select("#f-status option")).extracting(Element::val).contains("broken", "passed");
        assertThat(page.selectFirst("label:has(#filter)")).as("the search box has a label").isNotNull();
        assertThat(page.getElementById("filter-count").attr("aria-live")).isEqualTo("polite");
    }

    /**
     * The script filters by the data block, not by the rows' markup (the browser test runs it): so the block itself
     * is checked here, row by row (docs/engine.md#html-report).
     */
    @Test
    @DisplayName("the page's data block lists each row's test: status, suite, name, message and timeline agree")
    void dataBlockMatchesRows() {
        JsonNode data = JsonMapper.builder().build().readTree(page.getElementById("agentlab-data").data());
        List<Element> rows = page.select("tr.result");
        assertThat(data.path("tests")).hasSize(rows.size());
        for (Element row : rows) {
            JsonNode test = data.path("tests").get(Integer.parseInt(row.attr("data-test")));
            assertThat(test.path("status").asString()).isEqualTo(row.attr("data-status"));
            assertThat(test.path("suite").asString(data.path("gates").asString())).isEqualTo(row.attr("data-suite"));
            assertThat(row.child(1).text()).startsWith(test.path("name").asString());
            assertThat(row.child(2).text()).isEqualTo(test.path("mode").asString());
            assertThat(row.child(4).wholeText()).isEqualTo(test.path("message").asString(""));
        }
        assertThat(data.path("tests").findValuesAsString("mode")).contains("dual_agent", "chat_agent_tools",
                "parity");
        assertThat(data.path("counts").path("failed").asLong()).isEqualTo(2);
        assertThat(data.path("run").path("provider").asString()).isEqualTo("recorded");
    }

    @Test
    @DisplayName("a timeline's moments keep the order the runtime takes its steps in, in both lanes")
    void timelineOrder() {
        Element figure = page.selectFirst("#tl-report--weather-follow-up figure.turn");
        assertThat(figure.select("svg g.lane")).hasSize(2);
        for (String mode : List.of("dual_agent", "chat_agent_tools")) {
            Map<String, double[]> moments = moments(figure, mode);
            double firstVisible = moments.get("first visible character")[0];
            double answerEnd = moments.get("first answer end")[0];
            double[] event = moments.entrySet().stream().filter(e -> e.getKey().endsWith(" knowledge.web.search"))
                    .findFirst().orElseThrow().getValue();
            double[] followUp = moments.get("follow-up");
            double turnEnd = moments.get("turn end")[0];
            assertThat(firstVisible).as(mode).isLessThanOrEqualTo(answerEnd);
            assertThat(answerEnd).as(mode + ": dispatched after the first answer").isLessThanOrEqualTo(event[0]);
            assertThat(event[1]).as(mode + ": the follow-up answers the result").isLessThanOrEqualTo(followUp[0]);
            assertThat(followUp[0]).isLessThanOrEqualTo(followUp[1]);
            assertThat(followUp[1]).isLessThanOrEqualTo(turnEnd);
            assertThat(moments).containsKeys("chat call", "follow_up call");
        }
        assertThat(page.select("#tl-report--reminder-needs-fallback tr td:eq(1)")).extracting(Element::text)
                .contains("event_agent call");
    }

    /** The clause this checks: {@code docs/design.md#metrics-measured-not-assumed}. */
    @Test
    @DisplayName("synthesized streams are labelled the latency model: lanes (the kit's own time measured), measures "
            + "and axis")
    void modelledLabelled() {
        assertThat(page.select("#tl-report--set-to-thirty .lane-title")).extracting(Element::text)
                .allSatisfy(title -> assertThat(title).contains("provider latency modelled, the kit's time measured"));
        assertThat(page.select("#tl-report--set-to-thirty .axis-title").text()).contains("provider latency modelled");
        for (Element row : page.select("#measures tbody tr")) {
            boolean timing = Metric.byKey(row.attr("data-metric")).orElseThrow().isTiming();
            assertThat(row.select(".badge.model").isEmpty()).as(row.attr("data-metric")).isEqualTo(!timing);
        }
        assertThat(page.selectFirst("#comparison .modelled").text()).contains("latency model");
    }

    @Test
    @DisplayName("a provider that withheld its text until after its tool call is listed, not hidden in a rate")
    void withheldListed() {
        assertThat(page.select("#withheld li")).singleElement().extracting(Element::text).asString()
                .startsWith("report/tools-before-text turn 1 (chat_agent_tools): first visible character at ")
                .endsWith("ms, provider latency modelled, the kit's time measured");
        assertThat(page.select("#tl-report--tools-before-text .lane-title").text()).contains("withheld");
    }

    @Test
    @DisplayName("the comparison: every shown measure with unit, better direction, both figures, ratio and verdict")
    void comparison() {
        List<Element> rows = page.select("#measures tbody tr");
        assertThat(rows).extracting(row -> row.attr("data-metric"))
                .containsExactlyElementsOf(Metric.shownMetrics().stream().map(Metric::key).toList());
        for (Element row : rows) {
            Metric metric = Metric.byKey(row.attr("data-metric")).orElseThrow();
            assertThat(row.child(1).text()).as(metric.key()).startsWith(metric.unit().symbol());
            assertThat(row.child(2).text()).as(metric.key()).isEqualTo(switch (metric.better()) {
                case LOWER -> "↓ lower";
                case HIGHER -> "↑ higher";
                case NEITHER -> "–";
            });
            assertThat(row.child(6).text()).as(metric.key()).isNotBlank();
        }
        assertThat(page.selectFirst("#comparison p").text()).contains("Mann-Whitney", "p < 0.01");
        Element tokens = rows.stream().filter(r -> r.attr("data-metric").equals("chatPromptTokensPerTurn")).findFirst()
                .orElseThrow();
        assertThat(tokens.child(5).text()).as("tools ÷ dual").matches("[0-9]+\\.[0-9]{2}×");
        for (String chart : List.of("chart-ms", "chart-tokens", "chart-calls", "chart-rate", "chart-matrix-tokens",
                "chart-matrix-ttft", "chart-growth")) {
            Element svg = page.getElementById(chart);
            assertThat(svg).as(chart).isNotNull();
            assertThat(svg.select("desc").text()).as(chart + " has a text alternative").isNotBlank();
            assertThat(svg.select(".axis-title").text()).as(chart + " names its axis").isNotBlank();
        }
    }

    @Test
    @DisplayName("without prices the cost box says how to configure them, never shows zero")
    void costHint() {
        Element box = page.getElementById("chart-usd");
        assertThat(box.hasClass("empty-box")).isTrue();
        assertThat(box.text()).contains("agentlab.pricing.file", "never counted as zero", "gpt-4o-mini",
                "input_cost_per_token");
    }

    @Test
    @DisplayName("run metadata, what moved against the previous run, and a page that needs no network")
    void metadataHistoryAndSelfContained() throws IOException {
        Map<String, String> meta = new LinkedHashMap<>();
        page.select("#run-metadata div").forEach(div -> meta.put(div.selectFirst("dt").text(), div.selectFirst("dd").text()));
        assertThat(meta).containsKeys("started", "finished", "kit version", "commit", "provider", "replay speed",
                "modes", "machine");
        assertThat(meta.get("kit version")).isNotEqualTo("unknown").doesNotContain("${");
        assertThat(meta.get("provider")).isEqualTo("recorded");
        assertThat(meta.get("replay speed")).isEqualTo("0.5");
        assertThat(page.select("#history h3").text()).contains("previous run", "commit 0123456789ab");
        assertThat(page.select("#history tr.worse")).extracting(tr -> tr.child(0).text() + " " + tr.child(1).text())
                .contains("dual_agent ChatAgent prompt tokens per turn", "dual_agent EventAgent fallback rate");
        assertThat(page.select("script[src], link[href], img[src], iframe, object")).as("no external asset").isEmpty();
        assertThat(page.select("meta[name=viewport]")).isNotEmpty();
        JsonNode metrics = JsonMapper.builder().build().readTree(Files.readString(run.metrics()));
        assertThat(metrics.path("run").path("kitVersion").asString()).isEqualTo(meta.get("kit version"));
        assertThat(metrics.path("turns").findValuesAsString("timing")).containsOnly("modelled");
    }

    @Test
    @DisplayName("the console: 100 columns, the answer first, units, one number format per unit, the model footnote")
    void consoleTable() {
        String console = run.console();
        assertThat(console).contains("Agent Lab conformance: 13 tests: 11 passed, 2 failed", "FAILED report/"
                + "deliberately-broken [", "1 turn(s) where the provider withheld visible content");
        List<String> lines = console.lines().toList();
        assertThat(lines).as("every line fits 100 columns (details in the report)")
                .allSatisfy(line -> assertThat(line.length()).as(line).isLessThanOrEqualTo(100));
        int results = lines.indexOf(lines.stream().filter(l -> l.startsWith("Agent Lab conformance: ")).findFirst()
                .orElseThrow());
        assertThat(lines.get(results + 1)).as("the answer right after the results").startsWith("answer: ");
        assertThat(console).contains("cost: no figure; point agentlab.pricing.file at a pricing catalog");
        int header = lines.indexOf(lines.stream().filter(l -> l.startsWith("measure")).findFirst().orElseThrow());
        assertThat(lines.get(header)).contains("measure [unit]", "dual_agent", "chat_agent_tools", "tools/dual",
                "verdict");
        Pattern ms = Pattern.compile("  (-|[0-9]+\\.[0-9] / [0-9]+\\.[0-9])  ");
        List<String> timingRows = new ArrayList<>();
        for (String line : lines.subList(header + 2, lines.size())) {
            if (line.contains(" [ms p50/p95] ")) {
                timingRows.add(line);
                assertThat(line).as("a timing row from the latency model is starred").contains(" * ");
                Matcher matcher = ms.matcher(line);
                assertThat(matcher.find()).as("p50 / p95 with one decimal: " + line).isTrue();
            }
            if (line.contains(" [%] ")) {
                assertThat(line).as("rates as percentages with one decimal")
                        .matches(".*  (-|[0-9]+\\.[0-9]%) +(-|[0-9]+\\.[0-9]%)  .*");
            }
        }
        assertThat(timingRows).hasSize((int) Metric.shownMetrics().stream().filter(Metric::isTiming).count());
        assertThat(console).containsPattern("\\* timings of [0-9]+ of 9 turns come from the latency model");
        assertThat(console).contains("Mann-Whitney");
    }

    @Test
    @DisplayName("report.md: results first, the failure's message and timeline, then every test by suite")
    void markdown() throws IOException {
        String markdown = Files.readString(run.markdown());
        assertThat(markdown.indexOf("## Failures")).isLessThan(markdown.indexOf("## Results by suite"));
        assertThat(markdown.indexOf("## Results by suite")).isLessThan(markdown.indexOf("## Mode comparison"));
        assertThat(markdown).contains("### report/deliberately-broken [dual_agent] — failed",
                "Turn 1: \"set the volume to 30\" (ms from the turn's start)", "| failed | deliberately-broken",
                "## Visible content withheld until after tool calls", "report/tools-before-text turn 1",
                "Against previous run");
    }

    /** The "as a table" rows of one lane: what → [from, to]. */
    private static Map<String, double[]> moments(Element figure, String mode) {
        Map<String, double[]> moments = new LinkedHashMap<>();
        for (Element row : figure.select("details.as-table tbody tr")) {
            if (!row.child(0).text().equals(mode)) {
                continue;
            }
            double from = Double.parseDouble(row.child(2).text());
            String to = row.child(3).text();
            moments.put(row.child(1).text(), new double[] {from, to.isEmpty() ? from : Double.parseDouble(to)});
        }
        return moments;
    }
}
