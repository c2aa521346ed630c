package io.agentlab.runner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.agentlab.engine.Constants;
import io.agentlab.report.metrics.MetricsReport;
import io.agentlab.report.metrics.ModeMetrics;
import io.agentlab.report.metrics.TurnSample;
import io.agentlab.kernel.api.InvocationMode;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three shards merged give what one run gives: the same tests with the same verdicts, the same gates, and every
 * per-mode figure. Figures that count (tokens, calls, rates, precision, recall) must be equal to the single run's;
 * timing figures are measured anew by every run, so for them the merge must be lossless: exactly what the shards'
 * turns give together.
 */
class ShardMergeTest {

    private static final int SHARDS = 3;
    /** Shipped suites whose figures a run determines (the batch suites' timing probes are left out). */
    private static final List<String> SUITES = List.of("volume", "calendar", "search", "session", "multi-event",
            "mode-parity");

    @TempDir
    Path temp;

    private RunResult run(Path report, Shard shard) {
        RunSpec.Builder spec = RunSpec.builder().reportDirectory(report)
                .suites(SUITES.stream().map(s -> "classpath:agentlab/suites/" + s + ".suite.yaml").toList())
                .configuration(Constants.REPLAY_SPEED, "0")
                .configuration(Constants.CONTROL_RUNS, "false")
                .configuration(Constants.GATES_ENABLED, "true")
                .configuration(Constants.GATES_MAX_TTFT_RATIO, "1000"); // replay speed 0: timing says nothing here
        if (shard != null) {
            spec.shard(shard);
        }
        return ConformanceRunner.run(spec.build(), new PrintWriter(new StringWriter(), true), false);
    }

    private static Map<String, String> verdicts(RunResults results) {
        Map<String, String> verdicts = new TreeMap<>();
        results.tests().forEach(test -> verdicts.put(test.id(), test.status().wireName()));
        return verdicts;
    }

    /** Every figure of a mode, with each timing percentile reduced to its sample count. */
    private static Map<String, Object> counted(ModeMetrics metrics) {
        Map<String, Object> figures = new LinkedHashMap<>(metrics.toMap());
        figures.replaceAll((key, value) -> value instanceof Map<?, ?> percentiles ? percentiles.get("samples") : value);
        return figures;
    }

    /** Which turns a report draws a timeline of. */
    private static List<String> turns(MetricsReport metrics) {
        return metrics.timelines().stream().map(t -> t.suiteId() + "/" + t.caseId() + " " + t.mode().wireName()
                + " turn " + (t.turnIndex() + 1)).toList();
    }

    @Test
    @DisplayName("N shards merged equal one run: tests, verdicts, gates and figures")
    void shardsMergeIntoOneRun() throws Exception {
        RunResult single = run(temp.resolve("single"), null);
        assertThat(single.exitCode()).as(single.results().broken().toString()).isZero();
        List<Path> folders = new ArrayList<>();
        List<TurnSample> shardTurns = new ArrayList<>();
        for (int index = 1; index <= SHARDS; index++) {
            Path folder = temp.resolve("shard-" + index);
            RunResult shard = run(folder, new Shard(index, SHARDS));
            assertThat(shard.results().tests()).as("shard " + index).isNotEmpty()
                    .noneMatch(test -> "gate".equals(test.kind()));
            assertThat(shard.notes()).anyMatch(note -> note.startsWith("gates deferred"));
            folders.add(folder);
            // a shard is a partial launch: its reports sit under partial/, and say so (docs/engine.md#partial-launches)
            assertThat(folder.resolve("metrics.json")).doesNotExist();
            String metrics = Files.readString(folder.resolve("partial/metrics.json"));
            assertThat(metrics).contains("\"partial\" : true");
            shardTurns.addAll(MetricsReport.fromJson(metrics).samples());
        }
        RunResult merged = ShardMerge.merge(folders, Map.of(), temp.resolve("merged"));

        assertThat(verdicts(merged.results())).isEqualTo(verdicts(single.results()));
        assertThat(merged.results().tests()).filteredOn(test -> "gate".equals(test.kind())).isNotEmpty();
        assertThat(merged.exitCode()).isZero();
        MetricsReport one = MetricsReport.fromJson(Files.readString(temp.resolve("single/metrics.json")));
        MetricsReport all = MetricsReport.fromJson(Files.readString(temp.resolve("merged/metrics.json")));
        assertThat(all.parityVerdicts()).isEqualTo(one.parityVerdicts());
        assertThat(all.samples()).hasSameSizeAs(one.samples());
        for (InvocationMode mode : InvocationMode.values()) {
            assertThat(counted(all.mode(mode))).as(mode.wireName()).isEqualTo(counted(one.mode(mode)));
            assertThat(all.mode(mode)).as(mode.wireName() + ", timings included")
                    .isEqualTo(ModeMetrics.of(mode, shardTurns));
        }
        // every turn's record carries its timeline, so the merged report draws each turn and labels the modelled
        // timings as one run's report does (before, it had no timeline and compared modelled timings unlabelled)
        assertThat(turns(all)).isNotEmpty().isEqualTo(turns(one));
        String singleReport = Files.readString(temp.resolve("single/report.md"));
        String mergedReport = Files.readString(temp.resolve("merged/report.md"));
        String modelled = singleReport.lines().filter(line -> line.startsWith("In this run, timings of ")).findFirst()
                .orElseThrow(() -> new AssertionError("the shipped suites hold modelled turns; report.md says so"));
        assertThat(mergedReport).contains(modelled);
        assertThat(temp.resolve("merged/index.html")).exists();
        assertThat(RunResults.read(temp.resolve("merged"))).isEqualTo(merged.results());
    }

    @Test
    @DisplayName("a missing or repeated shard, or a folder that is not a shard, is a usage error")
    void incompleteShards() {
        Path one = temp.resolve("one");
        Path two = temp.resolve("two");
        new RunResults(java.util.Optional.of(new Shard(1, 3)), Map.of(), List.of()).write(one);
        new RunResults(java.util.Optional.of(new Shard(1, 3)), Map.of(), List.of()).write(two);
        assertThatThrownBy(() -> ShardMerge.merge(List.of(one), Map.of(), temp.resolve("out")))
                .isInstanceOf(UsageException.class).hasMessageContaining("shard(s) 2/3, 3/3 missing");
        assertThatThrownBy(() -> ShardMerge.merge(List.of(one, two), Map.of(), temp.resolve("out")))
                .isInstanceOf(UsageException.class).hasMessageContaining("shard 1/3 given twice");
        Path plain = temp.resolve("plain");
        new RunResults(java.util.Optional.empty(), Map.of(), List.of()).write(plain);
        assertThatThrownBy(() -> ShardMerge.merge(List.of(plain), Map.of(), temp.resolve("out")))
                .isInstanceOf(UsageException.class).hasMessageContaining("not the results of a shard");
        assertThatThrownBy(() -> ShardMerge.merge(List.of(temp.resolve("nowhere")), Map.of(), temp.resolve("out")))
                .isInstanceOf(UsageException.class).hasMessageContaining("no such file");
    }
}
