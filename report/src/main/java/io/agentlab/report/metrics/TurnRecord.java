package io.agentlab.report.metrics;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.agentlab.kernel.api.BatchResult;
import io.agentlab.kernel.api.CanonicalJson;
import io.agentlab.kernel.api.ContinuationDecision;
import io.agentlab.kernel.api.EventResult;
import io.agentlab.kernel.api.InvocationMode;
import io.agentlab.kernel.api.OutcomeStatus;
import io.agentlab.kernel.api.ResolutionOutcome;
import io.agentlab.runtime.TurnMetrics;
import io.agentlab.runtime.TurnResult;
import io.agentlab.runtime.llm.CallRole;
import io.agentlab.runtime.protocol.ProposedEvent;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.apiguardian.api.API;
import tools.jackson.databind.JsonNode;

/**
 * One turn in one mode as the run keeps it: the one record the engine makes of a {@link TurnResult}, the one form
 * {@code metrics.json} persists, and the source of each view the reports need — {@link #sample()} for the per-mode
 * metrics, {@link #timeline()} for the turn figures, {@link MetricsReport#turnFigures} for report entries
 * ({@code docs/engine.md#one-turn-record}). It keeps what those views read and nothing more (no request bodies, no
 * raw streams: those are the audit's), and it reads back exactly: durations in nanoseconds, the cost as a decimal
 * string, so shards merge into the figures one run would give and a merged report draws every turn's timeline.
 *
 * @param suiteId        the suite
 * @param caseId         the case
 * @param turnIndex      the turn's position (from 0)
 * @param mode           the mode
 * @param userText       what the user said
 * @param timing         where the turn's stream timing came from
 * @param expectedEvents the events the suite expects, when it says (the ground truth of selection precision/recall)
 * @param arguments      how the proposed and final arguments compare with the suite's argument labels
 * @param clock          the turn's milestones on its own clock
 * @param calls          the model calls, in the order the runtime made them
 * @param events         the batch's results, in input order, clones included
 * @param proposed       the names of the events the model proposed, in order
 * @param cost           the turn's cost, if every call was priced
 * @param visibleWithheld the provider streamed its tool calls before any visible content
 *                       ({@code docs/design.md#modes-visible-withheld-recorded})
 * @param followUp       whether the continuation policy asked for a second answer
 * @param error          the code the turn ended with, if it failed ({@code provider_...} for a provider or protocol
 *                       error) * @param overTheWire    the turn was judged over the wire: what only the runtime's inside holds was not measured, and
 *                       the measures that need it take nothing from the turn (docs/wire.md#observability)
 */
