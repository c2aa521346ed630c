package io.agentlab.kernel.api;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.Objects;
import org.apiguardian.api.API;

/**
 * The session and turn an event belongs to. Replay protection and idempotency keys are scoped by it, so parser-local
 * event ids ({@code e1}, {@code call_0}) never collide across turns.
 *
 * @param sessionId the conversation session
 * @param turnId    the user turn inside that session
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record EventScope(String sessionId, String turnId) {
    /** Rejects null or blank ids. */
    public EventScope {
        requireText(sessionId, "sessionId");
        requireText(turnId, "turnId");
    }

    static String requireText(String value, String what) {
        Objects.requireNonNull(value, what);
        if (value.isBlank()) {
            throw new IllegalArgumentException(what + " must not be blank");
        }
        return value;
    }

    @Override
    public String toString() {
        return sessionId + "/" + turnId;
    }
}
