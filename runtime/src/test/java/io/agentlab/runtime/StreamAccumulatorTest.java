package io.agentlab.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import io.agentlab.runtime.llm.ChatCompletion;
import io.agentlab.runtime.llm.Chunks;
import io.agentlab.runtime.llm.ProviderException;
import io.agentlab.runtime.llm.StreamAccumulator;
import io.agentlab.runtime.llm.ToolCall;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The stream accumulator shared by every provider. */
class StreamAccumulatorTest {

    private static final int EXAMPLES = Integer.getInteger("agentlab-build.properties.parser-examples", 10_000);

    static ChatCompletion fold(List<String> payloads) {
        StreamAccumulator accumulator = new StreamAccumulator();
        payloads.forEach(accumulator::accept);
        return accumulator.complete(Duration.ZERO, Optional.empty(), Duration.ZERO);
    }

    /** The clause this checks: {@code docs/design.md#provider-streaming-client}. */
    @Test
    @DisplayName("tool-call deltas accumulate by index; content and finish reason are kept")
    void accumulatesByIndex() {
        ChatCompletion completion = fold(Chunks.stream("m").content("On ", "it.")
                .toolCall(0, "call_a", "lamp_power_toggle", "{\"sta").toolCall(1, "call_b", "note_text_create", "{")
                .toolCall(0, null, null, "te\":\"on\"}").toolCall(1, null, null, "}").finish("tool_calls").done()
                .payloads());
        assertThat(completion.content()).isEqualTo("On it.");
        assertThat(completion.toolCalls()).containsExactly(new ToolCall("call_a", "lamp_power_toggle", "{\"state\":\"on\"}"),
                new ToolCall("call_b", "note_text_create", "{}"));
        assertThat(completion.finishReason()).isEqualTo("tool_calls");
        assertThat(completion.contentAfterToolCalls()).isFalse();
    }

    @Test
    @DisplayName("a second id at an index continues the call there, as in the SDK (before: a new call, told apart by id)")
    void anotherIdAtAnIndexContinuesTheCall() {
        ChatCompletion completion = fold(Chunks.stream("m").toolCall(0, "a", "x_y", "{").toolCall(0, "b", "x_z", "}")
                .toolCall(0, null, null, "").finish("tool_calls").done().payloads());
        assertThat(completion.toolCalls()).containsExactly(new ToolCall("a", "x_y", "{}"));
    }

    @Test
    @DisplayName("DashScope's continuation deltas repeat \"id\": \"\": they continue the call at their index")
    void emptyIdContinuesTheCall() {
        String first = "{\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"call_1\","
                + "\"type\":\"function\",\"function\":{\"name\":\"f\",\"arguments\":\"{\\\"a\\\"\"}}]}}]}";
        String continuation = "{\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"\","
                + "\"type\":\"function\",\"function\":{\"arguments\":\":1}\"}}]}}]}";
        ChatCompletion completion = fold(Chunks.stream("m").raw(first).raw(continuation).finish("tool_calls").done()
                .payloads());
        assertThat(completion.toolCalls()).containsExactly(new ToolCall("call_1", "f", "{\"a\":1}"));
    }

    /** The clause this checks: {@code docs/design.md#provider-streaming-client}. */
    @Test
    @DisplayName("usage: OpenAI final chunk with empty choices, DeepSeek on the last content chunk")
    void usageShapes() {
        assertThat(fold(Chunks.stream("m").content("hi").finish("stop").openAiUsage(10, 2, 4).done().payloads()).usage())
                .containsEntry("prompt_tokens", 10).containsKey("prompt_tokens_details");
        assertThat(fold(Chunks.stream("m").content("hi").deepSeekFinishWithUsage("stop", 10, 2, 6).done().payloads())
                .usage()).containsEntry("prompt_cache_hit_tokens", 6);
    }

    @Test
    @DisplayName("visible content withheld until after tool calls is detected")
    void withheldContent() {
        assertThat(fold(Chunks.stream("m").toolCall(0, "a", "x_y", "{}").content("done").finish("stop").done()
                .payloads()).contentAfterToolCalls()).isTrue();
    }

    @Test
    @DisplayName("faults: malformed chunk, in-stream error, truncation; a missing [DONE] after a finish reason is tolerated")
    void faults() {
        assertThatThrownBy(() -> fold(List.of("{\"choices\":[{\"delta\":{\"content\":\"a\"}}]}", "{not json")))
                .isInstanceOfSatisfying(ProviderException.class, e -> {
                    assertThat(e.kind()).isEqualTo(ProviderException.Kind.MALFORMED_CHUNK);
                    assertThat(e.getMessage()).contains("chunk 2");
                });
        assertThatThrownBy(() -> fold(List.of("{\"error\":{\"message\":\"overloaded\"}}")))
                .isInstanceOfSatisfying(ProviderException.class, e ->
                        assertThat(e.kind()).isEqualTo(ProviderException.Kind.STREAM_ERROR));
        assertThatThrownBy(() -> fold(Chunks.stream("m").content("half an ans").payloads()))
                .isInstanceOfSatisfying(ProviderException.class, e ->
                        assertThat(e.kind()).isEqualTo(ProviderException.Kind.TRUNCATED));
        assertThat(fold(Chunks.stream("m").content("ok").finish("stop").payloads()).content()).isEqualTo("ok");
    }

