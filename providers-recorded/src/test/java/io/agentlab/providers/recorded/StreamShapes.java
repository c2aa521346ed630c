package io.agentlab.providers.recorded;

import io.agentlab.runtime.llm.Json;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.quicktheories.core.Gen;
import org.quicktheories.core.RandomnessSource;
import org.quicktheories.impl.Constraint;

/**
 * Generated chat-completion streams in the shapes real OpenAI-compatible servers send (docs/recording.md#stream-shapes),
 * written by us from the providers' public API documentation: one to three choices interleaved by {@code index},
 * content with escapes and non-ASCII text, {@code reasoning_content}, tool calls whose ids are present, missing, empty
 * or repeated, {@code finish_reason} on an early chunk, usage absent, {@code null}, with null-valued details or on the
 * finish chunk, {@code system_fingerprint} absent or null, {@code logprobs}, and fields no client knows. Every payload
 * meets what the protocol requires ({@link ChunkProtocol}), so every stream must load.
 */
final class StreamShapes {

    /** Text with JSON escapes, non-ASCII letters and an emoji, but nothing shaped like a key. */
    private static final String[] WORDS = {"Hello", " there", ", 音量", " 三十", " \"quoted\"", " back\\slash",
        " é", " 🙂", " line\nbreak", " tab\t", " <b>", " 100%"};

    private StreamShapes() {
    }

    private static int pick(RandomnessSource random, int low, int high) {
        return (int) random.next(Constraint.between(low, high));
    }

    /** Streams of payloads, {@code [DONE]} last or not at all. */
    static Gen<List<String>> streams() {
        return random -> {
            String id = "chatcmpl-shape" + pick(random, 0, 1_000_000);
            int choices = pick(random, 1, 3);
            boolean fingerprint = pick(random, 0, 2) > 0;
            boolean unknownFields = pick(random, 0, 1) == 1;
            List<String> payloads = new ArrayList<>();
            int chunks = pick(random, 1, 12);
            int finishAt = pick(random, 0, chunks - 1);
            for (int k = 0; k < chunks; k++) {
                Map<String, Object> chunk = envelope(id, fingerprint, pick(random, 0, 1) == 1);
                List<Object> list = new ArrayList<>();
                int first = pick(random, 0, choices - 1);
                for (int c = 0; c < choices; c++) {
                    int index = (first + c) % choices; // choices interleave in any order
                    Map<String, Object> delta = new LinkedHashMap<>();
                    if (k == 0) {
                        delta.put("role", "assistant");
                    }
                    switch (pick(random, 0, 4)) {
                        case 0 -> delta.put("content", WORDS[pick(random, 0, WORDS.length - 1)]);
                        case 1 -> delta.put("reasoning_content", WORDS[pick(random, 0, WORDS.length - 1)]);
                        case 2 -> delta.put("tool_calls", List.of(toolCall(random, k)));
                        case 3 -> delta.put("content", null);
                        default -> { }
                    }
                    Map<String, Object> choice = new LinkedHashMap<>();
                    choice.put("index", index);
                    choice.put("delta", delta);
                    if (pick(random, 0, 1) == 1) {
                        choice.put("logprobs", null);
                    }
                    choice.put("finish_reason", k == finishAt ? (pick(random, 0, 1) == 1 ? "stop" : "tool_calls")
                            : null);
                    list.add(choice);
                }
                chunk.put("choices", list);
                if (unknownFields) {
                    chunk.put("x_vendor", Map.of("trace", "t" + k, "nested", List.of(1, 2.5, true)));
                }
                payloads.add(Json.write(chunk));
            }
            switch (pick(random, 0, 3)) {
                case 0 -> { } // no usage at all
                case 1 -> {
                    Map<String, Object> usage = envelope(id, fingerprint, false);
                    usage.put("choices", List.of());
                    usage.put("usage", usage(random));
                    payloads.add(Json.write(usage));
                }
                case 2 -> {
                    Map<String, Object> last = envelope(id, fingerprint, false);
                    last.put("choices", List.of(Map.of("index", 0, "delta", Map.of(), "finish_reason", "stop")));
                    last.put("usage", usage(random)); // on the finish chunk, as DeepSeek puts it
                    payloads.add(Json.write(last));
                }
                default -> {
                    Map<String, Object> last = envelope(id, fingerprint, false);
                    last.put("choices", List.of());
                    last.put("usage", null); // a usage key that says none
                    payloads.add(Json.write(last));
                }
            }
            if (pick(random, 0, 4) > 0) {
                payloads.add("[DONE]");
            }
            return payloads;
        };
    }

    private static Map<String, Object> envelope(String id, boolean fingerprint, boolean nullFingerprint) {
        Map<String, Object> chunk = new LinkedHashMap<>();
        chunk.put("id", id);
        chunk.put("object", "chat.completion.chunk");
        chunk.put("created", 1_796_000_000);
        chunk.put("model", "shape-model");
        if (fingerprint) {
            chunk.put("system_fingerprint", nullFingerprint ? null : "fp_shape");
        }
        return chunk;
    }

    private static Map<String, Object> toolCall(RandomnessSource random, int chunk) {
        Map<String, Object> call = new LinkedHashMap<>();
        call.put("index", pick(random, 0, 1));
        switch (pick(random, 0, 3)) {
            case 0 -> call.put("id", "call_" + chunk);
            case 1 -> call.put("id", "");
            case 2 -> call.put("id", "call_same"); // the same id at two indexes
            default -> { } // no id
        }
        Map<String, Object> function = new LinkedHashMap<>();
        if (pick(random, 0, 1) == 1) {
            function.put("name", "device_volume_adjust");
        }
        function.put("arguments", pick(random, 0, 1) == 1 ? "{\"delta\":" : "10}");
        call.put("function", function);
        if (pick(random, 0, 1) == 1) {
            call.put("type", "function");
        }
        return call;
    }

    private static Map<String, Object> usage(RandomnessSource random) {
        Map<String, Object> usage = new LinkedHashMap<>();
        int prompt = pick(random, 1, 5000);
        int completion = pick(random, 0, 500);
        usage.put("prompt_tokens", prompt);
        usage.put("completion_tokens", completion);
        usage.put("total_tokens", prompt + completion);
        if (pick(random, 0, 1) == 1) {
            usage.put("prompt_tokens_details", null);
            usage.put("completion_tokens_details", null);
        }
        return usage;
    }
}
