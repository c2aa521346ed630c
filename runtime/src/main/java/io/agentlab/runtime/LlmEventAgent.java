package io.agentlab.runtime;

import io.agentlab.kernel.api.ConversationMessage;
import io.agentlab.kernel.api.EventAgentFallback;
import io.agentlab.kernel.api.FallbackRequest;
import io.agentlab.runtime.llm.CallRole;
import io.agentlab.runtime.llm.ChatMessage;
import io.agentlab.runtime.llm.ChatRequest;
import io.agentlab.runtime.llm.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * The EventAgent fallback as a real, small Chat Completions call ({@code docs/design.md#context-event-agent}): only the
 * selected event's schema, the smallest relevant history slice the kernel passes, and a small token limit; the answer
 * is a JSON object of the missing fields.
 */
final class LlmEventAgent implements EventAgentFallback {

    private final ModelCaller caller;
    private final String model;
    private final int maxTokens;
    private final Long seed;

    LlmEventAgent(ModelCaller caller, String model, int maxTokens, Long seed) {
        this.caller = caller;
        this.model = model;
        this.maxTokens = maxTokens;
        this.seed = seed;
    }

    /** How the runtime makes (and records) a model call for a turn. */
    interface ModelCaller {
        String call(String turnId, ChatRequest request);
    }

    @Override
    public Map<String, Object> complete(FallbackRequest request) {
        List<ChatMessage> messages = new ArrayList<>();
        messages.add(ChatMessage.system("Extract arguments for the action '" + request.eventName() + "'.\n"
                + "JSON Schema of its arguments: " + request.argumentsSchema() + "\n"
                + "Already known: " + Json.write(request.partialArguments()) + "\n"
                + "Return only a JSON object with these missing fields: " + request.missingFields()
                + ". Use null for anything the conversation does not say. The user's timezone is "
                + request.turn().timezone() + " and the request was made at " + request.turn().requestedAt() + "."));
        for (ConversationMessage message : request.history()) {
            messages.add(message.role() == ConversationMessage.Role.USER ? ChatMessage.user(message.text())
                    : ChatMessage.assistant(message.text()));
        }
        messages.add(ChatMessage.user(request.userText()));
        String content = caller.call(request.turn().scope().turnId(),
                new ChatRequest(model, messages, List.of(), 0.0, maxTokens, true, CallRole.EVENT_AGENT, seed));
        String json = content.trim().replaceAll("^```(?:json)?\\s*", "").replaceAll("\\s*```$", "");
        JsonNode node = Json.tree(json);
        if (node == null || !node.isObject()) {
            throw new IllegalStateException("the EventAgent answered no JSON object: " + content);
        }
        return Json.object(node);
    }
}
