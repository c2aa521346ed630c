package io.agentlab.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;

import io.agentlab.runtime.llm.ChatCompletion;
import io.agentlab.runtime.llm.Json;
import io.agentlab.runtime.llm.StreamAccumulator;
import io.agentlab.runtime.llm.ToolCall;
import io.agentlab.runtime.usage.NormalizedUsage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;
import org.quicktheories.dsl.TheoryBuilder;

/**
 * Generated streams across the shapes of the corpus ({@code docs/recording.md#stream-shapes}): one to three choices
 * interleaved at random (sometimes several in one chunk), each with content, reasoning and tool-call deltas split at
 * random, ids first-only, repeated, {@code ""} on continuations, missing or shared between calls, names repeated or
 * {@code null} on continuations, early finish reasons, empty-choices chunks, and usage absent, on a final chunk or on
 * the finish chunk with null details — in the envelopes of OpenAI, Azure, vLLM, SGLang, llama.cpp and DashScope.
 * Invariants ({@code docs/recording.md#accumulation-rules}): every choice's content and reasoning are the concatenation
 * of its own deltas whatever the interleaving, choice 0 is the completion, tool calls are per index (id: the first
 * non-empty, else {@code call_<index>}; name: the first; arguments: every fragment), the last finish reason wins, and
 * usage is the object sent without its null fields. QuickTheories prints the seed of a failure; rerun it with
 * {@code -Dagentlab-build.properties.seed=N}; examples: {@code agentlab-build.properties.examples} (default 2,000).
 */
class StreamAccumulatorPropertiesTest {

    private static final int EXAMPLES = Integer.getInteger("agentlab-build.properties.examples", 2_000);
    private static final Long SEED = Long.getLong("agentlab-build.properties.seed");

    private static final List<String> TEXT = List.of("", "Okay", ", ", "the lamp ", "is on.", "天气 🙂", "\"quoted\"",
            "{\"", "\n");
    private static final List<String> NAMES = List.of("lamp_power_toggle", "device_volume_adjust",
            "weather_forecast_get");
    private static final List<String> ARGUMENTS = List.of("{\"state\":\"on\"}", "{\"mode\":\"absolute\",\"value\":30}",
            "{}", "{\"city\":\"Oslo, 天气\"}", "");
    private static final List<String> FINISH = List.of("stop", "tool_calls", "length");

    /** How a call names its id across its deltas. */
    enum Ids { FIRST_ONLY, EVERY_DELTA, EMPTY_ON_CONTINUATIONS, MISSING, SHARED }

    /** How a call names its function across its deltas. */
    enum Names { FIRST_ONLY, EVERY_DELTA, NULL_ON_CONTINUATIONS }

    /** The envelope of every chunk. */
    enum Style { OPENAI, AZURE, VLLM, SGLANG, LLAMACPP, DASHSCOPE }

    /** Where usage goes and what its details look like. */
    enum Usage { ABSENT, FINAL_CHUNK, FINAL_CHUNK_NULL_DETAILS, ON_FINISH_CHUNK, NESTED_NULLS }

    /**
     * One generated call.
     *
     * @param name      its function name
     * @param fragments its argument fragments, in order
     * @param ids       its id policy
     * @param names     its name policy
     */
    record Call(String name, List<String> fragments, Ids ids, Names names) {
        String expectedId(int choice, int index) {
            return switch (ids) {
                case MISSING -> "call_" + index;
                case SHARED -> "call_shared";
                default -> "call_" + choice + "_" + index;
            };
        }
    }

    /**
     * One generated choice.
     *
     * @param content   content pieces
     * @param reasoning reasoning pieces
     * @param calls     tool calls, at indexes 0, 1, ...
     * @param early     an early finish reason on its first content delta, or null
     * @param finish    its last finish reason
     */
    record Choice(List<String> content, List<String> reasoning, List<Call> calls, String early, String finish) {
    }

    /**
     * One generated stream.
     *
     * @param choices    the choices, at indexes 0, 1, ...
     * @param picks      the interleaving: which unfinished choice's next delta comes next, modulo how many are left
     * @param together   per chunk, whether the next pick rides in the same chunk
     * @param style      the envelope
     * @param usage      usage placement and shape
     * @param emptyAfter chunk numbers after which an empty-choices chunk without usage comes
     */
    record Spec(List<Choice> choices, List<Integer> picks, List<Boolean> together, Style style, Usage usage,
                List<Integer> emptyAfter) {
    }

