package io.agentlab.kernel.api;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * A finished batch: every event's result in input order and the continuation decision.
 *
 * @param results  one result per request, in input order
 * @param decision what the turn does next
 * @param wallTime submit to last result
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record BatchResult(List<EventResult> results, ContinuationDecision decision, Duration wallTime) {
    /** Rejects nulls and copies the results. */
    public BatchResult {
        results = List.copyOf(results);
        Objects.requireNonNull(decision, "decision");
        Objects.requireNonNull(wallTime, "wallTime");
    }
}
