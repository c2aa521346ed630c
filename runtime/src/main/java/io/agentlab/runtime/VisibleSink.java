package io.agentlab.runtime;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.agentlab.agui.AguiEvent;
import org.apiguardian.api.API;

/**
 * Where visible text goes as it streams (a TTS engine, a UI), and, for a server that streams the turn's AG-UI run as it
 * happens, each AG-UI event as the turn emits it ({@link #onAguiEvent}; docs/wire.md#endpoint).
 */
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

    /**
     * An AG-UI event of the turn's run, as it is emitted (the same events, in the same order, as
     * {@link TurnResult#audit()}), on the turn's thread. Nothing by default.
     */
    default void onAguiEvent(AguiEvent event) {
    }

    /** A sink that discards everything. */
    static VisibleSink discard() {
        return (messageId, text) -> { };
    }
}
