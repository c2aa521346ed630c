package io.agentlab.runtime;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.agentlab.kernel.api.InvocationMode;
import io.agentlab.runtime.llm.CallRole;
import io.agentlab.runtime.usage.CostSource;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * Every measure of {@code docs/design.md#metrics-per-mode} one turn yields. Durations are measured on the runtime's
 * injectable clock from the moment the turn started.
 *
 * @param mode                      the invocation mode
 * @param turnId                    the turn
 * @param firstVisibleTtft          turn start to the first visible delta of the first answer
 * @param firstAnswerCompletion     turn start to the end of the first ChatAgent stream
 * @param secondAnswerTtft          turn start to the first visible delta of the follow-up answer
 * @param eventDispatchDelay        per event id: end of the first answer to its handler start
 * @param eventLatency              per event id: handler execution time
 * @param turnWallTime              turn start to turn end
 * @param calls                     per model call: role, call TTFT, duration, tokens
 * @param llmCalls                  model calls per role
 * @param fallbackCalls             EventAgent fallback calls made
 * @param events                    events in the batch
 * @param validBeforeNormalization  events whose arguments were complete and valid before normalization
 * @param validAfterNormalization   events whose final arguments were valid
 * @param succeededEvents           events that succeeded
 * @param cost                      the turn's cost, if priced
 * @param costSource                where the cost came from
 * @param visibleWithheldUntilToolCalls tools mode: the provider streamed tool calls before any visible content
 * @param batchStart                turn start to the batch's submission to the kernel, when events ran (the origin of
 *                                  each event's {@code EventTimings} offsets)
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record TurnMetrics(InvocationMode mode, String turnId, Optional<Duration> firstVisibleTtft,
                          Duration firstAnswerCompletion, Optional<Duration> secondAnswerTtft,
                          Map<String, Duration> eventDispatchDelay, Map<String, Duration> eventLatency,
                          Duration turnWallTime, List<CallMetrics> calls, Map<CallRole, Integer> llmCalls,
                          int fallbackCalls, int events, int validBeforeNormalization, int validAfterNormalization,
                          int succeededEvents, Optional<BigDecimal> cost, CostSource costSource,
                          boolean visibleWithheldUntilToolCalls, Optional<Duration> batchStart) {

    /**
     * One model call's figures.
     *
     * @param role         why it was made
     * @param ttft         call TTFT (first stream item)
     * @param duration     the whole stream
     * @param promptTokens prompt tokens (0 when the provider reported no usage)
     * @param completionTokens completion tokens (0 when the provider reported no usage)
     * @param cachedPromptTokens cached prompt tokens
     * @param usageReported whether the provider reported usage; without it the tokens are unknown, not zero, and
     *                      stay out of every token figure ({@code docs/design.md#usage-missing-unknown})
     */
    public record CallMetrics(CallRole role, Duration ttft, Duration duration, long promptTokens,
                              long completionTokens, long cachedPromptTokens, boolean usageReported) {
    }

    /** Prompt tokens of the calls with {@code role}. */
    public long promptTokens(CallRole role) {
        return calls.stream().filter(c -> c.role() == role).mapToLong(CallMetrics::promptTokens).sum();
    }

    /** A one-line human summary. */
    public String summary() {
        return String.format("mode=%s firstVisibleTtft=%s firstAnswer=%s secondAnswerTtft=%s wall=%s calls=%s "
                        + "chatPromptTokens=%d fallbackCalls=%d events=%d succeeded=%d cost=%s (%s)",
                mode.wireName(), firstVisibleTtft.map(TurnMetrics::ms).orElse("-"), ms(firstAnswerCompletion),
                secondAnswerTtft.map(TurnMetrics::ms).orElse("-"), ms(turnWallTime), llmCalls,
                promptTokens(CallRole.CHAT), fallbackCalls, events, succeededEvents,
                cost.map(BigDecimal::toPlainString).orElse("-"), costSource.wireName());
    }

    private static String ms(Duration duration) {
        return String.format("%.1fms", duration.toNanos() / 1e6);
    }
}
