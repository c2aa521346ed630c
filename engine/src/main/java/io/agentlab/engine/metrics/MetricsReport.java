package io.agentlab.engine.metrics;

import io.agentlab.kernel.api.InvocationMode;
import io.agentlab.kernel.runtime.TurnMetrics;
import io.agentlab.kernel.runtime.llm.CallRole;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * Collects the turn records of an engine run (from any thread) and renders {@code metrics.json}: the per-mode
 * aggregates and each case's per-turn figures.
 */
public final class MetricsReport {

    private static final JsonMapper MAPPER = JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();

    private final List<TurnRecord> records = new ArrayList<>();
    private final Map<String, String> timing = new LinkedHashMap<>();
    private final Map<String, Boolean> parity = new LinkedHashMap<>();

    /** Adds a turn. */
    public synchronized void add(TurnRecord record) {
        records.add(record);
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

    /** The records so far, in a stable order (suite, case, mode, turn). */
    public synchronized List<TurnRecord> records() {
        return records.stream().sorted(Comparator.comparing(TurnRecord::suiteId).thenComparing(TurnRecord::caseId)
                .thenComparing(TurnRecord::mode).thenComparingInt(TurnRecord::turnIndex)).toList();
    }

    /** The aggregates of one mode. */
    public ModeMetrics mode(InvocationMode mode) {
        return ModeMetrics.of(mode, records());
    }

    /** The report as JSON. */
    public String toJson() {
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("engine", "agentlab-conformance");
        root.put("contract", "docs/design.md#usage-fair-comparison; docs/design.md#metrics-per-mode");
        synchronized (this) {
            root.put("timing", new LinkedHashMap<>(timing));
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
            turns.add(turnFigures(record));
        }
        root.put("turns", turns);
        return MAPPER.writeValueAsString(root);
    }

    /** One turn's figures, as published in report entries and {@code metrics.json}. */
    public static Map<String, Object> turnFigures(TurnRecord record) {
        TurnMetrics metrics = record.result().metrics();
        Map<String, Object> figures = new LinkedHashMap<>();
        figures.put("suite", record.suiteId());
        figures.put("case", record.caseId());
        figures.put("mode", record.mode().wireName());
        figures.put("turn", record.turnIndex() + 1);
        figures.put("firstVisibleTtftMs", metrics.firstVisibleTtft().map(d -> d.toNanos() / 1e6).orElse(null));
        figures.put("firstAnswerCompletionMs", metrics.firstAnswerCompletion().toNanos() / 1e6);
        figures.put("secondAnswerTtftMs", metrics.secondAnswerTtft().map(d -> d.toNanos() / 1e6).orElse(null));
        figures.put("turnWallTimeMs", metrics.turnWallTime().toNanos() / 1e6);
        figures.put("llmCalls", metrics.calls().size());
        figures.put("chatPromptTokens", metrics.calls().stream()
                .filter(call -> call.role() != CallRole.EVENT_AGENT).mapToLong(TurnMetrics.CallMetrics::promptTokens)
                .sum());
        figures.put("fallbackCalls", metrics.fallbackCalls());
        figures.put("events", metrics.events());
        return figures;
    }
}
