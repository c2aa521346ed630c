package io.agentlab.kernel.api;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * Where an event spent its time, as offsets and durations relative to the batch start ({@code
 * docs/design.md#metrics-per-mode}: event-dispatch delay and per-event latency).
 *
 * @param resolution     time spent resolving, normalizing, validating and in any fallback
 * @param dispatchOffset batch start to handler start; empty when the handler never ran
 * @param execution      handler time including a retry; empty when the handler never ran
 * @param completion     batch start to the moment the result was final
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record EventTimings(
        Duration resolution,
        Optional<Duration> dispatchOffset,
        Optional<Duration> execution,
        Duration completion) {
    /** Rejects nulls. */
    public EventTimings {
        Objects.requireNonNull(resolution, "resolution");
        Objects.requireNonNull(dispatchOffset, "dispatchOffset");
        Objects.requireNonNull(execution, "execution");
        Objects.requireNonNull(completion, "completion");
    }
}
