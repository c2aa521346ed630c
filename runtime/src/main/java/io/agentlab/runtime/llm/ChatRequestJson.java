package io.agentlab.runtime.llm;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.util.List;
import java.util.Locale;
import org.apiguardian.api.API;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/** The OpenAI-compatible request body of a {@link ChatRequest}. */
@API(status = INTERNAL, since = "0.1")
public final class ChatRequestJson {

    private ChatRequestJson() {
    }

    /** The body; no {@code tools} field at all when the request has none (dual_agent sends no tools). */
    public static String write(ChatRequest request) {
        ObjectNode body = Json.MAPPER.createObjectNode();
        body.put("model", request.model());
        ArrayNode messages = body.putArray("messages");
        for (ChatMessage message : request.messages()) {
            ObjectNode m = messages.addObject();
            m.put("role", message.role().name().toLowerCase(Locale.ROOT));
            if (message.content() != null || message.toolCalls().isEmpty()) {
                m.put("content", message.content());
            }
            if (!message.toolCalls().isEmpty()) {
                ArrayNode calls = m.putArray("tool_calls");
                for (ToolCall call : message.toolCalls()) {
                    ObjectNode c = calls.addObject();
                    c.put("id", call.id());
                    c.put("type", "function");
                    c.putObject("function").put("name", call.name()).put("arguments", call.arguments());
                }
            }
            if (message.toolCallId() != null) {
                m.put("tool_call_id", message.toolCallId());
            }
        }
        if (!request.tools().isEmpty()) {
            body.set("tools", tools(request.tools()));
        }
        if (request.temperature() != null) {
            body.put("temperature", request.temperature());
        }
        if (request.maxTokens() != null) {
            body.put("max_tokens", request.maxTokens());
        }
        if (request.seed() != null) {
            body.put("seed", request.seed());
        }
        body.put("stream", true);
        if (request.includeUsage()) {
            body.putObject("stream_options").put("include_usage", true);
        }
        return Json.write(body);
    }

    /**
     * The body's {@code tools} array as {@link #write} writes it, or an empty string when the request has no tools:
     * what a token count needs without writing the whole body and reading it back.
     */
    public static String toolsJson(ChatRequest request) {
        return request.tools().isEmpty() ? "" : Json.write(tools(request.tools()));
    }

    private static ArrayNode tools(List<ToolSpec> specs) {
        ArrayNode tools = Json.MAPPER.createArrayNode();
        for (ToolSpec tool : specs) {
            ObjectNode function = tools.addObject().put("type", "function").putObject("function");
            function.put("name", tool.name());
            function.put("description", tool.description());
            function.set("parameters", Json.tree(tool.parametersJson()));
        }
        return tools;
    }
}
