package io.agentlab.runtime;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.agentlab.runtime.llm.ChatMessage;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * A message kept in the conversation, with its visibility mask ({@code docs/design.md#context-visibility-mask}):
 * {@link #UI_HISTORY} — shown when the history is replayed to the user; {@link #CONTEXT_ASSEMBLY} — assembled into
 * ChatAgent's context.
 *
 * @param message        the message
 * @param visibilityMask a combination of the two bits
 * @param turnId         the turn that produced it
 * @param stopReason     {@code interrupted} for a partial answer the user interrupted, else null
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record StoredMessage(ChatMessage message, int visibilityMask, String turnId, String stopReason) {

    /** Shown in a history replay. */
    public static final int UI_HISTORY = 1;
    /** Assembled into model context. */
    public static final int CONTEXT_ASSEMBLY = 2;
    /** Both. */
    public static final int VISIBLE = UI_HISTORY | CONTEXT_ASSEMBLY;

    /** Rejects nulls. */
    public StoredMessage {
        Objects.requireNonNull(message, "message");
        Objects.requireNonNull(turnId, "turnId");
    }

    /** Whether a bit is set. */
    public boolean has(int bit) {
        return (visibilityMask & bit) != 0;
    }
}
