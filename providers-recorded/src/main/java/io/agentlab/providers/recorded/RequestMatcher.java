package io.agentlab.providers.recorded;

import io.agentlab.kernel.runtime.llm.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import tools.jackson.databind.JsonNode;

/**
 * Which request a recording answers: the mode ({@code tools} present or absent), the call role (the
 * {@code X-Agentlab-Call-Role} header the runtime sends) and the last user message (compared with white space folded
 * and case ignored).
 *
 * @param mode            {@code dual_agent} or {@code chat_agent_tools}
 * @param role            {@code chat}, {@code event_agent} or {@code follow_up}
 * @param lastUserMessage the text of the request's last user message
 */
public record RequestMatcher(String mode, String role, String lastUserMessage) {

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
            return new Received(mode, roleHeader == null ? "chat" : roleHeader, last);
        }
    }

    /** The reasons {@code received} does not match; empty when it matches. */
    public List<String> mismatches(Received received) {
        List<String> reasons = new ArrayList<>();
        if (!mode.equals(received.mode())) {
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
        return text.strip().replaceAll("\\s+", " ").toLowerCase(Locale.ROOT);
    }
}
