package io.agentlab.report.metrics;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.agentlab.kernel.api.InvocationMode;
import io.agentlab.runtime.llm.CallRole;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * The per-mode metrics' view of one {@link TurnRecord} ({@link TurnRecord#sample()}): what the metric catalogue reads
 * of a turn, and nothing more. It is not persisted; the record is ({@code docs/engine.md#one-turn-record}).
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
 * @param overTheWire      the turn was judged over the wire, so the measures {@link Metric#observableOverTheWire()}
 *                         denies take nothing from it (docs/wire.md#observability)
 */
@API(status = INTERNAL, since = "0.1")
public record TurnSample(String suiteId, String caseId, int turnIndex, InvocationMode mode,
                         Optional<Duration> firstVisibleTtft, Duration firstAnswerCompletion,
                         Optional<Duration> secondAnswerTtft, Duration turnWallTime, boolean ordinary,
                         List<Call> calls, int events, List<Result> results, Optional<List<String>> expectedEvents,
                         List<String> proposed, Optional<BigDecimal> cost, TurnRecord.Timing timing,
                         boolean visibleWithheld, Optional<Duration> batchStart, Optional<String> error,
                         ArgumentScore arguments, boolean overTheWire) {

    /** A sample of a turn in-process. */
    public TurnSample(String suiteId, String caseId, int turnIndex, InvocationMode mode,
                      Optional<Duration> firstVisibleTtft, Duration firstAnswerCompletion,
                      Optional<Duration> secondAnswerTtft, Duration turnWallTime, boolean ordinary,
                      List<Call> calls, int events, List<Result> results, Optional<List<String>> expectedEvents,
                      List<String> proposed, Optional<BigDecimal> cost, TurnRecord.Timing timing,
                      boolean visibleWithheld, Optional<Duration> batchStart, Optional<String> error,
                      ArgumentScore arguments) {
        this(suiteId, caseId, turnIndex, mode, firstVisibleTtft, firstAnswerCompletion, secondAnswerTtft,
                turnWallTime, ordinary, calls, events, results, expectedEvents, proposed, cost, timing, visibleWithheld,
                batchStart, error, arguments, false);
    }

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
}
