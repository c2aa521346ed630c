package io.agentlab.engine.metrics;

import io.agentlab.kernel.api.InvocationMode;
import io.agentlab.kernel.runtime.llm.CallRole;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The measures of one mode ({@code docs/design.md#metrics-per-mode}), counted by the fair-comparison contract
 * ({@code docs/design.md#usage-real-calls-only}): tokens come only from real model calls (tools-mode schema
 * and protocol tokens stay in), EventAgent fallback calls are their own rows, turn wall time is measured (never a sum
 * of overlapping spans), deduplicated or replayed clones count for nothing, and call TTFT (first stream item) is kept
 * apart from visible-text TTFT. Rates are null when nothing was there to count.
 *
 * @param mode                     the mode
 * @param turns                    turns measured
 * @param firstVisibleTtftMs       turn start to the first visible character, p50/p95
 * @param chatCallTtftMs           ChatAgent call start to its first stream item, p50/p95
 * @param firstAnswerCompletionMs  turn start to the end of the first answer, p50/p95
 * @param secondAnswerTtftMs       turn start to the follow-up's first visible character, p50/p95
 * @param turnWallTimeMs           turn start to end, p50/p95
 * @param eventDispatchDelayMs     end of the first answer to a handler's start, p50/p95
 * @param eventLatencyMs           handler execution, p50/p95
 * @param chatPromptTokens         prompt tokens of ChatAgent calls (first and follow-up)
 * @param chatCompletionTokens     completion tokens of ChatAgent calls
 * @param fallbackCalls            EventAgent fallback calls
 * @param fallbackTokens           tokens (prompt + completion) of the fallback calls
 * @param llmCallsPerTurn          model calls per turn, mean
 * @param chatCallsPerOrdinaryTurn ChatAgent calls per turn whose policy asked for no second answer, mean (target 1)
 * @param logicalEvents            events that ran or were judged, deduplicated/replayed clones excluded
 * @param deterministicHitRate     events resolved without the fallback / events whose resolution ran
 * @param fallbackRate             fallback calls / logical events
 * @param selectionPrecision       proposed events that were expected / proposed (turns with expected events)
 * @param selectionRecall          expected events that were proposed / expected
 * @param multiEventRecall         the same recall over turns expecting two or more events
 * @param validBeforeNormalization events valid as proposed / logical events
 * @param validAfterNormalization  events valid after normalization / logical events
 * @param executionSuccessRate     succeeded / logical events
 * @param cost                     estimated cost, when every call was priced
 * @param costPerSuccessfulEvent   cost / succeeded events
 */
public record ModeMetrics(InvocationMode mode, int turns, Percentiles firstVisibleTtftMs,
                          Percentiles chatCallTtftMs, Percentiles firstAnswerCompletionMs,
                          Percentiles secondAnswerTtftMs, Percentiles turnWallTimeMs,
                          Percentiles eventDispatchDelayMs, Percentiles eventLatencyMs, long chatPromptTokens,
                          long chatCompletionTokens, int fallbackCalls, long fallbackTokens, Double llmCallsPerTurn,
                          Double chatCallsPerOrdinaryTurn,
                          int logicalEvents, Double deterministicHitRate, Double fallbackRate,
                          Double selectionPrecision, Double selectionRecall, Double multiEventRecall,
                          Double validBeforeNormalization, Double validAfterNormalization,
                          Double executionSuccessRate, BigDecimal cost, BigDecimal costPerSuccessfulEvent) {

    /**
     * Nearest-rank percentiles in milliseconds; null when there were no samples.
     *
     * @param samples how many
     * @param p50     the median
     * @param p95     the 95th percentile
     */
    public record Percentiles(int samples, Double p50, Double p95) {
        /** The percentiles of {@code durations}. */
        public static Percentiles of(List<Duration> durations) {
            if (durations.isEmpty()) {
                return new Percentiles(0, null, null);
            }
            List<Double> ms = new ArrayList<>(durations.stream().map(d -> d.toNanos() / 1e6).toList());
            Collections.sort(ms);
            return new Percentiles(ms.size(), round(rank(ms, 0.50)), round(rank(ms, 0.95)));
        }

        private static double rank(List<Double> sorted, double quantile) {
            int index = (int) Math.ceil(quantile * sorted.size()) - 1;
            return sorted.get(Math.max(0, Math.min(sorted.size() - 1, index)));
        }
    }

    /** Aggregates the turns of {@code mode} among {@code samples}. */
    public static ModeMetrics of(InvocationMode mode, List<TurnSample> samples) {
        List<TurnSample> mine = samples.stream().filter(r -> r.mode() == mode).toList();
        List<Duration> visible = new ArrayList<>();
        List<Duration> callTtft = new ArrayList<>();
        List<Duration> completion = new ArrayList<>();
        List<Duration> second = new ArrayList<>();
        List<Duration> wall = new ArrayList<>();
        List<Duration> dispatch = new ArrayList<>();
        List<Duration> latency = new ArrayList<>();
        long chatPrompt = 0;
        long chatCompletion = 0;
        int fallbackCalls = 0;
        long fallbackTokens = 0;
        int calls = 0;
        int logical = 0;
        int resolved = 0;
        int deterministic = 0;
        int validBefore = 0;
        int validAfter = 0;
        int succeeded = 0;
        int proposedTotal = 0;
        int truePositives = 0;
        int expectedTotal = 0;
        int multiExpected = 0;
        int multiHits = 0;
        BigDecimal cost = BigDecimal.ZERO;
        boolean priced = true;
        int ordinaryTurns = 0;
        int ordinaryChatCalls = 0;
        for (TurnSample sample : mine) {
            if (sample.ordinary()) {
                ordinaryTurns++;
                ordinaryChatCalls += (int) sample.calls().stream().filter(c -> c.role() != CallRole.EVENT_AGENT).count();
            }
            sample.firstVisibleTtft().ifPresent(visible::add);
            completion.add(sample.firstAnswerCompletion());
            sample.secondAnswerTtft().ifPresent(second::add);
            wall.add(sample.turnWallTime());
            for (TurnSample.Call call : sample.calls()) {
                calls++;
                if (call.role() == CallRole.EVENT_AGENT) {
                    fallbackCalls++;
                    fallbackTokens += call.promptTokens() + call.completionTokens();
                } else {
                    chatPrompt += call.promptTokens();
                    chatCompletion += call.completionTokens();
                    if (call.role() == CallRole.CHAT) {
                        callTtft.add(call.ttft());
                    }
                }
            }
            for (TurnSample.Result result : sample.results()) {
                logical++;
                if (result.resolved()) {
                    resolved++;
                    deterministic += result.deterministic() ? 1 : 0;
                }
                validBefore += result.validBefore() ? 1 : 0;
                validAfter += result.validAfter() ? 1 : 0;
                succeeded += result.succeeded() ? 1 : 0;
                result.dispatchDelay().ifPresent(dispatch::add);
                result.latency().ifPresent(latency::add);
            }
            if (sample.expectedEvents().isPresent()) {
                List<String> expected = sample.expectedEvents().get();
                List<String> proposed = sample.proposed();
                int hits = multisetIntersection(expected, proposed);
                proposedTotal += proposed.size();
                expectedTotal += expected.size();
                truePositives += hits;
                if (expected.size() >= 2) {
                    multiExpected += expected.size();
                    multiHits += hits;
                }
            }
            if (sample.cost().isPresent()) {
                cost = cost.add(sample.cost().get());
            } else {
                priced = false;
            }
        }
        BigDecimal totalCost = priced && !mine.isEmpty() ? cost : null;
        return new ModeMetrics(mode, mine.size(), Percentiles.of(visible), Percentiles.of(callTtft),
                Percentiles.of(completion), Percentiles.of(second), Percentiles.of(wall), Percentiles.of(dispatch),
                Percentiles.of(latency), chatPrompt, chatCompletion, fallbackCalls, fallbackTokens,
                mine.isEmpty() ? null : round((double) calls / mine.size()), ratio(ordinaryChatCalls, ordinaryTurns),
                logical,
                ratio(deterministic, resolved), ratio(fallbackCalls, logical), ratio(truePositives, proposedTotal),
                ratio(truePositives, expectedTotal), ratio(multiHits, multiExpected), ratio(validBefore, logical),
                ratio(validAfter, logical), ratio(succeeded, logical), totalCost,
                totalCost == null || succeeded == 0 ? null
                        : totalCost.divide(BigDecimal.valueOf(succeeded), 8, RoundingMode.HALF_UP));
    }

    private static int multisetIntersection(List<String> expected, List<String> proposed) {
        Map<String, Integer> remaining = new HashMap<>();
        expected.forEach(name -> remaining.merge(name, 1, Integer::sum));
        int hits = 0;
        for (String name : proposed) {
            if (remaining.getOrDefault(name, 0) > 0) {
                remaining.merge(name, -1, Integer::sum);
                hits++;
            }
        }
        return hits;
    }

    private static Double ratio(int numerator, int denominator) {
        return denominator == 0 ? null : round((double) numerator / denominator);
    }

    private static Double round(double value) {
        return Math.round(value * 10_000) / 10_000.0;
    }

    /** The measures as an ordered map, for reports. */
    public Map<String, Object> toMap() {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("turns", turns);
        map.put("firstVisibleTtftMs", firstVisibleTtftMs);
        map.put("chatCallTtftMs", chatCallTtftMs);
        map.put("firstAnswerCompletionMs", firstAnswerCompletionMs);
        map.put("secondAnswerTtftMs", secondAnswerTtftMs);
        map.put("turnWallTimeMs", turnWallTimeMs);
        map.put("eventDispatchDelayMs", eventDispatchDelayMs);
        map.put("eventLatencyMs", eventLatencyMs);
        map.put("chatPromptTokens", chatPromptTokens);
        map.put("chatCompletionTokens", chatCompletionTokens);
        map.put("fallbackCalls", fallbackCalls);
        map.put("fallbackTokens", fallbackTokens);
        map.put("llmCallsPerTurn", llmCallsPerTurn);
        map.put("chatCallsPerOrdinaryTurn", chatCallsPerOrdinaryTurn);
        map.put("logicalEvents", logicalEvents);
        map.put("deterministicHitRate", deterministicHitRate);
        map.put("fallbackRate", fallbackRate);
        map.put("selectionPrecision", selectionPrecision);
        map.put("selectionRecall", selectionRecall);
        map.put("multiEventRecall", multiEventRecall);
        map.put("validArgumentRateBeforeNormalization", validBeforeNormalization);
        map.put("validArgumentRateAfterNormalization", validAfterNormalization);
        map.put("executionSuccessRate", executionSuccessRate);
        map.put("cost", cost);
        map.put("costPerSuccessfulEvent", costPerSuccessfulEvent);
        return map;
    }
}
