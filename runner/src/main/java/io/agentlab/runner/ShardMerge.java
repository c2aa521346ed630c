package io.agentlab.runner;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.agentlab.engine.ConfigurationKeys;
import io.agentlab.engine.Constants;
import io.agentlab.kernel.api.InvocationMode;
import io.agentlab.report.RunMetadata;
import io.agentlab.report.TestOutcome;
import io.agentlab.report.gates.Gate;
import io.agentlab.report.gates.Gates;
import io.agentlab.report.metrics.MetricsReport;
import io.agentlab.report.render.RunReports;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import org.apiguardian.api.API;

/**
 * {@code agentlab merge}: the report folders of the N shards of one run ({@code run --shard I/N}, one CI job each)
 * put back together. It checks that every shard 1..N is there once and that no test ran twice, combines
 * {@code results.json} and {@code metrics.json} (every figure recomputed from the turns, so it equals what one run
 * over all the cases gives), writes {@code report.md} and {@code index.html}, and applies the gates the shards
 * deferred to the whole.
 */
@API(status = INTERNAL, since = "0.1")
public final class ShardMerge {

    private static final String GATE_PREFIX = "[engine:agentlab-conformance]/[gates:run]/[gate:";

    private ShardMerge() {
    }

    /**
     * Merges the shards' report folders into {@code out}.
     *
     * @param shards    the shards' report folders
     * @param overrides configuration that replaces the shards' own (for example a baseline path in the merge job)
     * @param out       the merged report folder
     * @throws UsageException when a folder cannot be read, a shard is missing or repeated, or the shards disagree
     */
    public static RunResult merge(List<Path> shards, Map<String, String> overrides, Path out) {
        if (shards.isEmpty()) {
            throw new UsageException("name the report folders of the shards");
        }
        List<RunResults> results = new ArrayList<>();
        List<MetricsReport> metrics = new ArrayList<>();
        for (Path folder : shards) {
            RunResults shard = RunResults.read(folder);
            if (shard.shard().isEmpty()) {
                throw new UsageException(folder + ": not the results of a shard (run with --shard I/N)");
            }
            results.add(shard);
            Path base = Files.isDirectory(folder) ? folder : folder.getParent();
            // a shard is a partial launch: the engine wrote its reports under partial/ (docs/engine.md#partial-launches)
            Path partial = base.resolve(RunReports.PARTIAL_FOLDER).resolve(RunReports.METRICS_FILE);
            Path file = Files.exists(partial) ? partial : base.resolve(RunReports.METRICS_FILE);
            if (Files.exists(file)) {
                try {
                    metrics.add(MetricsReport.read(file));
                } catch (RuntimeException e) {
                    metrics.forEach(MetricsReport::close);
                    throw new UsageException(file + ": cannot read the metrics: " + e.getMessage(), e);
                }
            } else if (shard.executedCaseTests() > 0) {
                throw new UsageException(folder + ": ran cases but holds no " + RunReports.METRICS_FILE);
            }
        }
        checkShards(shards, results);
        Map<String, String> configuration = configuration(shards, results);
        configuration.putAll(overrides);
        List<TestOutcome> tests = new ArrayList<>();
        Map<String, Path> seen = new HashMap<>();
        for (int i = 0; i < results.size(); i++) {
            for (TestOutcome test : results.get(i).tests()) {
                Path other = seen.putIfAbsent(test.id(), shards.get(i));
                if (other != null) {
                    throw new UsageException(test.id() + " ran in both " + other + " and " + shards.get(i)
                            + " (shards of different runs?)");
                }
                tests.add(test);
            }
        }
        MetricsReport merged;
        try {
            merged = MetricsReport.merge(metrics);
        } catch (IllegalArgumentException e) {
            throw new UsageException(String.valueOf(e.getMessage()), e);
        } finally {
            metrics.forEach(MetricsReport::close);
        }
        List<String> notes = new ArrayList<>();
        try {
            if (Boolean.parseBoolean(configuration.getOrDefault(Constants.GATES_ENABLED, "false"))) {
                tests.addAll(gates(configuration, merged));
            } else {
                notes.add("gates: off (" + Constants.GATES_ENABLED + " was not true in the shards' configuration)");
            }
            write(out, merged, tests);
        } finally {
            merged.close(); // its spool (docs/performance.md#memory)
        }
        notes.add("merged " + results.size() + " shards; the control matrix and capability-growth curve are in each "
                + "shard's own report");
        RunResults all = new RunResults(Optional.empty(), configuration, tests);
        all.write(out);
        return new RunResult(all, out, notes);
    }

