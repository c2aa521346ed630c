package io.agentlab.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import io.agentlab.runtime.llm.ChatCompletion;
import io.agentlab.runtime.llm.Json;
import io.agentlab.runtime.llm.StreamAccumulator;
import io.agentlab.runtime.llm.ToolCall;
import io.agentlab.runtime.usage.NormalizedUsage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The accumulator over the written corpus of real-provider stream shapes ({@code docs/recording.md#stream-shapes}):
 * each {@code shape-*.json} under {@code providers-recorded/src/test/resources/recordings} is read as plain JSON (not
 * through the recording loader, which judges family profiles, not accumulation) and folded. Where the accumulator
 * before {@code docs/recording.md#accumulation-rules} got a shape wrong, the display name says what it made of it.
 */
class StreamAccumulatorShapesTest {

    /** The corpus, seen from this module. */
    static final Path CORPUS = Path.of("../../providers-recorded/src/test/resources/recordings");

    /** A shape file's accumulator after every payload. */
    static StreamAccumulator accumulate(String shape) {
        StreamAccumulator accumulator = new StreamAccumulator();
        payloads(shape).forEach(accumulator::accept);
        return accumulator;
    }

    static ChatCompletion fold(String shape) {
        return accumulate(shape).complete(Duration.ZERO, Optional.empty(), Duration.ZERO);
    }

    /** The SSE {@code data:} payloads of {@code shape-<shape>.json}, in order. */
    static List<String> payloads(String shape) {
        Path file = CORPUS.resolve("shape-" + shape + ".json");
        try {
            JsonNode recording = Json.tree(Files.readString(file));
            List<String> out = new ArrayList<>();
            recording.path("response").path("events").forEach(event -> out.add(event.path("data").asString()));
            assertThat(out).as(file.toString()).isNotEmpty();
            return out;
        } catch (IOException e) {
            throw new AssertionError("cannot read " + file, e);
        }
    }

    @Test
    @DisplayName("every shape in the corpus is read without error, ends, and its usage normalizes")
    void everyShapeFolds() throws IOException {
        List<Path> files;
        try (Stream<Path> list = Files.list(CORPUS)) {
            files = list.filter(p -> p.getFileName().toString().startsWith("shape-")).sorted().toList();
        }
        assertThat(files).as("the corpus").hasSizeGreaterThanOrEqualTo(19);
        for (Path file : files) {
            String shape = file.getFileName().toString().replaceAll("^shape-|\\.json$", "");
            assertThatCode(() -> {
                StreamAccumulator accumulator = accumulate(shape);
                assertThat(accumulator.ended()).isTrue();
                assertThat(accumulator.sawDone()).isTrue();
                ChatCompletion completion = accumulator.complete(Duration.ZERO, Optional.empty(), Duration.ZERO);
                NormalizedUsage.of(completion.usage(), Map.of());
            }).as(shape).doesNotThrowAnyException();
        }
    }

    @Test
    @DisplayName("vLLM's \"prompt_tokens_details\": null is no details (before: NullPointerException in Map.copyOf)")
    void vllmNullDetails() {
        ChatCompletion completion = fold("vllm-null-details");
        assertThat(completion.content()).isEqualTo("Okay, the lamp is on.");
        assertThat(completion.finishReason()).isEqualTo("stop");
        assertThat(completion.usage()).containsOnlyKeys("prompt_tokens", "completion_tokens", "total_tokens")
                .containsEntry("prompt_tokens", 57);
        NormalizedUsage usage = NormalizedUsage.of(completion.usage(), Map.of());
        assertThat(usage.present()).isTrue();
        assertThat(usage.inputTokens()).isEqualTo(57);
        assertThat(usage.outputTokens()).isEqualTo(7);
        assertThat(usage.cachedPromptTokens()).isZero();
    }

    @Test
    @DisplayName("Azure: an empty-choices first chunk with prompt_filter_results, content filters, null prompt details "
            + "(before: NullPointerException)")
    void azure() {
        ChatCompletion completion = fold("azure-openai-content-filter");
        assertThat(completion.content()).isEqualTo("Okay, the lamp is on.");
        assertThat(completion.usage()).doesNotContainKey("prompt_tokens_details")
                .containsEntry("total_tokens", 64).containsKey("completion_tokens_details");
    }

    @Test
    @DisplayName("DeepSeek-R1 on SGLang: reasoning_content, tool_calls: null, matched_stop, null prompt details "
            + "(before: NullPointerException)")
    void sglang() {
        StreamAccumulator accumulator = accumulate("deepseek-sglang");
        ChatCompletion completion = accumulator.complete(Duration.ZERO, Optional.empty(), Duration.ZERO);
        assertThat(completion.content()).isEqualTo("Okay, the lamp is on.");
        assertThat(completion.toolCalls()).isEmpty();
        assertThat(accumulator.choices()).singleElement()
                .satisfies(c -> assertThat(c.reasoning()).isEqualTo("Turning the lamp on needs no tool."));
        assertThat(completion.usage()).containsOnlyKeys("prompt_tokens", "completion_tokens", "total_tokens");
    }

    @Test
    @DisplayName("n = 2 text: choice 0 is the answer, choice 1 kept apart (before: \"The lamp Okayis on, turning .it "
            + "on now.\")")
    void twoChoicesText() {
        StreamAccumulator accumulator = new StreamAccumulator();
        StringBuilder streamed = new StringBuilder();
        payloads("openai-n2-text").forEach(p -> streamed.append(accumulator.accept(p)));
        ChatCompletion completion = accumulator.complete(Duration.ZERO, Optional.empty(), Duration.ZERO);
        assertThat(completion.content()).isEqualTo("The lamp is on.");
        assertThat(streamed).as("the deltas accept() hands the listener").hasToString("The lamp is on.");
        assertThat(accumulator.contentSoFar()).isEqualTo("The lamp is on.");
        assertThat(accumulator.choices()).extracting(StreamAccumulator.Choice::index).containsExactly(0, 1);
        assertThat(accumulator.choices().get(1).content()).isEqualTo("Okay, turning it on now.");
        assertThat(accumulator.choices().get(1).finishReason()).isEqualTo("stop");
    }

    @Test
    @DisplayName("n = 2 tool calls: one call per choice, arguments apart (before: call_Ra1 with no arguments and "
            + "call_Rb2 with both choices' fragments, {\"{\"citycity\":\"\":\"OsloOslo, Norway\"}\"})")
    void twoChoicesToolCalls() {
        StreamAccumulator accumulator = accumulate("openai-n2-tool-calls");
        ChatCompletion completion = accumulator.complete(Duration.ZERO, Optional.empty(), Duration.ZERO);
        assertThat(completion.toolCalls()).containsExactly(
                new ToolCall("call_Ra1", "weather_forecast_get", "{\"city\":\"Oslo\"}"));
        assertThat(accumulator.choices().get(1).toolCalls()).containsExactly(Map.entry(0,
                new ToolCall("call_Rb2", "weather_forecast_get", "{\"city\":\"Oslo, Norway\"}")));
        assertThat(completion.finishReason()).isEqualTo("tool_calls");
    }

    @Test
    @DisplayName("the same id at index 0 and 1 is two calls (before: one named device_volume_adjustdevice_volume_adjust"
            + " and one with no name)")
    void duplicateIds() {
        ChatCompletion completion = fold("duplicate-tool-call-ids");
        assertThat(completion.toolCalls()).containsExactly(
                new ToolCall("call_0", "device_volume_adjust", "{\"mode\":\"absolute\",\"value\":30}"),
                new ToolCall("call_0", "device_volume_adjust", "{\"mode\":\"absolute\",\"value\":40}"));
    }

    @Test
    @DisplayName("tool calls without any id get call_<index>; \"name\": null and tool_calls: null add nothing")
    void missingIds() {
        ChatCompletion completion = fold("missing-tool-call-ids");
        assertThat(completion.toolCalls()).containsExactly(
                new ToolCall("call_0", "lamp_power_toggle", "{\"state\":\"on\"}"),
                new ToolCall("call_1", "device_volume_adjust", "{\"mode\":\"absolute\",\"value\":30}"));
        assertThat(completion.finishReason()).isEqualTo("tool_calls");
    }

    @Test
    @DisplayName("a finish reason on an early chunk: the content after it is still read, the last reason wins")
    void earlyFinish() {
        ChatCompletion completion = fold("early-finish-reason");
        assertThat(completion.content()).isEqualTo("Okay, the lamp is on.");
        assertThat(completion.finishReason()).isEqualTo("stop");
    }

    @Test
    @DisplayName("OpenAI: parallel tool calls by index, obfuscation padding ignored, full usage; usage without details")
    void openAi() {
        ChatCompletion calls = fold("openai-tool-calls-with-usage");
        assertThat(calls.content()).isEmpty();
        assertThat(calls.toolCalls()).containsExactly(
                new ToolCall("call_Xk3bq9TzR1wLm0aP5vYc7sDe", "lamp_power_toggle", "{\"state\":\"on\"}"),
                new ToolCall("call_M8nV2cJ4hQ6rT0yW1uLs9pBk", "device_volume_adjust",
                        "{\"mode\":\"absolute\",\"value\":30}"));
        assertThat(calls.contentAfterToolCalls()).as("tool calls and no visible content").isTrue();
        assertThat(NormalizedUsage.of(calls.usage(), Map.of()).totalTokens()).isEqualTo(453);
        ChatCompletion plain = fold("openai-usage-without-details");
        assertThat(plain.content()).isEqualTo("Okay, the lamp is on.");
        assertThat(plain.usage()).containsOnlyKeys("prompt_tokens", "completion_tokens", "total_tokens");
        assertThat(NormalizedUsage.of(plain.usage(), Map.of()).cachedPromptTokens()).isZero();
    }

    @Test
    @DisplayName("OpenAI: a refusal is kept apart from the content; logprobs objects are ignored; no usage is absent")
    void openAiRefusalLogprobsNoUsage() {
        StreamAccumulator refusal = accumulate("openai-refusal");
        assertThat(refusal.complete(Duration.ZERO, Optional.empty(), Duration.ZERO).content()).isEmpty();
        assertThat(refusal.choices().get(0).refusal()).isEqualTo("I'm sorry, I can't help with that.");
        assertThat(fold("openai-logprobs").content()).isEqualTo("Done.");
        ChatCompletion none = fold("openai-usage-absent");
        assertThat(none.content()).isEqualTo("The lamp is on.");
        assertThat(none.usage()).isEmpty();
        assertThat(NormalizedUsage.of(none.usage(), Map.of()).present()).isFalse();
    }

    @Test
    @DisplayName("DeepSeek reasoner: reasoning_content kept apart, content null while reasoning, usage on the finish "
            + "chunk")
    void deepSeekReasoner() {
        StreamAccumulator accumulator = accumulate("deepseek-reasoner");
        ChatCompletion completion = accumulator.complete(Duration.ZERO, Optional.empty(), Duration.ZERO);
        assertThat(completion.content()).isEqualTo("Okay, the lamp is on.");
        assertThat(accumulator.choices().get(0).reasoning())
                .isEqualTo("The user wants the lamp on; no tool is needed to answer.");
        NormalizedUsage usage = NormalizedUsage.of(completion.usage(), Map.of());
        assertThat(usage.reasoningTokens()).isEqualTo(24);
        assertThat(usage.cacheMissTokens()).isEqualTo(57);
    }

    @Test
    @DisplayName("DashScope without system_fingerprint, vLLM (name without arguments), Ollama (a whole call in one "
            + "delta), llama.cpp (timings, reasoning_content), LiteLLM (nested null usage fields)")
    void compatibleServers() {
        assertThat(fold("dashscope-qwen-no-fingerprint").toolCalls()).containsExactly(
                new ToolCall("call_5d8e2f0a1b3c4d6e9f7a8b", "lamp_power_toggle", "{\"state\": \"on\"}"));
        assertThat(fold("vllm-tool-call").toolCalls()).containsExactly(new ToolCall(
                "chatcmpl-tool-3e9a0c7d1b2f4e56a8c9d0e1f2a3b4c5", "lamp_power_toggle", "{\"state\": \"on\"}"));
        ChatCompletion ollama = fold("ollama-openai-compat");
        assertThat(ollama.toolCalls()).containsExactly(new ToolCall("call_k2v9xq3d", "lamp_power_toggle",
                "{\"state\":\"on\"}"));
        assertThat(ollama.finishReason()).isEqualTo("tool_calls");
        StreamAccumulator llama = accumulate("llamacpp-server");
        assertThat(llama.complete(Duration.ZERO, Optional.empty(), Duration.ZERO).content())
                .isEqualTo("Okay, the lamp is on.");
        assertThat(llama.choices().get(0).reasoning()).isEqualTo("Lamp on; answer briefly.");
        ChatCompletion lite = fold("litellm-proxy");
        assertThat(lite.content()).isEqualTo("Okay, the lamp is on.");
        assertThat(lite.usage().get("prompt_tokens_details")).isEqualTo(Map.of("audio_tokens", 0, "cached_tokens", 0));
    }
}
