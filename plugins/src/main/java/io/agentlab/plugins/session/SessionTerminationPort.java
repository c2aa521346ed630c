package io.agentlab.plugins.session;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * The dialogue/session service boundary ({@code docs/design.md#plugin-session-port}): ends a session. Never a device or
 * MQTT action.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public interface SessionTerminationPort {

    /**
     * Ends the session. Idempotent: ending an ended session succeeds with {@code alreadyEnded = true}.
     *
     * @throws io.agentlab.plugins.port.PortException when the session service refuses or cannot be reached
     */
    Termination terminate(String sessionId, String idempotencyKey);

    /**
     * The outcome.
     *
     * @param sessionId    the session
     * @param alreadyEnded whether it had already ended before this call
     */
    record Termination(String sessionId, boolean alreadyEnded) {
    }
}