    static Gen<Spec> specs() {
        Gen<Integer> small = integers().between(0, 3);
        Gen<Integer> percent = integers().between(0, 99);
        Gen<Integer> any = integers().between(0, 1_000);
        return random -> {
            int n = integers().between(1, 3).generate(random);
            List<Choice> choices = new ArrayList<>();
            for (int c = 0; c < n; c++) {
                List<String> content = new ArrayList<>();
                for (int i = small.generate(random) + (percent.generate(random) < 30 ? 0 : 1); i > 0; i--) {
                    content.add(TEXT.get(any.generate(random) % TEXT.size()));
                }
                List<String> reasoning = new ArrayList<>();
                for (int i = percent.generate(random) < 70 ? 0 : small.generate(random) + 1; i > 0; i--) {
                    reasoning.add(TEXT.get(any.generate(random) % TEXT.size()));
                }
                List<Call> calls = new ArrayList<>();
                for (int i = percent.generate(random) < 50 ? 0 : small.generate(random); i > 0; i--) {
                    String args = ARGUMENTS.get(any.generate(random) % ARGUMENTS.size());
                    List<String> fragments = new ArrayList<>();
                    int from = 0;
                    do {
                        int to = Math.min(args.length(), from + 1 + small.generate(random) * 3);
                        fragments.add(args.substring(from, to));
                        from = to;
                    } while (from < args.length());
                    calls.add(new Call(NAMES.get(any.generate(random) % NAMES.size()), fragments,
                            Ids.values()[any.generate(random) % Ids.values().length],
                            Names.values()[any.generate(random) % Names.values().length]));
                }
                String early = !content.isEmpty() && percent.generate(random) < 20 ? "length" : null;
                choices.add(new Choice(content, reasoning, calls, early, FINISH.get(any.generate(random) % 3)));
            }
            List<Integer> picks = new ArrayList<>();
            List<Boolean> together = new ArrayList<>();
            for (int i = 0; i < 64; i++) {
                picks.add(any.generate(random));
                together.add(percent.generate(random) < 20);
            }
            List<Integer> emptyAfter = new ArrayList<>();
            for (int i = percent.generate(random) < 60 ? 0 : small.generate(random) + 1; i > 0; i--) {
                emptyAfter.add(small.generate(random) * 2);
            }
            return new Spec(choices, picks, together, Style.values()[any.generate(random) % Style.values().length],
                    Usage.values()[any.generate(random) % Usage.values().length], emptyAfter);
        };
    }

    /** A choice's deltas in order, each a {@code choices[]} element. */
    static List<Map<String, Object>> deltas(int index, Choice choice, Style style) {
        List<Map<String, Object>> out = new ArrayList<>();
        Map<String, Object> role = new LinkedHashMap<>();
        role.put("role", "assistant");
        role.put("content", style == Style.LLAMACPP ? null : "");
        out.add(element(index, role, null, style));
        for (String piece : choice.reasoning()) {
            Map<String, Object> delta = new LinkedHashMap<>();
            delta.put("content", null);
            delta.put(style == Style.SGLANG || index % 2 == 0 ? "reasoning_content" : "reasoning", piece);
            out.add(element(index, delta, null, style));
        }
        for (int i = 0; i < choice.content().size(); i++) {
            Map<String, Object> delta = new LinkedHashMap<>();
            delta.put("content", choice.content().get(i));
            if (style == Style.SGLANG) {
                delta.put("reasoning_content", null);
                delta.put("tool_calls", null);
            }
            out.add(element(index, delta, i == 0 ? choice.early() : null, style));
        }
        for (int at = 0; at < choice.calls().size(); at++) {
            Call call = choice.calls().get(at);
            for (int f = 0; f < call.fragments().size(); f++) {
                boolean first = f == 0;
                Map<String, Object> toolCall = new LinkedHashMap<>();
                toolCall.put("index", at);
                String id = call.expectedId(index, at);
                switch (call.ids()) {
                    case FIRST_ONLY, SHARED -> {
                        if (first) {
                            toolCall.put("id", id);
                        }
                    }
                    case EVERY_DELTA -> toolCall.put("id", id);
                    case EMPTY_ON_CONTINUATIONS -> toolCall.put("id", first ? id : "");
                    case MISSING -> {
                        // no id at all
                    }
                }
                if (first) {
                    toolCall.put("type", "function");
                }
                Map<String, Object> function = new LinkedHashMap<>();
                switch (call.names()) {
                    case FIRST_ONLY -> {
                        if (first) {
                            function.put("name", call.name());
                        }
                    }
                    case EVERY_DELTA -> function.put("name", call.name());
                    case NULL_ON_CONTINUATIONS -> function.put("name", first ? call.name() : null);
                }
                String fragment = call.fragments().get(f);
                function.put("arguments", fragment.isEmpty() && f % 2 == 0 ? null : fragment);
                toolCall.put("function", function);
                out.add(element(index, Map.of("tool_calls", List.of(toolCall)), null, style));
            }
        }
        Map<String, Object> finish = new LinkedHashMap<>();
        if (style == Style.VLLM) {
            finish.put("content", "");
        }
        out.add(element(index, finish, choice.finish(), style));
        return out;
    }