    @Test
    @DisplayName("property: every chunking of the same tool-call stream accumulates to the same calls")
    void chunkingInvariant() {
        List<String> arguments = List.of("{\"state\":\"on\",\"level\":30}", "{\"text\":\"buy milk, eggs\"}", "{}",
                "{\"q\":\"天气 🙂\"}");
        qt().withExamples(EXAMPLES).forAll(lists().of(integers().between(1, 6)).ofSizeBetween(1, 12),
                integers().between(0, 1)).checkAssert((pieceSizes, reuseIndex) -> {
                    Chunks whole = Chunks.stream("m").content("Okay.");
                    Chunks split = Chunks.stream("m").content("Ok", "ay.");
                    int sizeIndex = 0;
                    for (int call = 0; call < arguments.size(); call++) {
                        String args = arguments.get(call);
                        int index = reuseIndex == 1 ? 0 : call;
                        whole.toolCall(index, "call_" + call, "f_" + call, args);
                        int from = 0;
                        boolean firstPiece = true;
                        while (from < args.length() || firstPiece) {
                            int size = pieceSizes.get(sizeIndex++ % pieceSizes.size());
                            int to = Math.min(args.length(), from + size);
                            split.toolCall(index, firstPiece ? "call_" + call : null, firstPiece ? "f_" + call : null,
                                    args.substring(from, to));
                            firstPiece = false;
                            from = to;
                        }
                    }
                    ChatCompletion expected = fold(whole.finish("tool_calls").done().payloads());
                    ChatCompletion actual = fold(split.finish("tool_calls").done().payloads());
                    assertThat(actual.toolCalls()).isEqualTo(expected.toolCalls());
                    assertThat(actual.content()).isEqualTo(expected.content());
                    List<String> ids = new ArrayList<>();
                    actual.toolCalls().forEach(c -> ids.add(c.id()));
                    // every call at index 0 is one call, as in the SDK (docs/recording.md#accumulation-rules)
                    assertThat(ids).isEqualTo(reuseIndex == 1 ? List.of("call_0")
                            : List.of("call_0", "call_1", "call_2", "call_3"));
                    if (reuseIndex == 1) {
                        assertThat(actual.toolCalls().get(0).arguments()).isEqualTo(String.join("", arguments));
                    }
                });
    }

    @Test
    @DisplayName("fuzz: any payload, mangled or not, is accepted or refused as a provider error, never anything else")
    void fuzz() {
        List<String> valid = Chunks.stream("m").content("Hi ", "there").toolCall(0, "call_1", "f_x", "{\"a\":")
                .toolCall(0, null, null, "1}").finish("tool_calls").openAiUsage(10, 5, 0).done().payloads();
        List<String> junk = List.of("", "{", "}", "[", "null", "[]", "\"", "{\"choices\":null}", "{\"choices\":[1]}",
                "{\"choices\":[{\"delta\":[]}]}", "{\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":-1}]}}]}",
                "{\"error\":{\"message\":\"x\"}}", "{\"usage\":\"lots\"}", "🙂", "\u0000");
        var payloadGen = integers().between(0, valid.size() + junk.size() - 1).zip(integers().between(0, 60),
                integers().between(0, 3), (pick, cut, mangle) -> {
                    String payload = pick < valid.size() ? valid.get(pick) : junk.get(pick - valid.size());
                    int at = Math.min(cut, payload.length());
                    return switch (mangle) {
                        case 0 -> payload;
                        case 1 -> payload.substring(0, at); // truncated
                        case 2 -> payload.substring(0, at) + "}" + payload.substring(at); // a stray brace
                        default -> payload.substring(at); // the start lost
                    };
                });
        qt().withExamples(EXAMPLES).forAll(lists().of(payloadGen).ofSizeBetween(1, 12)).checkAssert(payloads -> {
            StreamAccumulator accumulator = new StreamAccumulator();
            try {
                for (String payload : payloads) {
                    accumulator.accept(payload);
                }
                accumulator.complete(Duration.ZERO, Optional.empty(), Duration.ZERO);
            } catch (ProviderException expected) {
                assertThat(expected.getMessage()).isNotBlank();
            }
        });
    }
}
