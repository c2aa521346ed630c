package io.agentlab.kernel.api;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.Map;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * The normalized result of one event of a batch, reported in input order.
 *
 * @param eventId    the event id from the batch
 * @param name       the event name as requested
 * @param orderIndex its position in the batch
 * @param arguments  the final (normalized) arguments; empty when resolution did not run
 * @param resolution how the arguments were obtained
 * @param timings    where the time went
 * @param outcome    how it ended
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record EventResult(
        String eventId,
        String name,
        int orderIndex,
        Map<String, Object> arguments,
        ResolutionReport resolution,
        EventTimings timings,
        EventOutcome outcome) {

    /** Rejects nulls and copies the arguments. */
    public EventResult {
        Objects.requireNonNull(eventId, "eventId");
        Objects.requireNonNull(name, "name");
        arguments = JsonValues.copyObject(arguments);
        Objects.requireNonNull(resolution, "resolution");
        Objects.requireNonNull(timings, "timings");
        Objects.requireNonNull(outcome, "outcome");
    }

    /** The outcome's status name, e.g. {@code succeeded}. */
    public String status() {
        return outcome.status();
    }
}
