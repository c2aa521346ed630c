package io.agentlab.kernel.api;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.Map;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * What a handler receives: validated, normalized arguments and the key that makes its side effect idempotent.
 *
 * @param eventId        the event id from the batch
 * @param name           the event name
 * @param arguments      validated, normalized arguments
 * @param idempotencyKey stable for the same scope, event id and canonical arguments; pass it to the port
 * @param turn           the turn
 * @param attempt        1 for the first call, 2 for the single retry of a read-only event
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record EventInvocation(
        String eventId,
        String name,
        Map<String, Object> arguments,
        String idempotencyKey,
        TurnContext turn,
        int attempt) {
    /** Rejects nulls and copies the arguments. */
    public EventInvocation {
        Objects.requireNonNull(eventId, "eventId");
        Objects.requireNonNull(name, "name");
        arguments = JsonValues.copyObject(arguments);
        Objects.requireNonNull(idempotencyKey, "idempotencyKey");
        Objects.requireNonNull(turn, "turn");
    }
}
