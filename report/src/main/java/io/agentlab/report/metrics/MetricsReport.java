package io.agentlab.report.metrics;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.agentlab.kernel.api.InvocationMode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apiguardian.api.API;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * Collects the turns of an engine run (from any thread) and renders {@code metrics.json}: how the run was made, the
 * per-mode aggregates of the metric catalogue, each turn's figures with the {@link TurnRecord} they come from, and the
 * parity verdicts. A {@code metrics.json} reads back ({@link #fromJson}) and the reports of disjoint shards
 * {@link #merge} into the report of the whole run, timelines included ({@code docs/engine.md#one-turn-record}).
 */
@API(status = INTERNAL, since = "0.1")
public final class MetricsReport {

    private static final JsonMapper MAPPER = JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();
    private static final Comparator<TurnRecord> ORDER = Comparator.comparing(TurnRecord::suiteId)
            .thenComparing(TurnRecord::caseId).thenComparing(TurnRecord::mode).thenComparingInt(TurnRecord::turnIndex);

    private final List<TurnRecord> records = new ArrayList<>();
    private final Map<String, Object> run = new LinkedHashMap<>();
    private final Map<String, Object> coverage = new LinkedHashMap<>();
    private final Map<String, String> timing = new LinkedHashMap<>();
    private final Map<String, Boolean> parity = new LinkedHashMap<>();

    /** Adds a turn. */
    public synchronized void add(TurnRecord record) {
        records.add(record);
    }

    /** Notes how the run was made ({@code metrics.json}'s {@code run}: date, kit version, commit, provider, ...). */
    public synchronized void run(Map<String, Object> metadata) {
        run.clear();
        run.putAll(metadata);
    }

    /**
     * Notes what the launch covered ({@code metrics.json}'s {@code coverage}; {@code agentlab baseline} refuses a
     * partial one). A report read back, or merged from shards, has none: it stands for whole suites.
     */
    public synchronized void coverage(Map<String, Object> coverage) {
        this.coverage.clear();
        this.coverage.putAll(coverage);
    }

    /** How the run was made, as noted or read back; empty when nobody said. */
    public synchronized Map<String, Object> run() {
        return new LinkedHashMap<>(run);
    }

    /** The turns so far, in a stable order (suite, case, mode, turn): recorded in this run, read back or merged. */
    public synchronized List<TurnRecord> records() {
        return records.stream().sorted(ORDER).toList();
    }

    /** Every turn's timeline, in the order of {@link #records()}. */
    public List<TurnTimeline> timelines() {
        return records().stream().map(TurnRecord::timeline).toList();
    }

    /** Notes how a suite's streams were timed (replayed recordings, or a latency model). */
    public synchronized void timing(String suiteId, String description) {
        timing.put(suiteId, description);
    }

    /** Notes a case's parity verdict ({@code suite/case} → whether the modes agreed). */
    public synchronized void parity(String caseKey, boolean agreed) {
        parity.put(caseKey, agreed);
    }

    /** Every parity verdict so far. */
    public synchronized Map<String, Boolean> parityVerdicts() {
        return new LinkedHashMap<>(parity);
    }

    /** Per suite, how its streams were timed. */
    public synchronized Map<String, String> timings() {
        return new LinkedHashMap<>(timing);
    }

    /** Every turn's metrics view, in the order of {@link #records()}. */
    public List<TurnSample> samples() {
        return records().stream().map(TurnRecord::sample).toList();
    }

    /** The aggregates of one mode. */
    public ModeMetrics mode(InvocationMode mode) {
        return ModeMetrics.of(mode, samples());
    }

    /** The report as JSON. */
    public String toJson() {
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("engine", "agentlab-conformance");
        root.put("contract", "docs/design.md#usage-fair-comparison; docs/design.md#metrics-per-mode");
        synchronized (this) {
            root.put("run", new LinkedHashMap<>(run));
            if (!coverage.isEmpty()) {
                root.put("coverage", new LinkedHashMap<>(coverage));
            }
            // sorted, so the file is the same whatever order cases finished in (parallel runs, shards)
            root.put("timing", new TreeMap<>(timing));
            root.put("parity", new TreeMap<>(parity));
        }
        Map<String, Object> modes = new LinkedHashMap<>();
        for (InvocationMode mode : InvocationMode.values()) {
            ModeMetrics metrics = mode(mode);
            if (metrics.turns() > 0) {
                modes.put(mode.wireName(), metrics.toMap());
            }
        }
        root.put("modes", modes);
        List<Map<String, Object>> turns = new ArrayList<>();
        for (TurnRecord record : records()) {
            Map<String, Object> turn = turnFigures(record.sample());
            turn.put("record", record.toMap());
            turns.add(turn);
        }
        root.put("turns", turns);
        return MAPPER.writeValueAsString(root);
    }

    /** One turn's figures, as published in report entries and {@code metrics.json}: the catalogue's per-turn keys. */
    public static Map<String, Object> turnFigures(TurnSample sample) {
        Map<String, Object> figures = new LinkedHashMap<>();
        figures.put("suite", sample.suiteId());
        figures.put("case", sample.caseId());
        figures.put("mode", sample.mode().wireName());
        figures.put("turn", sample.turnIndex() + 1);
        figures.put("timing", sample.timing().wireName());
        for (Metric metric : Metric.values()) {
            metric.turnKey().ifPresent(key -> {
                List<Double> values = metric.contribution(sample).samples();
                Double value = values.isEmpty() ? null : values.get(0);
                figures.put(key, value == null || metric.unit() == Metric.Unit.MS ? value : (Object) value.longValue());
            });
        }
        figures.put("events", sample.events());
        figures.put("visibleWithheldUntilToolCalls", sample.visibleWithheld());
        return figures;
    }

    /**
     * Reads a {@code metrics.json} back: its turns, timings and parity verdicts, enough to recompute every per-mode
     * figure and gate.
     *
     * @throws IllegalArgumentException when it is not a metrics file of this engine
     */
    public static MetricsReport fromJson(String json) {
        JsonNode root = MAPPER.readTree(json);
        if (!"agentlab-conformance".equals(root.path("engine").asString())) {
            throw new IllegalArgumentException("not a metrics.json of the agentlab-conformance engine");
        }
        MetricsReport report = new MetricsReport();
        root.path("turns").forEach(turn -> report.records.add(TurnRecord.fromJson(turn)));
        root.path("timing").properties().forEach(e -> report.timing.put(e.getKey(), e.getValue().asString()));
        root.path("parity").properties().forEach(e -> report.parity.put(e.getKey(), e.getValue().asBoolean()));
        if (root.path("coverage").isObject()) {
            // read back as written; a merge of shards never copies it, since the merged run covers the whole
            report.coverage.putAll(MAPPER.convertValue(root.path("coverage"),
                    new TypeReference<Map<String, Object>>() { }));
        }
        if (root.path("run").isObject()) {
            report.run.putAll(MAPPER.convertValue(root.path("run"), new TypeReference<Map<String, Object>>() { }));
        }
        return report;
    }

    /**
     * The reports of runs over disjoint shares of the cases, as one: the turns, timings and parity verdicts of all.
     *
     * @throws IllegalArgumentException when two reports hold the same turn (the shares overlap)
     */
    public static MetricsReport merge(List<MetricsReport> parts) {
        MetricsReport merged = new MetricsReport();
        Set<String> seen = new HashSet<>();
        for (MetricsReport part : parts) {
            for (TurnRecord record : part.records()) {
                String key = record.suiteId() + "/" + record.caseId() + " " + record.mode().wireName() + " turn "
                        + (record.turnIndex() + 1);
                if (!seen.add(key)) {
                    throw new IllegalArgumentException("two shards both ran " + key);
                }
                merged.add(record);
            }
            merged.timing.putAll(part.timings());
            merged.parity.putAll(part.parityVerdicts());
            if (merged.run.isEmpty()) {
                merged.run.putAll(part.run()); // the shards ran with one configuration (the merge checks it)
            }
        }
        return merged;
    }

}
