package io.agentlab.runtime.llm;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.util.List;
import java.util.Locale;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import org.apiguardian.api.API;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.databind.util.RawValue;

/** The OpenAI-compatible request body of a {@link ChatRequest}. */
@API(status = INTERNAL, since = "0.1")
public final class ChatRequestJson {

    /**
     * Tools whose element of the {@code tools} array is remembered at most; past it the memory starts again, so a JVM
     * offering ever new tools does not keep every schema. Far above the built-ins and the growth curve's 50.
     */
    static final int REMEMBERED_TOOLS = 256;
    /**
     * Each tool's element of the {@code tools} array as written: every request of a {@code chat_agent_tools} runtime,
     * and every case's runtime, offers the same tools, whose schemas were parsed and written again for each request
     * and each count of its tokens (docs/performance.md#tool-elements).
     */
    private static final ConcurrentMap<ToolSpec, String> TOOL_ELEMENTS = new ConcurrentHashMap<>();

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
            body.putRawValue("tools", new RawValue(tools(request.tools())));
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
        return request.tools().isEmpty() ? "" : tools(request.tools());
    }

    /** The compact {@code tools} array: the elements as {@link #element} writes them, in order. */
    private static String tools(List<ToolSpec> specs) {
        StringBuilder tools = new StringBuilder("[");
        for (ToolSpec tool : specs) {
            if (tools.length() > 1) {
                tools.append(',');
            }
            tools.append(element(tool));
        }
        return tools.append(']').toString();
    }

    /** One tool's element, written once: its schema text parsed and written compact, as a value of the body. */
    private static String element(ToolSpec tool) {
        String known = TOOL_ELEMENTS.get(tool);
        if (known != null) {
            return known;
        }
        ObjectNode element = Json.MAPPER.createObjectNode().put("type", "function");
        ObjectNode function = element.putObject("function");
        function.put("name", tool.name());
        function.put("description", tool.description());
        function.set("parameters", Json.tree(tool.parametersJson()));
        String written = Json.write(element);
        if (TOOL_ELEMENTS.size() >= REMEMBERED_TOOLS) {
            TOOL_ELEMENTS.clear();
        }
        TOOL_ELEMENTS.put(tool, written);
        return written;
    }

    /** How many tools' elements are remembered now (for the bound's test). */
    static int rememberedTools() {
        return TOOL_ELEMENTS.size();
    }
}
