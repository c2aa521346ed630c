package io.agentlab.report.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClasspathResource;

import io.agentlab.engine.ConformanceTestEngine;
import io.agentlab.engine.Constants;
import io.agentlab.kernel.api.InvocationMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.OutputDirectoryCreator;
import org.junit.platform.engine.TestDescriptor;
import org.junit.platform.testkit.engine.EngineTestKit;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/** metrics.json keeps every turn's sample, so it reads back into the same figures and shards merge exactly. */
class MetricsRoundTripTest {

    @TempDir
    Path temp;

    private String metricsOfSampleSuites() throws Exception {
        Path report = temp.resolve("report");
        EngineTestKit.engine(ConformanceTestEngine.ENGINE_ID)
                .selectors(selectClasspathResource("sample-suites"))
                .configurationParameter(Constants.REPLAY_SPEED, "0")
                .configurationParameter(Constants.CONTROL_RUNS, "false")
                .configurationParameter(Constants.REPORT_DIRECTORY, report.toString())
                .outputDirectoryCreator(new OutputDirectoryCreator() {
                    @Override
                    public Path getRootDirectory() {
                        return temp.resolve("out");
                    }

                    @Override
                    public Path createOutputDirectory(TestDescriptor descriptor) throws java.io.IOException {
                        return Files.createDirectories(temp.resolve("out"));
                    }
                })
                .execute();
        return Files.readString(report.resolve("metrics.json"));
    }

    @Test
    @DisplayName("metrics.json reads back into the same per-mode figures, timings included, and writes the same file")
    void roundTrip() throws Exception {
        String json = metricsOfSampleSuites();
        MetricsReport read = MetricsReport.fromJson(json);
        assertThat(read.toJson()).isEqualTo(json);
        assertThat(read.samples()).isNotEmpty();
        // the one persisted record carries the timelines too, so a report read back (a merge) can draw every turn
        assertThat(read.timelines()).hasSameSizeAs(read.records())
                .anySatisfy(timeline -> assertThat(timeline.calls()).isNotEmpty());
        assertThat(read.parityVerdicts()).isNotEmpty();
        for (InvocationMode mode : InvocationMode.values()) {
            assertThat(read.mode(mode).turns()).isPositive();
        }
    }

    @Test
    @DisplayName("a metrics.json of an older kit (a turn with a sample, no record) is refused with a line naming the turn")
    void olderFileRefused() {
        String json = "{\"engine\":\"agentlab-conformance\",\"turns\":[{\"suite\":\"volume\",\"case\":\"up\","
                + "\"mode\":\"dual_agent\",\"turn\":1,\"sample\":{}}]}";
        assertThatThrownBy(() -> MetricsReport.fromJson(json)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("turn volume/up dual_agent 1 has no record (a metrics.json written by an older kit? run it "
                        + "again with this one)");
    }

    @Test
    @DisplayName("a report split in two by case merges back into the whole; the same turn twice is refused")
    void mergeHalves() throws Exception {
        MetricsReport whole = MetricsReport.fromJson(metricsOfSampleSuites());
        MetricsReport first = new MetricsReport();
        MetricsReport second = new MetricsReport();
        for (TurnRecord record : whole.records()) {
            boolean even = Math.floorMod((record.suiteId() + "/" + record.caseId()).hashCode(), 2) == 0;
            copy(record, even ? first : second);
        }
        whole.parityVerdicts().forEach((key, agreed) -> (Math.floorMod(key.hashCode(), 2) == 0 ? first : second)
                .parity(key.substring(0, key.indexOf('/')), key.substring(key.indexOf('/') + 1), agreed));
        whole.timings().forEach(first::timing);
        first.run(whole.run());
        MetricsReport merged = MetricsReport.merge(List.of(first, second));
        for (InvocationMode mode : InvocationMode.values()) {
            assertThat(merged.mode(mode)).isEqualTo(whole.mode(mode));
        }
        assertThat(merged.timelines()).isEqualTo(whole.timelines());
        // each shard's coverage is partial; the merge stands for the whole run, so it carries none
        whole.coverage(java.util.Map.of());
        assertThat(merged.toJson()).isEqualTo(whole.toJson());
        assertThatThrownBy(() -> MetricsReport.merge(List.of(whole, first)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("two shards both ran");
    }

    @Test
    @DisplayName("metrics.json written as it goes is the text one serialization of the whole report gave before")
    void streamedAsBefore() throws Exception {
        String json = metricsOfSampleSuites();
        try (MetricsReport read = MetricsReport.fromJson(json)) {
            // the report's tree as toJson built it before it streamed, kept as the oracle
            Map<String, Object> root = new LinkedHashMap<>();
            root.put("engine", "agentlab-conformance");
            root.put("contract", "docs/design.md#usage-fair-comparison; docs/design.md#metrics-per-mode");
            root.put("run", read.run());
            root.put("coverage", JsonMapper.builder().build().readTree(json).path("coverage"));
            root.put("timing", new TreeMap<>(read.timings()));
            root.put("parity", new TreeMap<>(read.parityVerdicts()));
            Map<String, Object> modes = new LinkedHashMap<>();
            for (InvocationMode mode : InvocationMode.values()) {
                modes.put(mode.wireName(), ModeMetrics.of(mode, read.samples()).toMap());
            }
            root.put("modes", modes);
            List<Map<String, Object>> turns = new ArrayList<>();
            // sorted here as before, whatever order the report reads them back in
            for (TurnRecord record : read.records().stream().sorted(Comparator.comparing(TurnRecord::suiteId)
                    .thenComparing(TurnRecord::caseId).thenComparing(TurnRecord::mode)
                    .thenComparingInt(TurnRecord::turnIndex)).toList()) {
                turns.add(turn(record));
            }
            root.put("turns", turns);
            String before = JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build()
                    .writeValueAsString(root);
            assertThat(json).isEqualTo(before);
            assertThat(read.toJson()).isEqualTo(before);
        }
    }

    private static void copy(TurnRecord record, MetricsReport into) {
        // through JSON, as a shard's file would carry it
        String json = "{\"engine\":\"agentlab-conformance\",\"turns\":[" + tools.jackson.databind.json.JsonMapper
                .builder().build().writeValueAsString(turn(record)) + "]}";
        MetricsReport.fromJson(json).records().forEach(into::add);
    }

    private static java.util.Map<String, Object> turn(TurnRecord record) {
        java.util.Map<String, Object> turn = MetricsReport.turnFigures(record.sample());
        turn.put("record", record.toMap());
        return turn;
    }
}
