package io.agentlab.engine.metrics;

import io.agentlab.kernel.api.BatchResult;
import io.agentlab.kernel.api.ContinuationDecision;
import io.agentlab.kernel.api.EventOutcome;
import io.agentlab.kernel.api.EventResult;
import io.agentlab.kernel.api.InvocationMode;
import io.agentlab.kernel.api.ResolutionOutcome;
import io.agentlab.kernel.runtime.TurnMetrics;
import io.agentlab.kernel.runtime.llm.CallRole;
import io.agentlab.kernel.runtime.protocol.ProposedEvent;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * What the per-mode metrics need from one turn, and nothing more: kept in {@code metrics.json} so that runs split
 * over several jobs ({@code agentlab run --shard}) merge into the figures one run would give, exactly.
 *
 * @param suiteId          the suite
 * @param caseId           the case
 * @param turnIndex        the turn's position (from 0)
 * @param mode             the mode
 * @param firstVisibleTtft turn start to the first visible character, if any was shown
 * @param firstAnswerCompletion turn start to the end of the first answer
 * @param secondAnswerTtft turn start to the follow-up's first visible character, if there was one
 * @param turnWallTime     turn start to end
 * @param ordinary         whether the policy asked for no second answer and the turn did not fail
 * @param calls            the model calls
 * @param events           the turn's event count as the runtime reports it
 * @param results          the logical events' results (deduplicated and replayed clones left out)
 * @param expectedEvents   the events the suite expects, when it says
 * @param proposed         the events the model proposed, in order
 * @param cost             the turn's cost, if every call was priced
 * @param timing           how the turn's stream was timed (recorded, the latency model, or live)
 * @param visibleWithheld  the provider streamed its tool calls before any visible content
 */
