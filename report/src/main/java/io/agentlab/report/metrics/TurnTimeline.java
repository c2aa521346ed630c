package io.agentlab.report.metrics;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.agentlab.kernel.api.InvocationMode;
import io.agentlab.runtime.llm.CallRole;
import java.util.List;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * One turn in one mode on its own clock (milliseconds from the turn's start): when the first visible character
 * appeared and the first answer ended, when each event was dispatched, ran and finished, the follow-up's first
 * character and end, and every model call with its tokens: the reports' view of one {@link TurnRecord}
 * ({@link TurnRecord#timeline()}); nothing is estimated.
 * A synthesized stream's times are the latency model's ({@link #timing()}).
 *
 * @param suiteId         the suite
 * @param caseId          the case
 * @param turnIndex       the turn's position (from 0)
 * @param userText        what the user said
 * @param mode            the mode
 * @param timing          recorded, modelled or live
 * @param wallMs          turn start to turn end
 * @param firstVisibleMs  the first visible character of the first answer, if any was shown
 * @param firstAnswerEndMs the end of the first answer
 * @param batchStartMs    the batch's submission to the kernel, when events ran
 * @param followUpFirstMs the follow-up's first visible character, if there was one
 * @param followUpEndMs   the end of the follow-up call, if there was one
 * @param calls           the model calls, by start
 * @param events          the batch's events, in input order
 * @param visibleWithheld the provider streamed its tool calls before any visible content
 *                        ({@code docs/design.md#modes-visible-withheld-recorded})
 * @param error           the error code that ended the turn, if any
 */
@API(status = INTERNAL, since = "0.1")
public record TurnTimeline(String suiteId, String caseId, int turnIndex, String userText, InvocationMode mode,
                           TurnRecord.Timing timing, double wallMs, Optional<Double> firstVisibleMs,
                           double firstAnswerEndMs, Optional<Double> batchStartMs, Optional<Double> followUpFirstMs,
                           Optional<Double> followUpEndMs, List<Call> calls, List<Event> events,
                           boolean visibleWithheld, Optional<String> error) {

    /** Copies the lists. */
    public TurnTimeline {
        calls = List.copyOf(calls);
        events = List.copyOf(events);
    }

    /**
     * A model call.
     *
     * @param role             why it was made
     * @param model            the model it named
     * @param startMs          its request
     * @param firstItemMs      its first stream item (call TTFT after {@code startMs})
     * @param endMs            its stream's end
     * @param promptTokens     prompt tokens
     * @param completionTokens completion tokens
     * @param usageReported    whether the provider reported usage (else both counts are unknown)
     * @param error            the provider failure code, if it failed
     */
    public record Call(CallRole role, String model, double startMs, double firstItemMs, double endMs,
                       long promptTokens, long completionTokens, boolean usageReported, Optional<String> error) {

        /** {@code "120 → 8"}, or {@code "usage unknown"}: a missing count is never shown as zero. */
        public String tokens(String arrow) {
            return usageReported ? promptTokens + arrow + completionTokens : "usage unknown";
        }
    }

    /**
     * An event of the batch.
     *
     * @param id           its id in the turn
     * @param name         its name
     * @param status       how it ended ({@code succeeded}, {@code failed}, {@code deduplicated}, ...)
     * @param fallback     whether the EventAgent fallback filled its arguments
     * @param dispatchedMs the batch's submission
     * @param startedMs    its handler's start, if the handler ran
     * @param handlerEndMs its handler's end, if the handler ran
     * @param finishedMs   the moment its result was final
     */
    public record Event(String id, String name, String status, boolean fallback, double dispatchedMs,
                        Optional<Double> startedMs, Optional<Double> handlerEndMs, double finishedMs) {
    }

    /** The latest moment on this timeline, so lanes of several modes can share one axis. */
    public double endMs() {
        double end = Math.max(wallMs, firstAnswerEndMs);
        for (Call call : calls) {
            end = Math.max(end, call.endMs());
        }
        for (Event event : events) {
            end = Math.max(end, event.finishedMs());
        }
        return end;
    }
}
