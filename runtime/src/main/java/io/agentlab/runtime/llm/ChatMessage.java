package io.agentlab.runtime.llm;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.List;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * One message of a Chat Completions request.
 *
 * @param role       system, user, assistant or tool
 * @param content    the text (null for an assistant message that only calls tools)
 * @param toolCalls  an assistant message's tool calls (chat_agent_tools transcript)
 * @param toolCallId a tool message's call id
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record ChatMessage(Role role, String content, List<ToolCall> toolCalls, String toolCallId) {

    /** Message roles of the wire format. */
    public enum Role {
        /** Instructions. */
        SYSTEM,
        /** The user. */
        USER,
        /** The model. */
        ASSISTANT,
        /** A tool result (chat_agent_tools only). */
        TOOL
    }

    /** Rejects a null role and copies the calls. */
    public ChatMessage {
        Objects.requireNonNull(role, "role");
        toolCalls = toolCalls == null ? List.of() : List.copyOf(toolCalls);
    }

    /** A system message. */
    public static ChatMessage system(String content) {
        return new ChatMessage(Role.SYSTEM, content, List.of(), null);
    }

    /** A user message. */
    public static ChatMessage user(String content) {
        return new ChatMessage(Role.USER, content, List.of(), null);
    }

    /** An assistant text message. */
    public static ChatMessage assistant(String content) {
        return new ChatMessage(Role.ASSISTANT, content, List.of(), null);
    }

    /** An assistant message carrying tool calls (and possibly visible text). */
    public static ChatMessage assistantToolCalls(String content, List<ToolCall> calls) {
        return new ChatMessage(Role.ASSISTANT, content, calls, null);
    }

    /** A tool result. */
    public static ChatMessage tool(String toolCallId, String content) {
        return new ChatMessage(Role.TOOL, content, List.of(), toolCallId);
    }
}
