package io.agentlab.kernel.api;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * One event as a model protocol produced it: a name from the hidden event block ({@code dual_agent}) or a native tool
 * call ({@code chat_agent_tools}). Both protocols produce this same type ({@code docs/design.md#modes-same-batch}).
 *
 * @param eventId           the id the protocol gave it (unique inside the batch)
 * @param name              the namespaced event name as emitted; may be unknown to the registry
 * @param proposedArguments arguments the model proposed; empty in {@code dual_agent}
 * @param sourceMode        the protocol that produced it
 * @param orderIndex        its position in the batch; results are reported in this order
 * @param scope             session and turn
 * @param requestedAt       the captured request time of the turn
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record EventRequest(
        String eventId,
        String name,
        Map<String, Object> proposedArguments,
        InvocationMode sourceMode,
        int orderIndex,
        EventScope scope,
        Instant requestedAt) {

    /** Rejects nulls and blank ids and deep-copies the arguments. */
    public EventRequest {
        EventScope.requireText(eventId, "eventId");
        Objects.requireNonNull(name, "name");
        proposedArguments = JsonValues.copyObject(proposedArguments);
        Objects.requireNonNull(sourceMode, "sourceMode");
        if (orderIndex < 0) {
            throw new IllegalArgumentException("orderIndex must be >= 0, was " + orderIndex);
        }
        Objects.requireNonNull(scope, "scope");
        Objects.requireNonNull(requestedAt, "requestedAt");
    }
}
