package io.agentlab.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectFile;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.assertj.core.data.Offset;
import io.agentlab.report.controls.CapabilityGrowth;
import io.agentlab.report.metrics.Metric;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.reporting.FileEntry;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.EventType;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code metrics.json} counts as the fair-comparison contract says: fallback calls are their own rows with their own
 * tokens, deduplicated clones count for nothing, selection is judged against the expected events, and call TTFT and
 * visible TTFT are separate measures.
 */
class MetricsReportTest {

    private static final String SUITE = """
            id: metrics
            title: Metrics sample
            kernel: {events: [calendar.schedule.create, device.volume.adjust]}
            session: {timezone: Asia/Shanghai, clock: "2026-11-30T09:00:00+08:00"}
            cases:
              - id: reminder-needs-fallback
                clause: docs/design.md#plugin-schedule-fallback the EventAgent fallback fills a missing title
                turns:
                  - user: remind me tomorrow at 9am
                    replyByMode:
                      dual_agent: {visible: "Sure, I'll remind you.", events: [{name: calendar.schedule.create}]}
                      chat_agent_tools:
                        visible: "Sure, I'll remind you."
                        events:
                          - name: calendar.schedule.create
                            arguments: {date: "2026-12-01", time: "09:00", timezone: Asia/Shanghai}
                    eventAgent: {title: Reminder}
                    expect:
                      events: [{name: calendar.schedule.create, arguments: {title: Reminder}, status: succeeded}]
                      calls: {chat: 1, eventAgent: 1, followUp: 0}
              - id: same-level-twice
                clause: docs/design.md#batch-duplicates-coalesced exact duplicates execute once
                turns:
                  - user: set the volume to 30
                    reply:
                      visible: Thirty.
                      events:
                        - {name: device.volume.adjust, arguments: {mode: absolute, value: 30}}
                        - {name: device.volume.adjust, arguments: {mode: absolute, value: 30}}
                    expect:
                      events:
                        - {name: device.volume.adjust, status: succeeded}
                        - {name: device.volume.adjust, status: deduplicated}
                      portCalls: {device.volume.adjust: 1}
            """;

    @TempDir
    static Path temp;
    private static EngineExecutionResults results;
    private static JsonNode metrics;

    /** $1 per million prompt tokens and $2 per million completion tokens for the suites' default model. */
    private static final String PRICES = """
            {"models": {"gpt-4o-mini": {"tiers": [
              {"max_prompt_tokens": null, "input_cost_per_token": 0.000001, "output_cost_per_token": 0.000002}]}}}
            """;

    @BeforeAll
    static void run() throws IOException {
        Path file = Files.writeString(temp.resolve("metrics.suite.yaml"), SUITE);
        Path prices = Files.writeString(temp.resolve("prices.json"), PRICES);
        results = EngineTestKit.engine(ConformanceTestEngine.ENGINE_ID).selectors(selectFile(file.toFile()))
                .configurationParameter(Constants.REPLAY_SPEED, "0")
                .configurationParameter(Constants.PRICING_FILE, prices.toString())
                .outputDirectoryCreator(new TempOutputDirectories(temp.resolve("out"))).execute();
        metrics = metricsOf(results);
    }

    /** The published file named {@code name}. */
    static Path published(EngineExecutionResults results, String name) {
        return results.allEvents().stream().filter(event -> event.getType() == EventType.FILE_ENTRY_PUBLISHED)
                .map(event -> event.getRequiredPayload(FileEntry.class).getPath())
                .filter(path -> path.getFileName().toString().equals(name)).findFirst().orElseThrow();
    }