    private static void checkShards(List<Path> folders, List<RunResults> results) {
        int count = results.get(0).shard().orElseThrow().count();
        Path[] byIndex = new Path[count + 1];
        for (int i = 0; i < results.size(); i++) {
            Shard shard = results.get(i).shard().orElseThrow();
            if (shard.count() != count) {
                throw new UsageException(folders.get(i) + " is shard " + shard + " but "
                        + folders.get(0) + " is one of " + count);
            }
            if (byIndex[shard.index()] != null) {
                throw new UsageException("shard " + shard + " given twice: " + byIndex[shard.index()] + " and "
                        + folders.get(i));
            }
            byIndex[shard.index()] = folders.get(i);
        }
        List<String> missing = new ArrayList<>();
        for (int index = 1; index <= count; index++) {
            if (byIndex[index] == null) {
                missing.add(index + "/" + count);
            }
        }
        if (!missing.isEmpty()) {
            throw new UsageException("shard(s) " + String.join(", ", missing) + " missing: every shard's "
                    + "report folder is needed, or cases would be lost");
        }
    }

    private static Map<String, String> configuration(List<Path> folders, List<RunResults> results) {
        Map<String, String> first = results.get(0).configuration();
        for (int i = 1; i < results.size(); i++) {
            Map<String, String> other = results.get(i).configuration();
            for (String key : union(first, other)) {
                if (!Objects.equals(first.get(key), other.get(key))) {
                    throw new UsageException("the shards ran with different configuration: " + key + " is '"
                            + first.get(key) + "' in " + folders.get(0) + " but '" + other.get(key) + "' in "
                            + folders.get(i));
                }
            }
        }
        return new TreeMap<>(first);
    }

    private static List<String> union(Map<String, String> a, Map<String, String> b) {
        List<String> keys = new ArrayList<>(a.keySet());
        b.keySet().stream().filter(key -> !a.containsKey(key)).forEach(keys::add);
        return keys;
    }

    private static List<TestOutcome> gates(Map<String, String> configuration, MetricsReport metrics) {
        List<InvocationMode> modes;
        List<Gate> gates;
        try {
            modes = Arrays.stream(configuration.getOrDefault(Constants.MODES,
                            "dual_agent,chat_agent_tools").split(",")).map(String::strip).filter(s -> !s.isEmpty())
                    .map(InvocationMode::fromWireName).distinct().toList();
            gates = Gates.from(ConfigurationKeys.withAliases(new MapParameters(configuration)), modes);
        } catch (RuntimeException e) {
            throw new UsageException("cannot set up the gates: " + e.getMessage(), e);
        }
        List<TestOutcome> outcomes = new ArrayList<>();
        for (Gate gate : gates) {
            Gate.Verdict verdict = gate.check().apply(metrics);
            TestOutcome.Status status;
            String message;
            if (verdict instanceof Gate.Verdict.Pass pass) {
                status = TestOutcome.Status.PASSED;
                message = pass.detail();
            } else if (verdict instanceof Gate.Verdict.Breach breach) {
                status = TestOutcome.Status.FAILED;
                message = "gate " + gate.id() + " breached: " + breach.detail();
            } else {
                status = TestOutcome.Status.SKIPPED;
                message = "gate " + gate.id() + ": " + ((Gate.Verdict.Skip) verdict).reason();
            }
            outcomes.add(new TestOutcome(GATE_PREFIX + gate.id() + "]", "gate", Optional.empty(), Optional.empty(),
                    gate.id(), gate.description(), List.of(), status, 0, Optional.of(message)));
        }
        return outcomes;
    }

    private static void write(Path out, MetricsReport metrics, List<TestOutcome> tests) {
        // the shards' control matrix and growth curve stay in each shard's own report; their turns' records carry
        // the timelines, so the merged report draws every turn (docs/engine.md#one-turn-record)
        try {
            try (RunReports reports = RunReports.builder(metrics, RunMetadata.fromMap(metrics.run())).tests(tests)
                    .build()) {
                reports.writeTo(out);
            }
        } catch (IOException e) {
            throw new UsageException("cannot write the merged report to " + out.toAbsolutePath() + ": " + e, e);
        }
    }

}