@API(status = INTERNAL, since = "0.1")
public record TurnRecord(String suiteId, String caseId, int turnIndex, InvocationMode mode, String userText,
                         Timing timing, Optional<List<String>> expectedEvents, TurnSample.ArgumentScore arguments,
                         Clock clock, List<Call> calls, List<Event> events, List<String> proposed,
                         Optional<BigDecimal> cost, boolean visibleWithheld, boolean followUp,
                         Optional<String> error, boolean overTheWire) {

    /** The record of a turn in-process. */
    public TurnRecord(String suiteId, String caseId, int turnIndex, InvocationMode mode, String userText,
                      Timing timing, Optional<List<String>> expectedEvents, TurnSample.ArgumentScore arguments,
                      Clock clock, List<Call> calls, List<Event> events, List<String> proposed,
                      Optional<BigDecimal> cost, boolean visibleWithheld, boolean followUp, Optional<String> error) {
        this(suiteId, caseId, turnIndex, mode, userText, timing, expectedEvents, arguments, clock, calls, events,
                proposed, cost, visibleWithheld, followUp, error, false);
    }

    /** Rejects nulls; copies the lists. */
    public TurnRecord {
        Objects.requireNonNull(suiteId, "suiteId");
        Objects.requireNonNull(caseId, "caseId");
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(userText, "userText");
        Objects.requireNonNull(timing, "timing");
        Objects.requireNonNull(arguments, "arguments");
        Objects.requireNonNull(clock, "clock");
        Objects.requireNonNull(cost, "cost");
        Objects.requireNonNull(error, "error");
        expectedEvents = expectedEvents.map(List::copyOf);
        calls = List.copyOf(calls);
        events = List.copyOf(events);
        proposed = List.copyOf(proposed);
    }

    /**
     * Where a turn's timing came from ({@code docs/design.md#provider-synthesized-labelled}): only recorded and live
     * streams are measurements; a synthesized stream follows the documented latency model, and every figure drawn from
     * it is labelled a model.
     */
    public enum Timing {
        /** Recorded offsets replayed (scaled by the replay speed). */
        RECORDED,
        /** Synthesized: the latency model's offsets. */
        MODELLED,
        /** A live provider: measured. */
        LIVE;

        /** The lower-case name, as written in {@code metrics.json}. */
        public String wireName() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * A turn's milestones, from its start.
     *
     * @param wall             turn start to end
     * @param firstVisible     the first visible character of the first answer, if any was shown
     * @param firstAnswerEnd   the end of the first answer
     * @param batchStart       the batch's submission to the kernel, when events ran
     * @param followUpVisible  the follow-up's first visible character, if there was one
     */
    public record Clock(Duration wall, Optional<Duration> firstVisible, Duration firstAnswerEnd,
                        Optional<Duration> batchStart, Optional<Duration> followUpVisible) {
        /** Rejects nulls. */
        public Clock {
            Objects.requireNonNull(wall, "wall");
            Objects.requireNonNull(firstVisible, "firstVisible");
            Objects.requireNonNull(firstAnswerEnd, "firstAnswerEnd");
            Objects.requireNonNull(batchStart, "batchStart");
            Objects.requireNonNull(followUpVisible, "followUpVisible");
        }
    }

    /**
     * One model call.
     *
     * @param role             why it was made
     * @param model            the model it named
     * @param started          turn start to its request
     * @param ttft             call TTFT: its request to the first stream item
     * @param total            its request to its stream's end
     * @param promptTokens     prompt tokens (0 when unknown)
     * @param completionTokens completion tokens (0 when unknown)
     * @param usageReported    whether the provider reported usage; without it the tokens are unknown, not zero
     * @param error            the provider failure code, if it failed
     */
    public record Call(CallRole role, String model, Duration started, Duration ttft, Duration total,
                       long promptTokens, long completionTokens, boolean usageReported, Optional<String> error) {
    }

    /**
     * One result of the batch.
     *
     * @param id             its id in the turn
     * @param name           its name
     * @param status         how it ended
     * @param resolution     how its arguments were resolved
     * @param validBefore    valid as proposed
     * @param validAfter     valid after normalization
     * @param dispatchDelay  end of the first answer to its handler's start, if it started (the runtime's figure)
     * @param dispatchOffset the batch's submission to its handler's start, if it started
     * @param execution      its handler's execution, if it ran
     * @param completion     the batch's submission to the moment its result was final
     */
    public record Event(String id, String name, OutcomeStatus status, ResolutionOutcome resolution,
                        boolean validBefore, boolean validAfter, Optional<Duration> dispatchDelay,
                        Optional<Duration> dispatchOffset, Optional<Duration> execution, Duration completion) {

        /** A clone of a logical event (deduplicated or replayed), which counts for nothing in the metrics. */
        public boolean cloned() {
            return status == OutcomeStatus.DEDUPLICATED || status == OutcomeStatus.REPLAYED;
        }
    }

    /**
     * The record of a turn the runtime returned.
     *
     * @param expectedArguments per expected event, in order, the arguments the suite expects of it (empty when it says
     *                          none): the labels argument accuracy is scored against
     */
    public static TurnRecord of(String suiteId, String caseId, int turnIndex, InvocationMode mode, String userText,
                                Timing timing, Optional<List<String>> expectedEvents,
                                List<Map<String, Object>> expectedArguments, TurnResult result) {
        return of(suiteId, caseId, turnIndex, mode, userText, timing, expectedEvents, expectedArguments, result, false);
    }

    /**
     * The record of a turn the runtime returned, {@code overTheWire} or in-process.
     *
     * @param expectedArguments per expected event, in order, the arguments the suite expects of it
     * @param overTheWire       whether the turn was judged over the wire (docs/wire.md#observability)
     */
    public static TurnRecord of(String suiteId, String caseId, int turnIndex, InvocationMode mode, String userText,
                                Timing timing, Optional<List<String>> expectedEvents,
                                List<Map<String, Object>> expectedArguments, TurnResult result, boolean overTheWire) {
        TurnMetrics metrics = result.metrics();
        List<Call> calls = result.calls().stream().map(call -> new Call(call.role(), call.model(), call.started(),
                call.firstItem(), call.total(), call.usage().inputTokens(), call.usage().outputTokens(),
                call.usage().present(), call.error())).toList();
        List<EventResult> results = result.batch().map(BatchResult::results).orElse(List.of());
        List<Event> events = results.stream().map(event -> new Event(event.eventId(), event.name(),
                event.outcome().outcomeStatus(), event.resolution().outcome(),
                event.resolution().validBeforeNormalization(), event.resolution().validAfterNormalization(),
                Optional.ofNullable(metrics.eventDispatchDelay().get(event.eventId())),
                event.timings().dispatchOffset(), event.timings().execution(), event.timings().completion())).toList();
        Clock clock = new Clock(metrics.turnWallTime(), metrics.firstVisibleTtft(), metrics.firstAnswerCompletion(),
                metrics.batchStart(), metrics.secondAnswerTtft());
        return new TurnRecord(suiteId, caseId, turnIndex, mode, userText, timing, expectedEvents,
                arguments(expectedEvents.orElse(List.of()), expectedArguments, result.proposals(), results), clock,
                calls, events, result.proposals().stream().map(ProposedEvent::name).toList(), metrics.cost(),
                metrics.visibleWithheldUntilToolCalls(),
                result.decision().orElse(null) instanceof ContinuationDecision.FollowUp, result.error(), overTheWire);
    }

    /** The view the per-mode metrics read. */
    public TurnSample sample() {
        List<TurnSample.Call> sampleCalls = calls.stream().map(call -> new TurnSample.Call(call.role(), call.ttft(),
                call.promptTokens(), call.completionTokens(), call.usageReported())).toList();
        List<TurnSample.Result> results = events.stream().filter(event -> !event.cloned())
                .map(event -> new TurnSample.Result(event.resolution() != ResolutionOutcome.NOT_ATTEMPTED,
                        event.resolution() == ResolutionOutcome.DETERMINISTIC, event.validBefore(), event.validAfter(),
                        event.status() == OutcomeStatus.SUCCEEDED, event.dispatchDelay(), event.execution(),
                        event.status() == OutcomeStatus.NEEDS_CLARIFICATION)).toList();
        return new TurnSample(suiteId, caseId, turnIndex, mode, clock.firstVisible(), clock.firstAnswerEnd(),
                clock.followUpVisible(), clock.wall(), !followUp && error.isEmpty(), sampleCalls, events.size(),
                results, expectedEvents, proposed, cost, timing, visibleWithheld, clock.batchStart(), error, arguments,
                overTheWire);
    }

    /** The view the reports draw: the turn on its own clock in milliseconds. */
    public TurnTimeline timeline() {
        List<TurnTimeline.Call> lanes = new ArrayList<>();
        Optional<Double> followUpEnd = Optional.empty();
        for (Call call : calls) {
            double start = ms(call.started());
            TurnTimeline.Call lane = new TurnTimeline.Call(call.role(), call.model(), start, start + ms(call.ttft()),
                    start + ms(call.total()), call.promptTokens(), call.completionTokens(), call.usageReported(),
                    call.error());
            lanes.add(lane);
            if (call.role() == CallRole.FOLLOW_UP) {
                followUpEnd = Optional.of(lane.endMs());
            }
        }
        lanes.sort(Comparator.comparingDouble(TurnTimeline.Call::startMs));
        Optional<Double> batchStart = clock.batchStart().map(TurnRecord::ms);
        double origin = batchStart.orElse(ms(clock.firstAnswerEnd()));
        List<TurnTimeline.Event> bars = new ArrayList<>();
        for (Event event : events) {
            Optional<Double> started = event.dispatchOffset().map(offset -> origin + ms(offset));
            Optional<Double> handlerEnd = started.flatMap(s -> event.execution().map(e -> s + ms(e)));
            bars.add(new TurnTimeline.Event(event.id(), event.name(), event.status().wireName(),
                    event.resolution() == ResolutionOutcome.FALLBACK, origin, started, handlerEnd,
                    origin + ms(event.completion())));
        }
        return new TurnTimeline(suiteId, caseId, turnIndex, userText, mode, timing, ms(clock.wall()),
                clock.firstVisible().map(TurnRecord::ms), ms(clock.firstAnswerEnd()), batchStart,
                clock.followUpVisible().map(TurnRecord::ms), followUpEnd, lanes, bars, visibleWithheld, error);
    }

    /**
     * The record as JSON-ready values, under a turn that names its suite, case, mode and turn: durations in
     * nanoseconds and the cost as a decimal string, both exact.
     */
    public Map<String, Object> toMap() {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("userText", userText);
        map.put("timing", timing.wireName());
        map.put("expectedEvents", expectedEvents.orElse(null));
        map.put("arguments", List.of(arguments.labelled(), arguments.rightAfter(), arguments.proposing(),
                arguments.rightBefore()));
        map.put("wallNs", clock.wall().toNanos());
        map.put("firstVisibleNs", nanos(clock.firstVisible()));
        map.put("firstAnswerEndNs", clock.firstAnswerEnd().toNanos());
        map.put("batchStartNs", nanos(clock.batchStart()));
        map.put("followUpVisibleNs", nanos(clock.followUpVisible()));
        map.put("calls", calls.stream().map(call -> {
            Map<String, Object> c = new LinkedHashMap<>();
            c.put("role", call.role().wireName());
            c.put("model", call.model());
            c.put("startedNs", call.started().toNanos());
            c.put("ttftNs", call.ttft().toNanos());
            c.put("totalNs", call.total().toNanos());
            c.put("promptTokens", call.promptTokens());
            c.put("completionTokens", call.completionTokens());
            c.put("usageReported", call.usageReported());
            c.put("error", call.error().orElse(null));
            return c;
        }).toList());
        map.put("events", events.stream().map(event -> {
            Map<String, Object> e = new LinkedHashMap<>();
            e.put("id", event.id());
            e.put("name", event.name());
            e.put("status", event.status().wireName());
            e.put("resolution", event.resolution().name().toLowerCase(Locale.ROOT));
            e.put("validBefore", event.validBefore());
            e.put("validAfter", event.validAfter());
            e.put("dispatchDelayNs", nanos(event.dispatchDelay()));
            e.put("dispatchOffsetNs", nanos(event.dispatchOffset()));
            e.put("executionNs", nanos(event.execution()));
            e.put("completionNs", event.completion().toNanos());
            return e;
        }).toList());
        map.put("proposed", proposed);
        map.put("cost", cost.map(BigDecimal::toPlainString).orElse(null));
        map.put("visibleWithheld", visibleWithheld);
        map.put("followUp", followUp);
        map.put("error", error.orElse(null));
        if (overTheWire) {
            map.put("overTheWire", true); // in-process records stay as they were
        }
        return map;
    }

    /**
     * Reads a record written by {@link #toMap()} under a turn's {@code record}, with the turn's {@code suite},
     * {@code case}, {@code mode} and {@code turn}.
     *
     * @throws IllegalArgumentException when the turn has no record, or a value is not one this kit writes
     */
    static TurnRecord fromJson(JsonNode turn) {
        JsonNode r = turn.path("record");
        String where = "turn " + turn.path("suite").asString() + "/" + turn.path("case").asString() + " "
                + turn.path("mode").asString() + " " + turn.path("turn").asInt();
        if (!r.isObject()) {
            throw new IllegalArgumentException(where + " has no record (a metrics.json written by an older kit? "
                    + "run it again with this one)");
        }
        try {
            List<Call> calls = new ArrayList<>();
            r.path("calls").forEach(c -> calls.add(new Call(CallRole.valueOf(c.path("role").asString().toUpperCase(Locale.ROOT)),
                    c.path("model").asString(), Duration.ofNanos(c.path("startedNs").asLong()),
                    Duration.ofNanos(c.path("ttftNs").asLong()), Duration.ofNanos(c.path("totalNs").asLong()),
                    c.path("promptTokens").asLong(), c.path("completionTokens").asLong(),
                    c.path("usageReported").asBoolean(true), text(c.path("error")))));
            List<Event> events = new ArrayList<>();
            r.path("events").forEach(e -> events.add(new Event(e.path("id").asString(), e.path("name").asString(),
                    OutcomeStatus.fromWireName(e.path("status").asString()).orElseThrow(() ->
                            new IllegalArgumentException("unknown status '" + e.path("status").asString() + "'")),
                    ResolutionOutcome.valueOf(e.path("resolution").asString().toUpperCase(Locale.ROOT)),
                    e.path("validBefore").asBoolean(), e.path("validAfter").asBoolean(),
                    nanos(e.path("dispatchDelayNs")), nanos(e.path("dispatchOffsetNs")), nanos(e.path("executionNs")),
                    Duration.ofNanos(e.path("completionNs").asLong()))));
            Optional<List<String>> expected = r.path("expectedEvents").isArray()
                    ? Optional.of(strings(r.path("expectedEvents"))) : Optional.empty();
            JsonNode a = r.path("arguments");
            TurnSample.ArgumentScore arguments = a.size() == 4 ? new TurnSample.ArgumentScore(a.get(0).asInt(),
                    a.get(1).asInt(), a.get(2).asInt(), a.get(3).asInt()) : TurnSample.ArgumentScore.NONE;
            Clock clock = new Clock(Duration.ofNanos(r.path("wallNs").asLong()), nanos(r.path("firstVisibleNs")),
                    Duration.ofNanos(r.path("firstAnswerEndNs").asLong()), nanos(r.path("batchStartNs")),
                    nanos(r.path("followUpVisibleNs")));
            return new TurnRecord(turn.path("suite").asString(), turn.path("case").asString(),
                    turn.path("turn").asInt() - 1, InvocationMode.fromWireName(turn.path("mode").asString()),
                    r.path("userText").asString(""),
                    Timing.valueOf(r.path("timing").asString("modelled").toUpperCase(Locale.ROOT)), expected,
                    arguments, clock, calls, events, strings(r.path("proposed")),
                    text(r.path("cost")).map(BigDecimal::new), r.path("visibleWithheld").asBoolean(),
                    r.path("followUp").asBoolean(), text(r.path("error")), r.path("overTheWire").asBoolean(false));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(where + ": " + e.getMessage(), e);
        }
    }

    private static TurnSample.ArgumentScore arguments(List<String> expected, List<Map<String, Object>> labels,
                                                      List<ProposedEvent> proposals, List<EventResult> results) {
        boolean[] used = new boolean[proposals.size()];
        int labelled = 0;
        int rightAfter = 0;
        int proposing = 0;
        int rightBefore = 0;
        for (int i = 0; i < expected.size() && i < labels.size(); i++) {
            Map<String, Object> label = labels.get(i);
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
            Map<String, Object> proposedArguments = proposal.arguments();
            // a native tool call always proposes arguments, if only "{}"; a hidden block names the event alone
            if (!proposedArguments.isEmpty() || proposal.rawArguments() != null && !proposal.rawArguments().isBlank()) {
                proposing++;
                rightBefore += contains(proposedArguments, label) ? 1 : 0;
            }
        }
        return new TurnSample.ArgumentScore(labelled, rightAfter, proposing, rightBefore);
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

    private static List<String> strings(JsonNode array) {
        List<String> values = new ArrayList<>();
        array.forEach(value -> values.add(value.asString()));
        return values;
    }

    private static Optional<String> text(JsonNode node) {
        return node.isString() ? Optional.of(node.asString()) : Optional.empty();
    }

    private static Long nanos(Optional<Duration> duration) {
        return duration.map(Duration::toNanos).orElse(null);
    }

    private static Optional<Duration> nanos(JsonNode node) {
        return node.isNumber() ? Optional.of(Duration.ofNanos(node.asLong())) : Optional.empty();
    }

    private static double ms(Duration duration) {
        return Math.round(duration.toNanos() / 1e3) / 1e3;
    }
}
