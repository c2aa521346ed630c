package io.agentlab.runtime.llm;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds OpenAI-compatible stream chunks ({@code data:} payloads) for scripts, tests and demos: content deltas,
 * tool-call deltas, a finish reason, usage in the OpenAI shape (a final chunk with {@code choices: []}) or the
 * DeepSeek shape (on the last content chunk), and {@code [DONE]}. Every chunk carries the fields an OpenAI client
 * requires ({@code id}, {@code object}, {@code created}, {@code model}, {@code choices}); the recorded-provider module
 * writes each provider family's full chunk profile.
 */
public final class Chunks {

    /** The {@code created} of every scripted chunk (2026-01-01T00:00:00Z, in Unix seconds). */
    public static final long CREATED = 1_767_225_600L;

    private final String model;
    private final List<String> payloads = new ArrayList<>();

    private Chunks(String model) {
        this.model = model;
    }

    /** Starts a stream for {@code model}. */
    public static Chunks stream(String model) {
        return new Chunks(model);
    }

    /** One content delta per piece. */
    public Chunks content(String... pieces) {
        for (String piece : pieces) {
            payloads.add(chunk(Map.of("content", piece), null, null));
        }
        return this;
    }

    /** A tool-call delta: {@code id} and {@code name} may be null on continuation deltas. */
    public Chunks toolCall(int index, String id, String name, String argumentsPart) {
        Map<String, Object> function = new LinkedHashMap<>();
        if (name != null) {
            function.put("name", name);
        }
        function.put("arguments", argumentsPart);
        Map<String, Object> call = new LinkedHashMap<>();
        call.put("index", index);
        if (id != null) {
            call.put("id", id);
            call.put("type", "function");
        }
        call.put("function", function);
        payloads.add(chunk(Map.of("tool_calls", List.of(call)), null, null));
        return this;
    }

    /** A chunk with only a finish reason. */
    public Chunks finish(String reason) {
        payloads.add(chunk(Map.of(), reason, null));
        return this;
    }

    /** OpenAI shape: a separate final chunk with {@code choices: []} and the usage. */
    public Chunks openAiUsage(int promptTokens, int completionTokens, int cachedTokens) {
        Map<String, Object> usage = new LinkedHashMap<>();
        usage.put("prompt_tokens", promptTokens);
        usage.put("completion_tokens", completionTokens);
        usage.put("total_tokens", promptTokens + completionTokens);
        usage.put("prompt_tokens_details", Map.of("cached_tokens", cachedTokens));
        return usageChunk(usage);
    }

    /** A final chunk with {@code choices: []} carrying {@code usage} as given (values may be placeholders). */
    public Chunks usageChunk(Map<String, Object> usage) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("id", "chatcmpl-scripted");
        body.put("object", "chat.completion.chunk");
        body.put("created", CREATED);
        body.put("model", model);
        body.put("choices", List.of());
        body.put("usage", usage);
        payloads.add(Json.write(body));
        return this;
    }

    /** DeepSeek shape: the finish reason and the usage (with cache hit/miss) on the last content chunk. */
    public Chunks deepSeekFinishWithUsage(String reason, int promptTokens, int completionTokens, int cacheHit) {
        Map<String, Object> usage = new LinkedHashMap<>();
        usage.put("prompt_tokens", promptTokens);
        usage.put("completion_tokens", completionTokens);
        usage.put("total_tokens", promptTokens + completionTokens);
        usage.put("prompt_cache_hit_tokens", cacheHit);
        usage.put("prompt_cache_miss_tokens", promptTokens - cacheHit);
        return finishWithUsage(reason, usage);
    }

    /** A chunk with a finish reason and {@code usage} as given (values may be placeholders). */
    public Chunks finishWithUsage(String reason, Map<String, Object> usage) {
        payloads.add(chunk(Map.of(), reason, usage));
        return this;
    }

    /** A raw payload (for faults such as malformed JSON). */
    public Chunks raw(String payload) {
        payloads.add(payload);
        return this;
    }

    /** The terminating {@code [DONE]}. */
    public Chunks done() {
        payloads.add("[DONE]");
        return this;
    }

    /** The payloads. */
    public List<String> payloads() {
        return List.copyOf(payloads);
    }

    /** The payloads as an SSE body ({@code data: ...} frames). */
    public String sseBody() {
        StringBuilder body = new StringBuilder();
        payloads.forEach(payload -> body.append("data: ").append(payload).append("\n\n"));
        return body.toString();
    }

    private String chunk(Map<String, Object> delta, String finishReason, Map<String, Object> usage) {
        Map<String, Object> choice = new LinkedHashMap<>();
        choice.put("index", 0);
        choice.put("delta", delta);
        choice.put("finish_reason", finishReason);
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("id", "chatcmpl-scripted");
        body.put("object", "chat.completion.chunk");
        body.put("created", CREATED);
        body.put("model", model);
        body.put("choices", List.of(choice));
        if (usage != null) {
            body.put("usage", usage);
        }
        return Json.write(body);
    }
}
