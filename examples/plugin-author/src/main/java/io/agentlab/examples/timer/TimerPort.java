package io.agentlab.examples.timer;

/** Starts a countdown on the toy. */
public interface TimerPort {

    /**
     * Starts a timer.
     *
     * @param sessionId      the session
     * @param minutes        its length
     * @param label          what it is for
     * @param idempotencyKey repeats with the same key start one timer
     * @return the timer's id
     */
    String start(String sessionId, int minutes, String label, String idempotencyKey);
}