public record TurnSample(String suiteId, String caseId, int turnIndex, InvocationMode mode,
                         Optional<Duration> firstVisibleTtft, Duration firstAnswerCompletion,
                         Optional<Duration> secondAnswerTtft, Duration turnWallTime, boolean ordinary,
                         List<Call> calls, int events, List<Result> results, Optional<List<String>> expectedEvents,
                         List<String> proposed, Optional<BigDecimal> cost, TurnRecord.Timing timing,
                         boolean visibleWithheld) {

    /** Copies the lists. */
    public TurnSample {
        calls = List.copyOf(calls);
        results = List.copyOf(results);
        expectedEvents = expectedEvents.map(List::copyOf);
        proposed = List.copyOf(proposed);
    }

    /**
     * One model call.
     *
     * @param role             why it was made
     * @param ttft             call TTFT (first stream item)
     * @param promptTokens     prompt tokens
     * @param completionTokens completion tokens
     */
    public record Call(CallRole role, Duration ttft, long promptTokens, long completionTokens) {
    }

    /**
     * One logical event's result.
     *
     * @param resolved        whether its resolution ran
     * @param deterministic   whether it resolved without the fallback
     * @param validBefore     valid as proposed
     * @param validAfter      valid after normalization
     * @param succeeded       whether it succeeded
     * @param dispatchDelay   end of the first answer to its handler's start, if it started
     * @param latency         its handler's execution, if it ran
     */
    public record Result(boolean resolved, boolean deterministic, boolean validBefore, boolean validAfter,
                         boolean succeeded, Optional<Duration> dispatchDelay, Optional<Duration> latency) {
    }

    /** The sample of a recorded turn. */
    public static TurnSample of(TurnRecord record) {
        TurnMetrics metrics = record.result().metrics();
        boolean ordinary = !(record.result().decision().orElse(null) instanceof ContinuationDecision.FollowUp)
                && record.result().error().isEmpty();
        List<Call> calls = metrics.calls().stream()
                .map(call -> new Call(call.role(), call.ttft(), call.promptTokens(), call.completionTokens())).toList();
        List<Result> results = new ArrayList<>();
        for (EventResult result : record.result().batch().map(BatchResult::results).orElse(List.of())) {
            if (result.outcome() instanceof EventOutcome.Deduplicated
                    || result.outcome() instanceof EventOutcome.Replayed) {
                continue; // clones of a logical event count for nothing
            }
            ResolutionOutcome outcome = result.resolution().outcome();
            results.add(new Result(outcome != ResolutionOutcome.NOT_ATTEMPTED,
                    outcome == ResolutionOutcome.DETERMINISTIC, result.resolution().validBeforeNormalization(),
                    result.resolution().validAfterNormalization(), result.outcome() instanceof EventOutcome.Succeeded,
                    Optional.ofNullable(metrics.eventDispatchDelay().get(result.eventId())),
                    Optional.ofNullable(metrics.eventLatency().get(result.eventId()))));
        }
        return new TurnSample(record.suiteId(), record.caseId(), record.turnIndex(), record.mode(),
                metrics.firstVisibleTtft(), metrics.firstAnswerCompletion(), metrics.secondAnswerTtft(),
                metrics.turnWallTime(), ordinary, calls, metrics.events(), results, record.expectedEvents(),
                record.result().proposals().stream().map(ProposedEvent::name).toList(), metrics.cost(), record.timing(),
                metrics.visibleWithheldUntilToolCalls());
    }

    /** The ChatAgent calls (first answer and follow-up), not the EventAgent's. */
    public List<Call> chatCalls() {
        return calls.stream().filter(call -> call.role() != CallRole.EVENT_AGENT).toList();
    }

    /** Prompt tokens of the ChatAgent calls (first answer and follow-up). */
    public long chatPromptTokens() {
        return chatCalls().stream().mapToLong(Call::promptTokens).sum();
    }

    /** How many proposed events were expected (multiset intersection); 0 when the suite expects nothing. */
    public int selectionHits() {
        if (expectedEvents.isEmpty()) {
            return 0;
        }
        Map<String, Integer> remaining = new HashMap<>();
        expectedEvents.get().forEach(name -> remaining.merge(name, 1, Integer::sum));
        int hits = 0;
        for (String name : proposed) {
            if (remaining.getOrDefault(name, 0) > 0) {
                remaining.merge(name, -1, Integer::sum);
                hits++;
            }
        }
        return hits;
    }

    /** EventAgent fallback calls. */
    public int fallbackCalls() {
        return (int) calls.stream().filter(call -> call.role() == CallRole.EVENT_AGENT).count();
    }

    /** The sample as JSON-ready values, durations in nanoseconds and the cost as a decimal string (both exact). */
    public Map<String, Object> toMap() {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("firstVisibleTtftNs", firstVisibleTtft.map(Duration::toNanos).orElse(null));
        map.put("firstAnswerCompletionNs", firstAnswerCompletion.toNanos());
        map.put("secondAnswerTtftNs", secondAnswerTtft.map(Duration::toNanos).orElse(null));
        map.put("turnWallTimeNs", turnWallTime.toNanos());
        map.put("ordinary", ordinary);
        map.put("calls", calls.stream().map(call -> {
            Map<String, Object> c = new LinkedHashMap<>();
            c.put("role", call.role().wireName());
            c.put("ttftNs", call.ttft().toNanos());
            c.put("promptTokens", call.promptTokens());
            c.put("completionTokens", call.completionTokens());
            return c;
        }).toList());
        map.put("events", events);
        map.put("results", results.stream().map(result -> {
            Map<String, Object> r = new LinkedHashMap<>();
            r.put("resolved", result.resolved());
            r.put("deterministic", result.deterministic());
            r.put("validBefore", result.validBefore());
            r.put("validAfter", result.validAfter());
            r.put("succeeded", result.succeeded());
            r.put("dispatchDelayNs", result.dispatchDelay().map(Duration::toNanos).orElse(null));
            r.put("latencyNs", result.latency().map(Duration::toNanos).orElse(null));
            return r;
        }).toList());
        map.put("expectedEvents", expectedEvents.orElse(null));
        map.put("proposed", proposed);
        map.put("cost", cost.map(BigDecimal::toPlainString).orElse(null));
        map.put("timing", timing.wireName());
        map.put("visibleWithheld", visibleWithheld);
        return map;
    }

    /** Reads a sample written by {@link #toMap()}, under a turn's {@code suite}, {@code case}, {@code mode}, {@code turn}. */
    static TurnSample fromJson(JsonNode turn) {
        JsonNode s = turn.path("sample");
        if (!s.isObject()) {
            throw new IllegalArgumentException("turn " + turn.path("suite").asString() + "/"
                    + turn.path("case").asString() + " has no sample (metrics.json from an older kit?)");
        }
        List<Call> calls = new ArrayList<>();
        s.path("calls").forEach(c -> calls.add(new Call(CallRole.valueOf(c.path("role").asString().toUpperCase(
                java.util.Locale.ROOT)), Duration.ofNanos(c.path("ttftNs").asLong()), c.path("promptTokens").asLong(),
                c.path("completionTokens").asLong())));
        List<Result> results = new ArrayList<>();
        s.path("results").forEach(r -> results.add(new Result(r.path("resolved").asBoolean(),
                r.path("deterministic").asBoolean(), r.path("validBefore").asBoolean(), r.path("validAfter").asBoolean(),
                r.path("succeeded").asBoolean(), nanos(r.path("dispatchDelayNs")), nanos(r.path("latencyNs")))));
        Optional<List<String>> expected = Optional.empty();
        if (s.path("expectedEvents").isArray()) {
            List<String> names = new ArrayList<>();
            s.path("expectedEvents").forEach(name -> names.add(name.asString()));
            expected = Optional.of(names);
        }
        List<String> proposed = new ArrayList<>();
        s.path("proposed").forEach(name -> proposed.add(name.asString()));
        return new TurnSample(turn.path("suite").asString(), turn.path("case").asString(), turn.path("turn").asInt() - 1,
                InvocationMode.fromWireName(turn.path("mode").asString()), nanos(s.path("firstVisibleTtftNs")),
                Duration.ofNanos(s.path("firstAnswerCompletionNs").asLong()), nanos(s.path("secondAnswerTtftNs")),
                Duration.ofNanos(s.path("turnWallTimeNs").asLong()), s.path("ordinary").asBoolean(), calls,
                s.path("events").asInt(), results, expected, proposed,
                s.path("cost").isString() ? Optional.of(new BigDecimal(s.path("cost").asString())) : Optional.empty(),
                TurnRecord.Timing.valueOf(s.path("timing").asString("modelled").toUpperCase(java.util.Locale.ROOT)),
                s.path("visibleWithheld").asBoolean());
    }

    private static Optional<Duration> nanos(JsonNode node) {
        return node.isNumber() ? Optional.of(Duration.ofNanos(node.asLong())) : Optional.empty();
    }
}
