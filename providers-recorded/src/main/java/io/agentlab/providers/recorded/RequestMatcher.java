package io.agentlab.providers.recorded;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.agentlab.runtime.llm.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import org.apiguardian.api.API;
import tools.jackson.databind.JsonNode;

/**
 * Which request a recording answers: the mode ({@code tools} present or absent), the call role (the
 * {@code X-Agentlab-Call-Role} header the runtime sends) and the last user message (compared with white space folded
 * and case ignored).
 *
 * @param mode            {@code dual_agent}, {@code chat_agent_tools}, or {@link #ANY_MODE}
 * @param role            {@code chat}, {@code event_agent} or {@code follow_up}
 * @param lastUserMessage the text of the request's last user message
 */
@API(status = INTERNAL, since = "0.1")
public record RequestMatcher(String mode, String role, String lastUserMessage) {

    /** The mode of a recording that answers requests of either mode (a provider fault does not look at tools). */
    public static final String ANY_MODE = "any";
    /** Runs of white space, folded to one space when messages are compared: compiled once, as every request is. */
    private static final Pattern WHITE_SPACE = Pattern.compile("\\s+");

    /** Whether this answers requests of {@code requestMode}. */
    public boolean answers(String requestMode) {
        return ANY_MODE.equals(mode) || mode.equals(requestMode);
    }

    /** What a received request looked like, for matching and for error messages. */
    public record Received(String mode, String role, String lastUserMessage) {
        /** Reads a request body and its role header. */
        public static Received of(String body, String roleHeader) {
            JsonNode root = Json.tree(body);
            String mode = root.has("tools") ? "chat_agent_tools" : "dual_agent";
            String last = "";
            for (JsonNode message : root.path("messages")) {
                if ("user".equals(message.path("role").asString(""))) {
                    last = message.path("content").asString("");
                }
            }
            return new Received(mode, roleHeader == null ? inferredRole(root) : roleHeader, last);
        }

        /**
         * A call's role when it carries no header (docs/wire.md#provider): {@code follow_up} when a tool message or an
         * assistant message follows its last user message, else {@code chat} (an EventAgent call cannot be told from
         * a chat call, and the replay's mismatch says so).
         */
        private static String inferredRole(JsonNode root) {
            boolean afterUser = false;
            for (JsonNode message : root.path("messages")) {
                String role = message.path("role").asString("");
                afterUser = !role.equals("user") && (afterUser || role.equals("tool") || role.equals("assistant"));
            }
            return afterUser ? "follow_up" : "chat";
        }
    }

    /** The reasons {@code received} does not match; empty when it matches. */
    public List<String> mismatches(Received received) {
        List<String> reasons = new ArrayList<>();
        if (!answers(received.mode())) {
            reasons.add("mode is " + received.mode() + ", the recording answers " + mode);
        }
        if (!role.equals(received.role())) {
            reasons.add("call role is " + received.role() + ", the recording answers " + role);
        }
        if (!fold(lastUserMessage).equals(fold(received.lastUserMessage()))) {
            reasons.add("last user message is \"" + received.lastUserMessage() + "\", the recording answers \""
                    + lastUserMessage + "\"");
        }
        return reasons;
    }

    private static String fold(String text) {
        return WHITE_SPACE.matcher(text.strip()).replaceAll(" ").toLowerCase(Locale.ROOT);
    }
}
