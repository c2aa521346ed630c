package io.agentlab.report.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.agentlab.report.RunMetadata;
import io.agentlab.report.TestOutcome;
import io.agentlab.kernel.api.InvocationMode;
import io.agentlab.report.internal.ReportTemplate.Html;
import io.agentlab.report.metrics.TurnRecord;
import io.agentlab.report.metrics.TurnTimeline;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The page's assembly without a run: hostile suite names, case ids and messages stay text in the markup and in the
 * data block, the data block cannot be closed from inside a string, and the template's holes are filled exactly
 * once each (docs/engine.md#html-report).
 */
class HtmlReportTest {

    /** Closes the data block, opens a script, and carries the two characters JavaScript reads as line ends. */
    static final String HOSTILE = "expected 35, got 30 </script><script>alert(1)</script> <!-- \u2028\u2029 {{title}}"
            + " & \"quoted\" <b>bold</b>";
    static final String SUITE = "s\"><img src=x onerror=alert(2)>";
    static final String CASE = "c</script><script>alert(3)</script>";

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Test
    @DisplayName("hostile names and messages are text: no element, script or attribute comes from them")
    void hostileStringsStayText() {
        Document page = Jsoup.parse(HtmlReport.render(report()));

        assertThat(page.select("script")).as("the data block and the page's script, nothing else").hasSize(2);
        assertThat(page.select("img, b, script[src], [onerror]")).isEmpty();
        Element failure = page.selectFirst("#failures li.failure");
        assertThat(failure.selectFirst("pre.message").wholeText()).isEqualTo(HOSTILE);
        assertThat(failure.selectFirst("h3").text()).isEqualTo("failed " + SUITE + "/" + CASE + " [dual_agent]");
        assertThat(failure.selectFirst("a.timeline-link").attr("href")).matches("#tl-[A-Za-z0-9_-]+");
        assertThat(page.select("tr.result")).extracting(row -> row.attr("data-suite")).containsExactly(SUITE,
                RunReport.GATES);
        assertThat(page.title()).isEqualTo("1 broken · Agent Lab conformance, 2 tests");
    }

    @Test
    @DisplayName("the data block holds every row's test as written, and no character that ends or breaks a script")
    void dataBlock() {
        String html = HtmlReport.render(report());
        Element block = Jsoup.parse(html).getElementById("agentlab-data");
        String raw = block.data();

        assertThat(raw).doesNotContain("</", "<!--", "\u2028", "\u2029", "<", ">", "&");
        JsonNode data = JSON.readTree(raw);
        assertThat(data.path("format").asInt()).isEqualTo(ReportData.FORMAT);
        assertThat(data.path("counts").path("failed").asLong()).isEqualTo(1);
        JsonNode broken = data.path("tests").get(0);
        assertThat(broken.path("message").asString()).isEqualTo(HOSTILE);
        assertThat(broken.path("suite").asString()).isEqualTo(SUITE);
        assertThat(broken.path("name").asString()).isEqualTo(CASE + " [dual_agent]");
        assertThat(broken.path("status").asString()).isEqualTo("failed");
        assertThat(broken.path("tags")).extracting(JsonNode::asString).containsExactly("smoke");
        JsonNode gate = data.path("tests").get(1);
        assertThat(gate.has("suite")).as("a gate belongs to no suite").isFalse();
        assertThat(gate.has("message")).isFalse();
        assertThat(gate.path("kind").asString()).isEqualTo("gate");
        assertThat(data.path("gates").asString()).isEqualTo(RunReport.GATES);
    }

    @Test
    @DisplayName("seeded: Jackson's JSON put in the block as is lets the message close it and run a script")
    void unescapedJsonBreaksOut() {
        String naive = JSON.writeValueAsString(Map.of("message", HOSTILE));
        Document page = Jsoup.parse("<script type=\"application/json\" id=\"agentlab-data\">" + naive + "</script>");

        assertThat(page.select("script")).as("the message opened a script of its own").hasSizeGreaterThan(1);
        assertThat(ReportData.scriptSafe(naive)).doesNotContain("</script>", "\u2028");
        assertThat(JSON.readTree(ReportData.scriptSafe(naive)).path("message").asString()).isEqualTo(HOSTILE);
    }

    @Test
    @DisplayName("the template: a text is escaped, a fragment is not, filled values are never read for holes")
    void templateFill() {
        ReportTemplate template = new ReportTemplate("t", "<p title=\"{{a}}\">{{a}}</p>{{{b}}}");
        assertThat(template.fill(Map.of("a", "<i>\"{{b}}\"</i>", "b", new Html("<hr>"))))
                .isEqualTo("<p title=\"&lt;i&gt;&quot;{{b}}&quot;&lt;/i&gt;\">"
                        + "&lt;i&gt;&quot;{{b}}&quot;&lt;/i&gt;</p><hr>");
        assertThat(template.fill(Map.of("a", 35, "b", new Html("")))).isEqualTo("<p title=\"35\">35</p>");

        String css = ReportTemplate.resource("report.css");
        assertThat(ReportTemplate.resource("report.js")).contains("agentlab-data", "data-report-ready");
        assertThat(HtmlReport.render(report())).contains("<style>" + css + "</style>", "<title>1 broken ·");
    }

    @Test
    @DisplayName("seeded: a text in a fragment's hole, a fragment in a text's hole, a missing or unused value throw")
    void templateMisuse() {
        ReportTemplate template = new ReportTemplate("t", "{{a}}{{{b}}}");
        assertThatThrownBy(() -> template.fill(Map.of("a", "x", "b", "<b>unescaped</b>")))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("takes an Html fragment");
        assertThatThrownBy(() -> template.fill(Map.of("a", new Html("<b>"), "b", new Html(""))))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("takes a text");
        assertThatThrownBy(() -> template.fill(Map.of("a", "x"))).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("no value for {{{b}}}");
        assertThatThrownBy(() -> template.fill(Map.of("a", "x", "b", new Html(""), "c", "y")))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("no hole for [c]");
        assertThatThrownBy(() -> new ReportTemplate("t", "{{{a}}").fill(Map.of("a", "x")))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("unbalanced");
        assertThatThrownBy(() -> ReportTemplate.resource("missing.html")).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("missing.html");
    }

    /** One broken test with hostile names and message, and one passing gate. */
    static RunReport report() {
        RunMetadata meta = new RunMetadata(Instant.EPOCH, Instant.EPOCH.plusSeconds(1), "0.1-test", Optional.empty(),
                "recorded", 0.0, List.of("dual_agent"), List.of("gpt-4o-mini"), "a <kernel>", "a machine",
                "whole suites");
        TestOutcome broken = new TestOutcome("[engine:agentlab-conformance]/[suite:x]/[case:y]/[mode:dual_agent]",
                "mode", Optional.of(SUITE), Optional.of(CASE), "dual_agent", CASE + " [dual_agent]",
                List.of("smoke"), TestOutcome.Status.FAILED, 12.5, Optional.of(HOSTILE));
        TestOutcome gate = new TestOutcome("[engine:agentlab-conformance]/[gate:g]", "gate", Optional.empty(),
                Optional.empty(), "", "a gate", List.of(), TestOutcome.Status.PASSED, 1, Optional.empty());
        // the broken case's one turn, so its timeline is drawn and linked
        TurnTimeline turn = new TurnTimeline(SUITE, CASE, 0, HOSTILE, InvocationMode.DUAL_AGENT,
                TurnRecord.Timing.MODELLED, 10, Optional.of(2.0), 5, Optional.empty(), Optional.empty(),
                Optional.empty(), List.of(), List.of(), false, Optional.empty());
        return new RunReport(meta, List.of(broken, gate), List.of(), List.of(turn), List.of(), List.of(), Map.of(),
                List.of());
    }
}