    private static Map<String, Object> element(int index, Map<String, Object> delta, String finish, Style style) {
        Map<String, Object> choice = new LinkedHashMap<>();
        choice.put("index", index);
        choice.put("delta", delta);
        switch (style) {
            case OPENAI, VLLM, DASHSCOPE -> choice.put("logprobs", null);
            case AZURE -> choice.put("content_filter_results", Map.of());
            case SGLANG -> {
                choice.put("logprobs", null);
                choice.put("matched_stop", null);
            }
            case LLAMACPP -> {
                // no logprobs
            }
        }
        choice.put("finish_reason", finish);
        return choice;
    }

    private static Map<String, Object> envelope(Style style, List<Map<String, Object>> choices) {
        Map<String, Object> chunk = new LinkedHashMap<>();
        chunk.put("id", "chatcmpl-generated");
        chunk.put("object", "chat.completion.chunk");
        chunk.put("created", 1_796_140_800L);
        chunk.put("model", "m");
        if (style != Style.DASHSCOPE && style != Style.SGLANG && style != Style.VLLM) {
            chunk.put("system_fingerprint", "fp_0123456789");
        }
        if (style == Style.OPENAI) {
            chunk.put("obfuscation", "x");
        }
        chunk.put("choices", choices);
        if (style == Style.OPENAI || style == Style.SGLANG || style == Style.DASHSCOPE) {
            chunk.put("usage", null);
        }
        return chunk;
    }

