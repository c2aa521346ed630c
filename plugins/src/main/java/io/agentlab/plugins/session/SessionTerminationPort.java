package io.agentlab.plugins.session;

/**
 * The dialogue/session service boundary ({@code docs/design.md#plugin-session-port}): ends a session. Never a device or
 * MQTT action.
 */
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