    /**
     * The clause this checks: {@code docs/design.md#metrics-control-matrix} (the control matrix: 2 modes × events
     * disabled and enabled).
     */
    @Test
    @DisplayName("index.html is self-contained: every chart inline SVG, the measures table complete, no network asset")
    void htmlReport() throws IOException {
        Document page = Jsoup.parse(Files.readString(published(results, "index.html")));
        for (String chart : List.of("chart-ms", "chart-tokens", "chart-calls", "chart-usd", "chart-rate",
                "chart-matrix-tokens", "chart-matrix-ttft", "chart-growth")) {
            assertThat(page.getElementById(chart)).as(chart).isNotNull();
            assertThat(page.getElementById(chart).tagName()).isEqualTo("svg");
        }
        assertThat(page.select("script[src], link[href], img[src]")).as("no external asset").isEmpty();
        assertThat(page.select("#measures tbody tr")).hasSize(Metric.shownMetrics().size());
        for (String mode : List.of("dual_agent", "chat_agent_tools")) {
            long measured = Metric.shownMetrics().stream().filter(Metric::isTiming)
                    .filter(m -> metrics.path("modes").path(mode).path(m.key()).path("p50").isNumber()).count();
            assertThat(page.select("#chart-ms rect." + mode)).as("a p50 bar per measured timing").hasSize((int) measured);
        }
        assertThat(page.select("#chart-matrix-tokens rect.dual_agent, #chart-matrix-tokens rect.chat_agent_tools"))
                .as("2 modes × 2 settings").hasSize(4);
        String[] points = page.selectFirst("#chart-growth polyline.chat_agent_tools").attr("points").split(" ");
        assertThat(points).as("0..50 enabled events").hasSize(51);
        String markdown = Files.readString(published(results, "report.md"));

        assertThat(markdown).contains("| dual_agent | 0 |", "| chat_agent_tools | 4 |", "## Capability growth",
                "| first-visible TTFT * | ms p50/p95 | lower |");
    }

    /** The clause this checks: {@code docs/design.md#metrics-capability-growth}. */
    @Test
    @DisplayName("capability growth: tools-mode prompt tokens grow faster with every enabled event than dual_agent's")
    void capabilityGrowth() {
        List<CapabilityGrowth.Point> points = CapabilityGrowth.measure(List.of(), 10, "gpt-4o-mini", "You are Pip.");
        assertThat(points).hasSize(11);
        for (int i = 1; i < points.size(); i++) {
            int dualStep = points.get(i).dualAgent() - points.get(i - 1).dualAgent();
            int toolsStep = points.get(i).chatAgentTools() - points.get(i - 1).chatAgentTools();
            assertThat(dualStep).as("a catalog line costs tokens").isPositive();
            assertThat(toolsStep).as("a tool schema costs more than a catalog line").isGreaterThan(dualStep);
        }
    }

    private static JsonNode metricsOf(EngineExecutionResults results) throws IOException {
        List<FileEntry> files = results.allEvents().stream()
                .filter(event -> event.getType() == EventType.FILE_ENTRY_PUBLISHED)
                .map(event -> event.getRequiredPayload(FileEntry.class)).toList();
        assertThat(files).extracting(entry -> entry.getPath().getFileName().toString())
                .containsExactly("metrics.json", "report.md", "index.html");
        assertThat(files.get(0).getMediaType()).contains("application/json");
        return JsonMapper.builder().build().readTree(Files.readString(files.get(0).getPath()));
    }

    @Test
    @DisplayName("every case passes in both modes and in parity")
    void passes() {
        results.testEvents().assertStatistics(stats -> stats.started(6).succeeded(6));
    }

