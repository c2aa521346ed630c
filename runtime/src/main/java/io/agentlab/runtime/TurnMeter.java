package io.agentlab.runtime;

import io.agentlab.kernel.api.BatchResult;
import io.agentlab.kernel.api.EventOutcome;
import io.agentlab.kernel.api.EventResult;
import io.agentlab.kernel.api.InvocationMode;
import io.agentlab.kernel.api.ResolutionReport;
import io.agentlab.runtime.llm.CallRole;
import io.agentlab.runtime.usage.PricingCatalog;
import io.agentlab.runtime.usage.TurnCost;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.LongSupplier;

/**
 * One turn's clock marks and the {@link TurnMetrics} they yield ({@code docs/design.md#metrics-per-mode}). Every mark
 * is read from the runtime's injectable monotonic clock; each is taken once, by the thread running the turn.
 */
final class TurnMeter {

    private final LongSupplier nanoTime;
    private final long start;
    private Long firstVisible;
    private Long secondVisible;
    private long firstAnswerEnd;
    private long batchSubmitted;

    TurnMeter(LongSupplier nanoTime) {
        this.nanoTime = nanoTime;
        this.start = nanoTime.getAsLong();
    }

    /** The turn's start, the origin of every offset. */
    long start() {
        return start;
    }

    /** A visible delta of the first answer (the first one counts). */
    void firstVisible() {
        if (firstVisible == null) {
            firstVisible = nanoTime.getAsLong();
        }
    }

    /** A visible delta of the follow-up answer (the first one counts). */
    void secondVisible() {
        if (secondVisible == null) {
            secondVisible = nanoTime.getAsLong();
        }
    }

    /** The first answer's stream ended (or the turn stopped before it did); the first mark counts. */
    void firstAnswerEnded() {
        if (firstAnswerEnd == 0) {
            firstAnswerEnd = nanoTime.getAsLong();
        }
    }

    /** The batch was handed to the kernel. */
    void batchSubmitted() {
        batchSubmitted = nanoTime.getAsLong();
    }

    /** The metrics at the turn's end. */
    TurnMetrics metrics(InvocationMode mode, String turnId, List<CallRecord> calls, BatchResult batch,
                        boolean visibleWithheldUntilToolCalls, PricingCatalog pricing) {
        long end = nanoTime.getAsLong();
        Map<CallRole, Integer> perRole = new EnumMap<>(CallRole.class);
        List<TurnMetrics.CallMetrics> callMetrics = new ArrayList<>();
        List<TurnCost.Call> priced = new ArrayList<>();
        for (CallRecord call : calls) {
            perRole.merge(call.role(), 1, Integer::sum);
            callMetrics.add(new TurnMetrics.CallMetrics(call.role(), call.firstItem(), call.total(),
                    call.usage().inputTokens(), call.usage().outputTokens(), call.usage().cachedPromptTokens(),
                    call.usage().present()));
            priced.add(new TurnCost.Call(call.model(), call.usage()));
        }
        Map<String, Duration> dispatch = new LinkedHashMap<>();
        Map<String, Duration> latency = new LinkedHashMap<>();
        int validBefore = 0;
        int validAfter = 0;
        int succeeded = 0;
        if (batch != null) {
            for (EventResult event : batch.results()) {
                event.timings().dispatchOffset().ifPresent(offset -> dispatch.put(event.eventId(),
                        Duration.ofNanos(batchSubmitted - firstAnswerEnd).plus(offset)));
                event.timings().execution().ifPresent(execution -> latency.put(event.eventId(), execution));
                ResolutionReport report = event.resolution();
                validBefore += report.validBeforeNormalization() ? 1 : 0;
                validAfter += report.validAfterNormalization() ? 1 : 0;
                succeeded += event.outcome() instanceof EventOutcome.Succeeded ? 1 : 0;
            }
        }
        TurnCost cost = TurnCost.of(priced, pricing);
        return new TurnMetrics(mode, turnId, since(firstVisible), Duration.ofNanos((firstAnswerEnd == 0 ? end
                : firstAnswerEnd) - start), since(secondVisible), dispatch, latency, Duration.ofNanos(end - start),
                callMetrics, perRole, perRole.getOrDefault(CallRole.EVENT_AGENT, 0),
                batch == null ? 0 : batch.results().size(), validBefore, validAfter, succeeded, cost.amount(),
                cost.source(), visibleWithheldUntilToolCalls,
                batch == null ? Optional.empty() : Optional.of(Duration.ofNanos(batchSubmitted - start)));
    }

    private Optional<Duration> since(Long mark) {
        return Optional.ofNullable(mark).map(t -> Duration.ofNanos(t - start));
    }
}
