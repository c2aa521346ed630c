package io.agentlab.report.metrics;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.agentlab.kernel.api.BatchResult;
import io.agentlab.kernel.api.CanonicalJson;
import io.agentlab.kernel.api.ContinuationDecision;
import io.agentlab.kernel.api.EventOutcome;
import io.agentlab.kernel.api.EventResult;
import io.agentlab.kernel.api.InvocationMode;
import io.agentlab.kernel.api.ResolutionOutcome;
import io.agentlab.runtime.TurnMetrics;
import io.agentlab.runtime.llm.CallRole;
import io.agentlab.runtime.protocol.ProposedEvent;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apiguardian.api.API;
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
 * @param batchStart       turn start to the batch's submission, when events ran
 * @param error            the code the turn ended with, if it failed ({@code provider_...} for a provider or protocol
 *                         error)
 * @param arguments        how the proposed and final arguments compare with the suite's argument labels
 */
@API(status = INTERNAL, since = "0.1")
public record TurnSample(String suiteId, String caseId, int turnIndex, InvocationMode mode,
                         Optional<Duration> firstVisibleTtft, Duration firstAnswerCompletion,
                         Optional<Duration> secondAnswerTtft, Duration turnWallTime, boolean ordinary,
                         List<Call> calls, int events, List<Result> results, Optional<List<String>> expectedEvents,
                         List<String> proposed, Optional<BigDecimal> cost, TurnRecord.Timing timing,
                         boolean visibleWithheld, Optional<Duration> batchStart, Optional<String> error,
                         ArgumentScore arguments) {

    /** A sample without batch start, error or argument labels. */
    public TurnSample(String suiteId, String caseId, int turnIndex, InvocationMode mode,
                      Optional<Duration> firstVisibleTtft, Duration firstAnswerCompletion,
                      Optional<Duration> secondAnswerTtft, Duration turnWallTime, boolean ordinary,
                      List<Call> calls, int events, List<Result> results, Optional<List<String>> expectedEvents,
                      List<String> proposed, Optional<BigDecimal> cost, TurnRecord.Timing timing,
                      boolean visibleWithheld) {
        this(suiteId, caseId, turnIndex, mode, firstVisibleTtft, firstAnswerCompletion, secondAnswerTtft,
                turnWallTime, ordinary, calls, events, results, expectedEvents, proposed, cost, timing, visibleWithheld,
                Optional.empty(), Optional.empty(), ArgumentScore.NONE);
    }

    /**
     * A turn's argument accuracy against the suite's labels: of the expected events that carry an argument label and
     * were proposed, how many ended with arguments containing the label (after normalization), and, of those whose
     * proposal carried arguments of its own (native tool calls; a hidden block names events only), how many of the
     * proposed arguments already contained it (before normalization).
     *
     * @param labelled    expected events with an argument label that were proposed
     * @param rightAfter  of those, final arguments containing the label
     * @param proposing   of those, proposals that carried arguments
     * @param rightBefore of those, proposed arguments containing the label
     */
    public record ArgumentScore(int labelled, int rightAfter, int proposing, int rightBefore) {
        /** Nothing labelled. */
        public static final ArgumentScore NONE = new ArgumentScore(0, 0, 0, 0);
    }

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
     * @param promptTokens     prompt tokens (0 when unknown)
     * @param completionTokens completion tokens (0 when unknown)
     * @param usageReported    whether the provider reported usage; without it the tokens are unknown, not zero
     */
    public record Call(CallRole role, Duration ttft, long promptTokens, long completionTokens, boolean usageReported) {
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
     * @param clarification   whether it ended asking the user a question ({@code needs_clarification})
     */
    public record Result(boolean resolved, boolean deterministic, boolean validBefore, boolean validAfter,
                         boolean succeeded, Optional<Duration> dispatchDelay, Optional<Duration> latency,
                         boolean clarification) {
    }

    /** The sample of a recorded turn. */
    public static TurnSample of(TurnRecord record) {
        TurnMetrics metrics = record.result().metrics();
        boolean ordinary = !(record.result().decision().orElse(null) instanceof ContinuationDecision.FollowUp)
                && record.result().error().isEmpty();
        List<Call> calls = metrics.calls().stream()
                .map(call -> new Call(call.role(), call.ttft(), call.promptTokens(), call.completionTokens(),
                        call.usageReported())).toList();
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
                    Optional.ofNullable(metrics.eventLatency().get(result.eventId())),
                    result.outcome() instanceof EventOutcome.NeedsClarification));
        }
        return new TurnSample(record.suiteId(), record.caseId(), record.turnIndex(), record.mode(),
                metrics.firstVisibleTtft(), metrics.firstAnswerCompletion(), metrics.secondAnswerTtft(),
                metrics.turnWallTime(), ordinary, calls, metrics.events(), results, record.expectedEvents(),
                record.result().proposals().stream().map(ProposedEvent::name).toList(), metrics.cost(), record.timing(),
                metrics.visibleWithheldUntilToolCalls(), metrics.batchStart(), record.result().error(),
                arguments(record));
    }

    private static ArgumentScore arguments(TurnRecord record) {
        List<String> expected = record.expectedEvents().orElse(List.of());
        List<ProposedEvent> proposals = record.result().proposals();
        List<EventResult> results = record.result().batch().map(BatchResult::results).orElse(List.of());
        boolean[] used = new boolean[proposals.size()];
        int labelled = 0;
        int rightAfter = 0;
        int proposing = 0;
        int rightBefore = 0;
        for (int i = 0; i < expected.size() && i < record.expectedArguments().size(); i++) {
            Map<String, Object> label = record.expectedArguments().get(i);
            int match = -1;
            for (int p = 0; p < proposals.size() && match < 0; p++) {
                if (!used[p] && proposals.get(p).name().equals(expected.get(i))) {
                    match = p;
                }
            }
            if (match < 0) {
                continue; // a selection miss, scored by recall
            }
            used[match] = true;
            if (label.isEmpty()) {
                continue;
            }
            labelled++;
            if (match < results.size() && contains(results.get(match).arguments(), label)) {
                rightAfter++;
            }
            ProposedEvent proposal = proposals.get(match);
            Map<String, Object> proposed = proposal.arguments();
            // a native tool call always proposes arguments, if only "{}"; a hidden block names the event alone
            if (!proposed.isEmpty() || proposal.rawArguments() != null && !proposal.rawArguments().isBlank()) {
                proposing++;
                rightBefore += contains(proposed, label) ? 1 : 0;
            }
        }
        return new ArgumentScore(labelled, rightAfter, proposing, rightBefore);
    }

    /** Whether {@code actual} has every labelled field with an equal value (as canonical JSON). */
    private static boolean contains(Map<String, Object> actual, Map<String, Object> label) {
        for (Map.Entry<String, Object> field : label.entrySet()) {
            Object value = actual.get(field.getKey());
            if (value == null || field.getValue() == null || !CanonicalJson.write(Map.of("v", field.getValue()))
                    .equals(CanonicalJson.write(Map.of("v", value)))) {
                return false;
            }
        }
        return true;
    }

    /** Whether the turn ended with a provider or protocol error: not the model's mistake, and counted apart. */
    public boolean providerError() {
        return error.filter(code -> code.startsWith("provider_")).isPresent();
    }

    /** Whether the first visible character came before the batch was submitted (when events ran at all). */
    public Optional<Boolean> visibleBeforeEvents() {
        return batchStart.map(start -> firstVisibleTtft.filter(ttft -> ttft.compareTo(start) <= 0).isPresent());
    }

    /** The ChatAgent calls (first answer and follow-up), not the EventAgent's. */
    public List<Call> chatCalls() {
        return calls.stream().filter(call -> call.role() != CallRole.EVENT_AGENT).toList();
    }

    /** Whether every ChatAgent call reported usage; if one did not, the turn's ChatAgent tokens are unknown. */
    public boolean chatUsageKnown() {
        return chatCalls().stream().allMatch(Call::usageReported);
    }

    /** Whether every call of {@code role} reported usage. */
    public boolean usageKnown(CallRole role) {
        return calls.stream().filter(call -> call.role() == role).allMatch(Call::usageReported);
    }

    /** Whether every call of the turn reported usage. */
    public boolean usageKnown() {
        return calls.stream().allMatch(Call::usageReported);
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
            c.put("usageReported", call.usageReported());
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
            r.put("clarification", result.clarification());
            return r;
        }).toList());
        map.put("expectedEvents", expectedEvents.orElse(null));
        map.put("proposed", proposed);
        map.put("cost", cost.map(BigDecimal::toPlainString).orElse(null));
        map.put("timing", timing.wireName());
        map.put("visibleWithheld", visibleWithheld);
        map.put("batchStartNs", batchStart.map(Duration::toNanos).orElse(null));
        map.put("error", error.orElse(null));
        map.put("arguments", List.of(arguments.labelled(), arguments.rightAfter(), arguments.proposing(),
                arguments.rightBefore()));
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
                c.path("completionTokens").asLong(), c.path("usageReported").asBoolean(true))));
        List<Result> results = new ArrayList<>();
        s.path("results").forEach(r -> results.add(new Result(r.path("resolved").asBoolean(),
                r.path("deterministic").asBoolean(), r.path("validBefore").asBoolean(), r.path("validAfter").asBoolean(),
                r.path("succeeded").asBoolean(), nanos(r.path("dispatchDelayNs")), nanos(r.path("latencyNs")),
                r.path("clarification").asBoolean(false))));
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
                s.path("visibleWithheld").asBoolean(), nanos(s.path("batchStartNs")),
                s.path("error").isString() ? Optional.of(s.path("error").asString()) : Optional.empty(),
                s.path("arguments").size() == 4 ? new ArgumentScore(s.path("arguments").get(0).asInt(),
                        s.path("arguments").get(1).asInt(), s.path("arguments").get(2).asInt(),
                        s.path("arguments").get(3).asInt()) : ArgumentScore.NONE);
    }

    private static Optional<Duration> nanos(JsonNode node) {
        return node.isNumber() ? Optional.of(Duration.ofNanos(node.asLong())) : Optional.empty();
    }
}