    /**
     * The clauses this checks: {@code docs/design.md#metrics-per-mode}, {@code docs/design.md#metrics-accuracy},
     * {@code docs/design.md#usage-logical-executions}, {@code docs/design.md#usage-ttft-kinds},
     * {@code docs/design.md#usage-protocol-overhead-counted}, {@code docs/design.md#metrics-measured-not-assumed}.
     */
    @Test
    @DisplayName("fallback calls are their own rows; clones do not inflate logical events")
    void fairCounting() {
        for (String mode : List.of("dual_agent", "chat_agent_tools")) {
            JsonNode m = metrics.path("modes").path(mode);
            assertThat(m.path("turns").asInt()).as(mode).isEqualTo(2);
            assertThat(m.path("logicalEvents").asInt()).as(mode + ": the deduplicated clone is not an event").isEqualTo(2);
            assertThat(m.path("fallbackCalls").asInt()).as(mode).isEqualTo(1);
            assertThat(m.path("fallbackTokens").asLong()).as(mode + ": the fallback's own tokens").isPositive();
            assertThat(m.path("fallbackRate").asDouble()).as(mode).isEqualTo(0.5);
            assertThat(m.path("deterministicHitRate").asDouble()).as(mode).isEqualTo(0.5);
            assertThat(m.path("llmCallsPerTurn").asDouble()).as(mode + ": (2 + 1) calls over 2 turns").isEqualTo(1.5);
            assertThat(m.path("selectionPrecision").asDouble()).as(mode).isEqualTo(1.0);
            assertThat(m.path("selectionRecall").asDouble()).as(mode).isEqualTo(1.0);
            assertThat(m.path("multiEventRecall").asDouble()).as(mode).isEqualTo(1.0);
            assertThat(m.path("executionSuccessRate").asDouble()).as(mode).isEqualTo(1.0);
            assertThat(m.path("firstVisibleTtftMs").path("samples").asInt()).isEqualTo(2);
            assertThat(m.path("chatCallTtftMs").path("samples").asInt()).as("call TTFT kept apart").isEqualTo(2);
            double chatCost = m.path("chatPromptTokens").asLong() * 0.000001
                    + m.path("chatCompletionTokens").asLong() * 0.000002;
            assertThat(m.path("cost").decimalValue().doubleValue()).as(mode + ": ChatAgent calls plus the fallback's")
                    .isGreaterThan(chatCost);
            assertThat(m.path("costPerSuccessfulEvent").decimalValue().doubleValue()).as(mode + ": two events succeeded")
                    .isCloseTo(m.path("cost").decimalValue().doubleValue() / 2, Offset.offset(1e-8));
        }
        assertThat(metrics.path("modes").path("chat_agent_tools").path("chatPromptTokens").asLong())
                .as("tools mode keeps its schema tokens")
                .isGreaterThan(metrics.path("modes").path("dual_agent").path("chatPromptTokens").asLong());
        assertThat(metrics.path("turns")).hasSize(4);
        assertThat(metrics.path("timing").path("metrics").asString()).startsWith("scripted turns synthesized with "
                + "latency modelled:");
    }

    @Test
    @DisplayName("without a pricing catalog every cost is unknown (null), never zero")
    void unpriced() throws IOException {
        Path file = temp.resolve("metrics.suite.yaml");
        JsonNode unpriced = metricsOf(EngineTestKit.engine(ConformanceTestEngine.ENGINE_ID)
                .selectors(selectFile(file.toFile())).configurationParameter(Constants.REPLAY_SPEED, "0")
                .outputDirectoryCreator(new TempOutputDirectories(temp.resolve("unpriced"))).execute());
        assertThat(unpriced.path("modes").path("dual_agent").path("cost").isNull()).isTrue();
        assertThat(unpriced.path("modes").path("dual_agent").path("costPerSuccessfulEvent").isNull()).isTrue();
    }

    @Test
    @DisplayName("one catalogue: metrics.json's per-mode and per-turn keys are the catalogue's, in its order")
    void catalogueDrivesTheFiles() {
        List<String> modeKeys = new ArrayList<>(List.of("turns"));
        Arrays.stream(Metric.values()).map(Metric::key).forEach(modeKeys::add);
        assertThat(metrics.path("modes").path("dual_agent").properties()).extracting(Map.Entry::getKey)
                .containsExactlyElementsOf(modeKeys);
        List<String> turnKeys = new ArrayList<>(List.of("suite", "case", "mode", "turn", "timing"));
        Arrays.stream(Metric.values()).flatMap(m -> m.turnKey().stream()).forEach(turnKeys::add);
        turnKeys.addAll(List.of("events", "visibleWithheldUntilToolCalls", "record"));
        assertThat(metrics.path("turns").get(0).properties()).extracting(Map.Entry::getKey)
                .containsExactlyElementsOf(turnKeys);
        assertThat(Metric.baselineMetrics()).extracting(Metric::key).as("committed baselines stay readable")
                .containsExactly("chatPromptTokensPerTurn", "llmCallsPerTurn", "deterministicHitRate", "fallbackRate",
                        "selectionPrecision", "selectionRecall", "executionSuccessRate");
        assertThat(Arrays.stream(Metric.values()).map(Metric::key).distinct()).hasSize(Metric.values().length);
        assertThat(Arrays.stream(Metric.values()).map(Metric::label).distinct()).hasSize(Metric.values().length);
    }

    @Test
    @DisplayName("each case × mode publishes its per-turn figures as report entries; the engine what the launch covers")
    void reportEntries() {
        assertThat(results.testEvents().reportingEntryPublished().count()).isEqualTo(4);
        assertThat(results.containerEvents().reportingEntryPublished().map(event -> event.getRequiredPayload(
                org.junit.platform.engine.reporting.ReportEntry.class).getKeyValuePairs().get("agentlab.coverage"))
                .toList()).singleElement().asString().startsWith("whole suites: ");
    }
}
