package io.agentlab.kernel.api;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.Objects;
import org.apiguardian.api.API;

/**
 * One user-visible message of the conversation. Only visible text is history: hidden event blocks and tool protocol
 * messages are never part of it ({@code docs/design.md#context-chat-agent}).
 *
 * @param role who said it
 * @param text what was said
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record ConversationMessage(Role role, String text) {

    /** Speaker of a visible message. */
    public enum Role {
        /** The person talking to the toy. */
        USER,
        /** ChatAgent's visible answer. */
        ASSISTANT
    }

    /** Rejects nulls. */
    public ConversationMessage {
        Objects.requireNonNull(role, "role");
        Objects.requireNonNull(text, "text");
    }

    /** A user message. */
    public static ConversationMessage user(String text) {
        return new ConversationMessage(Role.USER, text);
    }

    /** An assistant message. */
    public static ConversationMessage assistant(String text) {
        return new ConversationMessage(Role.ASSISTANT, text);
    }
}
