package io.agentlab.runtime.llm;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.apiguardian.api.API;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * Folds the {@code data:} payloads of an OpenAI-compatible stream into a {@link ChatCompletion}, the same way for
 * every provider and the way the official OpenAI Java SDK's {@code ChatCompletionAccumulator} does
 * ({@code docs/recording.md#accumulation-rules}, where each rule names the stream shape that needs it):
 * <ul>
 *   <li><b>Choices are kept apart by {@code index}</b> ({@code n > 1}). The completion is choice 0, as a
 *   single-answer client reads it (the lowest index when a stream has no choice 0); the others are in
 *   {@link #choices()}, never mixed into it. {@link #accept} returns choice 0's content delta.</li>
 *   <li>Per choice, string {@code content}, {@code refusal} and {@code reasoning_content} (or {@code reasoning})
 *   deltas are concatenated; {@code null}, empty or absent ones add nothing.</li>
 *   <li><b>Tool calls are identified by their {@code index}</b> within the choice, never by {@code id}: the id and
 *   the name are the first non-empty ones seen at that index (so DashScope's {@code "id": ""} continuations, a
 *   provider repeating the name, or a second id at the same index change nothing, as in the SDK), the arguments
 *   are every string fragment at that index concatenated, and calls are listed by index. Two calls that share an
 *   id at different indexes stay two calls. A call that never names an id gets {@code call_<index>}. A tool-call
 *   delta without an {@code index} (which the SDK refuses) continues the last call, or starts the next index when it
 *   brings another id.</li>
 *   <li>Per choice the last non-null {@code finish_reason} wins; content after an early finish reason is still read.
 *   </li>
 *   <li>Usage is the last {@code usage} object any chunk carries (a final chunk with {@code choices: []}, or the
 *   finish chunk as DeepSeek sends it), with null-valued fields left out ({@code "prompt_tokens_details": null} from
 *   vLLM and Azure is the same as no details); {@code "usage": null} is no usage.</li>
 *   <li>Everything else a chunk may carry ({@code logprobs}, {@code content_filter_results},
 *   {@code prompt_filter_results}, {@code timings}, unknown fields) is ignored; a chunk with {@code choices: []} and
 *   no usage adds nothing.</li>
 *   <li>A stream is complete with {@code [DONE]} or, tolerating providers that omit it, once every choice seen has a
 *   finish reason; otherwise it was truncated. An {@code error} object in the stream, a payload that is not a JSON
 *   object, are {@link ProviderException}s.</li>
 * </ul>
 */
@API(status = INTERNAL, since = "0.1")
public final class StreamAccumulator {

    /** The index of the choice a single-answer client reads. */
    private static final int ANSWER = 0;

    private final Map<Integer, ChoiceBuilder> choices = new TreeMap<>();
    private Map<String, Object> usage = Map.of();
    private boolean done;
    private int chunks;

    /**
     * One choice of the stream, folded.
     *
     * @param index        the choice's {@code index}
     * @param content      its concatenated {@code content}
     * @param refusal      its concatenated {@code refusal} (empty when none)
     * @param reasoning    its concatenated {@code reasoning_content} / {@code reasoning} (empty when none)
     * @param toolCalls    its tool calls by tool-call {@code index}, in index order
     * @param finishReason its last finish reason, or null
     */
    public record Choice(int index, String content, String refusal, String reasoning, Map<Integer, ToolCall> toolCalls,
                         String finishReason) {
        /** Keeps the calls in index order, unmodifiable. */
        public Choice {
            toolCalls = Collections.unmodifiableMap(new TreeMap<>(toolCalls));
        }
    }

    /**
     * Accepts one {@code data:} payload.
     *
     * @return choice 0's content delta it carried (empty when none)
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
            usage = withoutNulls(Json.object(usageNode));
        }
        String answerDelta = "";
        for (JsonNode choice : node.path("choices")) {
            if (!choice.isObject()) {
                continue;
            }
            int index = choice.path("index").asInt(ANSWER);
            ChoiceBuilder builder = choices.computeIfAbsent(index, ChoiceBuilder::new);
            String delta = builder.accept(choice, chunks);
            if (index == ANSWER) {
                answerDelta = answerDelta + delta;
            }
        }
        return answerDelta;
    }

    /**
     * Whether the stream has said it is over: {@code [DONE]} arrived, or every choice seen has a finish reason
     * (providers that omit {@code [DONE]}, or close the connection without ending the body, have still delivered a
     * whole answer).
     */
    public boolean ended() {
        return done || (!choices.isEmpty() && choices.values().stream().allMatch(c -> c.finishReason != null));
    }

    /** Whether {@code [DONE]} arrived. */
    public boolean sawDone() {
        return done;
    }

    /** Choice 0's content so far (the partial answer of an interrupted call). */
    public String contentSoFar() {
        ChoiceBuilder answer = answer();
        return answer == null ? "" : answer.content.toString();
    }

    /** Every choice so far, in index order (one for every request without {@code n > 1}). */
    public List<Choice> choices() {
        return choices.values().stream().map(ChoiceBuilder::build).toList();
    }

    /**
     * The completion: choice 0 and the usage.
     *
     * @throws ProviderException {@link ProviderException.Kind#TRUNCATED} when neither {@code [DONE]} nor a finish
     *                           reason for every choice arrived
     */
    public ChatCompletion complete(Duration firstItem, Optional<Duration> firstContent, Duration total) {
        if (!ended()) {
            throw new ProviderException(ProviderException.Kind.TRUNCATED, "the stream ended after " + chunks
                    + " chunks without [DONE] or a finish reason");
        }
        ChoiceBuilder answer = answer();
        if (answer == null) {
            return new ChatCompletion("", List.of(), null, usage, firstItem, firstContent, total, false);
        }
        Choice choice = answer.build();
        boolean withheld = answer.firstToolCallChunk >= 0
                && (answer.firstContentChunk < 0 || answer.firstContentChunk > answer.firstToolCallChunk);
        return new ChatCompletion(choice.content(), List.copyOf(choice.toolCalls().values()), choice.finishReason(),
                usage, firstItem, firstContent, total, withheld);
    }

    /** Choice 0, or the lowest index when the stream has none (what the SDK's {@code choices().get(0)} is). */
    private ChoiceBuilder answer() {
        ChoiceBuilder zero = choices.get(ANSWER);
        return zero != null || choices.isEmpty() ? zero : choices.values().iterator().next();
    }

    /**
     * A usage object without null-valued fields, at any depth: vLLM and Azure send {@code "prompt_tokens_details":
     * null}, which means no details (and which {@code Map.copyOf} refuses).
     */
    @SuppressWarnings("unchecked")
    static Map<String, Object> withoutNulls(Map<String, Object> map) {
        Map<String, Object> out = new LinkedHashMap<>();
        map.forEach((key, value) -> {
            if (value instanceof Map<?, ?> nested) {
                out.put(key, withoutNulls((Map<String, Object>) nested));
            } else if (value != null) {
                out.put(key, value);
            }
        });
        return out;
    }

    private static String abbreviate(String text) {
        return text.length() <= 80 ? text : text.substring(0, 80) + "…";
    }

    /** Non-empty text of a string node, else null. */
    private static String text(JsonNode node) {
        return node != null && node.isString() && !node.asString().isEmpty() ? node.asString() : null;
    }

    private static final class ChoiceBuilder {
        final int index;
        final StringBuilder content = new StringBuilder();
        final StringBuilder refusal = new StringBuilder();
        final StringBuilder reasoning = new StringBuilder();
        final TreeMap<Integer, CallBuilder> calls = new TreeMap<>();
        Integer lastCallIndex;
        String finishReason;
        int firstContentChunk = -1;
        int firstToolCallChunk = -1;

        ChoiceBuilder(int index) {
            this.index = index;
        }

        /** Folds one choice of chunk number {@code chunk}; returns its content delta. */
        String accept(JsonNode choice, int chunk) {
            JsonNode delta = choice.path("delta");
            String text = text(delta.get("content"));
            if (text != null) {
                content.append(text);
                firstContentChunk = firstContentChunk < 0 ? chunk : firstContentChunk;
            }
            append(refusal, delta.get("refusal"));
            // DeepSeek, vLLM and SGLang call it reasoning_content; Ollama and OpenRouter reasoning
            append(reasoning, delta.get("reasoning_content"));
            append(reasoning, delta.get("reasoning"));
            for (JsonNode call : delta.path("tool_calls")) {
                if (call.isObject()) {
                    firstToolCallChunk = firstToolCallChunk < 0 ? chunk : firstToolCallChunk;
                    acceptToolCall(call);
                }
            }
            String finish = text(choice.get("finish_reason"));
            if (finish != null) {
                finishReason = finish;
            }
            return text == null ? "" : text;
        }

        private static void append(StringBuilder into, JsonNode node) {
            String text = text(node);
            if (text != null) {
                into.append(text);
            }
        }

        private void acceptToolCall(JsonNode call) {
            // an empty id names no call: DashScope repeats "id": "" on every continuation
            String id = text(call.get("id"));
            int at;
            JsonNode indexNode = call.get("index");
            if (indexNode != null && indexNode.isNumber()) { // 1.0 is read as 1, as the SDK reads it
                at = indexNode.asInt();
            } else if (lastCallIndex == null || (id != null && !id.equals(calls.get(lastCallIndex).id))) {
                at = calls.isEmpty() ? 0 : calls.lastKey() + 1;
            } else {
                at = lastCallIndex;
            }
            lastCallIndex = at;
            CallBuilder builder = calls.computeIfAbsent(at, i -> new CallBuilder());
            if (builder.id == null) {
                builder.id = id;
            }
            JsonNode function = call.path("function");
            String name = text(function.get("name"));
            if (builder.name == null) {
                builder.name = name;
            }
            String arguments = text(function.get("arguments"));
            if (arguments != null) {
                builder.arguments.append(arguments);
            }
        }

        Choice build() {
            Map<Integer, ToolCall> built = new TreeMap<>();
            calls.forEach((at, b) -> built.put(at, new ToolCall(b.id == null ? "call_" + at : b.id,
                    b.name == null ? "" : b.name, b.arguments.toString())));
            return new Choice(index, content.toString(), refusal.toString(), reasoning.toString(), built, finishReason);
        }
    }

    private static final class CallBuilder {
        String id;
        String name;
        final StringBuilder arguments = new StringBuilder();
    }
}
