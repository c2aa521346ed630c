package io.agentlab.kernel.runtime.llm;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * Folds the {@code data:} payloads of an OpenAI-compatible stream into a {@link ChatCompletion}, the same way for
 * every provider: content deltas are concatenated; tool-call deltas are accumulated by {@code index}, except that a
 * new {@code id} on an index that already has another id starts a new call (providers that reuse index 0), and an empty
 * {@code id} is no id (DashScope repeats {@code "id": ""} on continuations); the last
 * finish reason wins; usage is taken from whichever chunk carries it (a final chunk with {@code choices: []}, or the
 * last content chunk). A stream is complete with {@code [DONE]} or, tolerating providers that omit it, a finish
 * reason; otherwise it was truncated.
 */
public final class StreamAccumulator {

    private final StringBuilder content = new StringBuilder();
    private final List<CallBuilder> calls = new ArrayList<>();
    private final Map<Integer, CallBuilder> byIndex = new HashMap<>();
    private final Map<String, CallBuilder> byId = new HashMap<>();
    private String finishReason;
    private Map<String, Object> usage = Map.of();
    private boolean done;
    private int chunks;
    private int firstContentChunk = -1;
    private int firstToolCallChunk = -1;

    /**
     * Accepts one {@code data:} payload.
     *
     * @return the content delta it carried (empty when none)
     * @throws ProviderException for a malformed chunk or an in-stream error object
     */
    public String accept(String data) {
        String trimmed = data.trim();
        if (trimmed.equals("[DONE]")) {
            done = true;
            return "";
        }
        chunks++;
        JsonNode node;
        try {
            node = Json.tree(trimmed);
        } catch (JacksonException e) {
            throw new ProviderException(ProviderException.Kind.MALFORMED_CHUNK, "chunk " + chunks
                    + " is not JSON: " + abbreviate(trimmed), 0, null, e);
        }
        if (node == null || !node.isObject()) {
            throw new ProviderException(ProviderException.Kind.MALFORMED_CHUNK, "chunk " + chunks
                    + " is not a JSON object: " + abbreviate(trimmed));
        }
        JsonNode error = node.get("error");
        if (error != null && !error.isNull()) {
            String message = error.isObject() ? error.path("message").asString(error.toString()) : error.toString();
            throw new ProviderException(ProviderException.Kind.STREAM_ERROR, message);
        }
        JsonNode usageNode = node.get("usage");
        if (usageNode != null && usageNode.isObject()) {
            usage = Json.object(usageNode);
        }
        StringBuilder delta = new StringBuilder();
        for (JsonNode choice : node.path("choices")) {
            JsonNode d = choice.path("delta");
            JsonNode text = d.get("content");
            if (text != null && text.isString()) {
                delta.append(text.asString());
            }
            for (JsonNode call : d.path("tool_calls")) {
                firstToolCallChunk = firstToolCallChunk < 0 ? chunks : firstToolCallChunk;
                acceptToolCall(call);
            }
            JsonNode finish = choice.get("finish_reason");
            if (finish != null && finish.isString()) {
                finishReason = finish.asString();
            }
        }
        if (delta.length() > 0 && firstContentChunk < 0) {
            firstContentChunk = chunks;
        }
        content.append(delta);
        return delta.toString();
    }

    private void acceptToolCall(JsonNode call) {
        int index = call.path("index").asInt(0);
        // DashScope repeats "id": "" on every continuation delta: an empty id names no call (as in OpenAI's SDK)
        String id = call.hasNonNull("id") && !call.get("id").asString().isEmpty() ? call.get("id").asString() : null;
        CallBuilder builder;
        if (id != null && byId.containsKey(id)) {
            builder = byId.get(id);
        } else {
            CallBuilder atIndex = byIndex.get(index);
            boolean indexReused = atIndex != null && id != null && atIndex.id != null && !atIndex.id.equals(id);
            if (atIndex == null || indexReused) {
                builder = new CallBuilder();
                calls.add(builder);
                byIndex.put(index, builder);
            } else {
                builder = atIndex;
            }
            if (id != null) {
                builder.id = id;
                byId.put(id, builder);
            }
        }
        JsonNode function = call.path("function");
        if (function.hasNonNull("name")) {
            builder.name.append(function.get("name").asString());
        }
        if (function.hasNonNull("arguments")) {
            builder.arguments.append(function.get("arguments").asString());
        }
    }

    /**
     * Whether the stream has said it is over: {@code [DONE]} arrived, or a finish reason did (providers that omit
     * {@code [DONE]}, or close the connection without ending the body, have still delivered a whole answer).
     */
    public boolean ended() {
        return done || finishReason != null;
    }

    /** Whether {@code [DONE]} arrived. */
    public boolean sawDone() {
        return done;
    }

    /** The content so far (the partial answer of an interrupted call). */
    public String contentSoFar() {
        return content.toString();
    }

    /**
     * The completion.
     *
     * @throws ProviderException {@link ProviderException.Kind#TRUNCATED} when neither {@code [DONE]} nor a finish
     *                           reason arrived
     */
    public ChatCompletion complete(Duration firstItem, Optional<Duration> firstContent, Duration total) {
        if (!done && finishReason == null) {
            throw new ProviderException(ProviderException.Kind.TRUNCATED, "the stream ended after " + chunks
                    + " chunks without [DONE] or a finish reason");
        }
        List<ToolCall> toolCalls = new ArrayList<>();
        for (int i = 0; i < calls.size(); i++) {
            CallBuilder b = calls.get(i);
            toolCalls.add(new ToolCall(b.id == null ? "call_" + i : b.id, b.name.toString(), b.arguments.toString()));
        }
        boolean withheld = firstToolCallChunk >= 0 && (firstContentChunk < 0 || firstContentChunk > firstToolCallChunk);
        return new ChatCompletion(content.toString(), toolCalls, finishReason, usage, firstItem, firstContent, total,
                withheld);
    }

    private static String abbreviate(String text) {
        return text.length() <= 80 ? text : text.substring(0, 80) + "…";
    }

    private static final class CallBuilder {
        String id;
        final StringBuilder name = new StringBuilder();
        final StringBuilder arguments = new StringBuilder();
    }
}
