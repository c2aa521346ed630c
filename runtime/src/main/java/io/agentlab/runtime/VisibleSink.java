package io.agentlab.runtime;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/** Where visible text goes as it streams (a TTS engine, a UI). */
@API(status = EXPERIMENTAL, since = "0.1")
@FunctionalInterface
public interface VisibleSink {

    /**
     * A visible delta.
     *
     * @param messageId the message it belongs to (the first answer, a confirmation, the follow-up)
     * @param text      the delta; never part of a hidden event block
     */
    void onDelta(String messageId, String text);

    /** A sink that discards everything. */
    static VisibleSink discard() {
        return (messageId, text) -> { };
    }
}