    static Map<String, Object> usage(Usage usage) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("prompt_tokens", 57);
        out.put("completion_tokens", 7);
        out.put("total_tokens", 64);
        switch (usage) {
            case FINAL_CHUNK, ON_FINISH_CHUNK -> out.put("prompt_tokens_details", Map.of("cached_tokens", 3));
            case FINAL_CHUNK_NULL_DETAILS -> out.put("prompt_tokens_details", null);
            case NESTED_NULLS -> {
                Map<String, Object> details = new LinkedHashMap<>();
                details.put("cached_tokens", 3);
                details.put("text_tokens", null);
                out.put("prompt_tokens_details", details);
                out.put("completion_tokens_details", null);
            }
            case ABSENT -> {
                return Map.of();
            }
        }
        return out;
    }

    /** The payloads of a spec, in its interleaving. */
    static List<String> payloads(Spec spec) {
        List<List<Map<String, Object>>> pending = new ArrayList<>();
        for (int c = 0; c < spec.choices().size(); c++) {
            pending.add(new ArrayList<>(deltas(c, spec.choices().get(c), spec.style())));
        }
        List<Map<String, Object>> chunks = new ArrayList<>();
        if (spec.style() == Style.AZURE) {
            Map<String, Object> filters = new LinkedHashMap<>();
            filters.put("choices", List.of());
            filters.put("created", 0);
            filters.put("id", "");
            filters.put("model", "");
            filters.put("object", "");
            filters.put("prompt_filter_results", List.of(Map.of("prompt_index", 0)));
            chunks.add(filters);
        }
        int step = 0;
        while (pending.stream().anyMatch(p -> !p.isEmpty())) {
            List<Map<String, Object>> together = new ArrayList<>();
            do {
                List<List<Map<String, Object>>> left = pending.stream().filter(p -> !p.isEmpty()).toList();
                List<Map<String, Object>> next = left.get(spec.picks().get(step % spec.picks().size()) % left.size());
                // one element per choice in a chunk
                if (together.stream().anyMatch(e -> e.get("index").equals(next.get(0).get("index")))) {
                    break;
                }
                together.add(next.remove(0));
                step++;
            } while (spec.together().get(step % spec.together().size()) && pending.stream().anyMatch(p -> !p.isEmpty()));
            chunks.add(envelope(spec.style(), together));
            if (spec.emptyAfter().contains(chunks.size())) {
                chunks.add(envelope(spec.style(), List.of()));
            }
        }
        Map<String, Object> usage = usage(spec.usage());
        if (spec.usage() == Usage.ON_FINISH_CHUNK) {
            chunks.get(chunks.size() - 1).put("usage", usage);
        } else if (!usage.isEmpty()) {
            Map<String, Object> last = envelope(spec.style(), List.of());
            last.put("usage", usage);
            chunks.add(last);
        }
        List<String> out = new ArrayList<>();
        chunks.forEach(chunk -> out.add(Json.write(chunk)));
        out.add("[DONE]");
        return out;
    }

    private static <T> TheoryBuilder<T> theory(Gen<T> gen) {
        var base = qt().withExamples(EXAMPLES);
        return (SEED == null ? base : base.withFixedSeed(SEED)).forAll(gen);
    }

    @Test
    @DisplayName("property: each choice folds from its own deltas whatever the interleaving; tool calls per index; "
            + "choice 0 is the completion; last finish reason; usage without nulls")
    void choicesAndCallsApart() {
        theory(specs()).checkAssert(spec -> {
            List<String> payloads = payloads(spec);
            StreamAccumulator accumulator = new StreamAccumulator();
            StringBuilder streamed = new StringBuilder();
            payloads.forEach(p -> streamed.append(accumulator.accept(p)));
            ChatCompletion completion = accumulator.complete(Duration.ZERO, Optional.empty(), Duration.ZERO);
            List<StreamAccumulator.Choice> folded = accumulator.choices();
            assertThat(folded).extracting(StreamAccumulator.Choice::index)
                    .isEqualTo(java.util.stream.IntStream.range(0, spec.choices().size()).boxed().toList());
            for (int c = 0; c < spec.choices().size(); c++) {
                Choice expected = spec.choices().get(c);
                StreamAccumulator.Choice actual = folded.get(c);
                assertThat(actual.content()).as("choice " + c + " content").isEqualTo(String.join("", expected.content()));
                assertThat(actual.reasoning()).as("choice " + c + " reasoning")
                        .isEqualTo(String.join("", expected.reasoning()));
                assertThat(actual.finishReason()).as("choice " + c + " finish reason").isEqualTo(expected.finish());
                Map<Integer, ToolCall> calls = new TreeMap<>();
                for (int at = 0; at < expected.calls().size(); at++) {
                    Call call = expected.calls().get(at);
                    calls.put(at, new ToolCall(call.expectedId(c, at), call.name(), String.join("", call.fragments())));
                }
                assertThat(actual.toolCalls()).as("choice " + c + " tool calls by index").isEqualTo(calls);
            }
            StreamAccumulator.Choice zero = folded.get(0);
            assertThat(completion.content()).isEqualTo(zero.content());
            assertThat(streamed).as("what accept() streamed").hasToString(zero.content());
            assertThat(completion.toolCalls()).isEqualTo(List.copyOf(zero.toolCalls().values()));
            assertThat(completion.finishReason()).isEqualTo(zero.finishReason());
            Map<String, Object> sent = usage(spec.usage());
            Map<String, Object> expectedUsage = new HashMap<>(sent);
            expectedUsage.values().removeIf(v -> v == null);
            if (spec.usage() == Usage.NESTED_NULLS) {
                expectedUsage.put("prompt_tokens_details", Map.of("cached_tokens", 3));
            }
            assertThat(completion.usage()).isEqualTo(expectedUsage);
            NormalizedUsage normalized = NormalizedUsage.of(completion.usage(), Map.of());
            assertThat(normalized.present()).isEqualTo(!sent.isEmpty());
            assertThat(normalized.cachedPromptTokens()).isEqualTo(sent.get("prompt_tokens_details") == null ? 0 : 3);
        });
    }
}
