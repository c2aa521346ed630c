package io.agentlab.providers.recorded;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentlab.kernel.api.InvocationMode;
import io.agentlab.runtime.llm.CallRole;
import io.agentlab.runtime.llm.ChatCompletion;
import io.agentlab.runtime.llm.StreamAccumulator;
import io.agentlab.runtime.llm.ToolCall;
import io.agentlab.runtime.protocol.HiddenEventBlockParser;
import io.agentlab.providers.recorded.StreamSynthesizer.Script;
import io.agentlab.providers.recorded.StreamSynthesizer.ScriptedEvent;
import java.time.Duration;
import java.time.LocalDate;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Synthesized streams fold back to their script under any random chunking, in every provider shape and mode. */
class StreamSynthesizerTest {

    private static final List<ScriptedEvent> EVENTS = List.of(
            new ScriptedEvent("lamp.power.toggle", "{\"state\":\"on\"}"),
            new ScriptedEvent("note.text.create", "{\"text\":\"买牛奶 🥛\"}"));

    static ChatCompletion fold(Recording recording) {
        StreamAccumulator accumulator = new StreamAccumulator();
        recording.response().events().forEach(event -> accumulator.accept(TimedReplay.fill(event.data(), 100)));
        return accumulator.complete(Duration.ZERO, Optional.empty(), Duration.ZERO);
    }

    @Test
    @DisplayName("every seed, shape and mode: same visible text, same block or tool calls, usage in the shape's place")
    void foldsBackToTheScript() {
        StreamSynthesizer synthesizer = new StreamSynthesizer(LatencyModel.typical(), LocalDate.of(2026, 11, 30));
        for (ProviderFamily family : ProviderFamily.builtIns()) {
            for (InvocationMode mode : InvocationMode.values()) {
                for (long seed = 0; seed < 300; seed++) {
                    Recording recording = synthesizer.synthesize(new Script("s", mode, CallRole.CHAT, "u",
                            "Sure, 好的 🙂 done.", EVENTS, family, "m"), seed, 500);
                    ChatCompletion completion = fold(recording);
                    if (mode == InvocationMode.DUAL_AGENT) {
                        HiddenEventBlockParser parser = new HiddenEventBlockParser();
                        String visible = parser.accept(completion.content()) + parser.finish();
                        assertThat(visible).isEqualTo("Sure, 好的 🙂 done.\n");
                        assertThat(parser.eventNames()).containsExactly("lamp.power.toggle", "note.text.create");
                        assertThat(completion.finishReason()).isEqualTo("stop");
                    } else {
                        assertThat(completion.content()).isEqualTo("Sure, 好的 🙂 done.");
                        assertThat(completion.toolCalls()).containsExactly(
                                new ToolCall("call_1", "lamp_power_toggle", "{\"state\":\"on\"}"),
                                new ToolCall("call_2", "note_text_create", "{\"text\":\"买牛奶 🥛\"}"));
                        assertThat(completion.finishReason()).isEqualTo("tool_calls");
                    }
                    assertThat(completion.usage()).containsEntry("prompt_tokens", 100);
                    if (family == ProviderFamily.DEEPSEEK) {
                        assertThat(completion.usage()).containsKeys("prompt_cache_hit_tokens", "prompt_cache_miss_tokens");
                    } else {
                        assertThat(completion.usage()).containsKey("prompt_tokens_details");
                    }
                    assertThat(family.deviations(recording.response().events().stream()
                            .map(Recording.TimedEvent::data).toList())).as(family + " " + mode + " seed " + seed)
                            .isEmpty();
                }
            }
        }
    }

    @Test
    @DisplayName("a scripted call id, blank or repeated, is streamed as written; the others keep call_<n>")
    void scriptedCallIds() {
        StreamSynthesizer synthesizer = new StreamSynthesizer(LatencyModel.typical(), LocalDate.of(2026, 11, 30));
        List<ScriptedEvent> events = List.of(new ScriptedEvent("a.b.c", "{}", "a_b_c", "e1"),
                new ScriptedEvent("d.e.f", "{}", "d_e_f", "e1"), new ScriptedEvent("g.h.i", "{}"));
        for (ProviderFamily family : ProviderFamily.builtIns()) {
            ChatCompletion completion = fold(synthesizer.synthesize(new Script("s", InvocationMode.CHAT_AGENT_TOOLS,
                    CallRole.CHAT, "u", "Ok.", events, family, "m"), 7, 100));
            assertThat(completion.toolCalls()).as(family.toString()).extracting(ToolCall::id)
                    .containsExactly("e1", "e1", "call_3");
        }
    }

    @Test
    @DisplayName("given chunk boundaries and scripted usage")
    void givenBoundariesAndScriptedUsage() {
        Recording recording = new StreamSynthesizer(LatencyModel.typical(), LocalDate.of(2026, 11, 30)).synthesize(
                new Script("s", InvocationMode.DUAL_AGENT, CallRole.FOLLOW_UP, "u", "Hello there, friend.", List.of(),
                        ProviderFamily.DEEPSEEK, "m"), List.of(5, 12), 100, 321);
        ChatCompletion completion = fold(recording);
        assertThat(completion.content()).isEqualTo("Hello there, friend.");
        assertThat(recording.response().events().subList(1, 4)).extracting(Recording.TimedEvent::data)
                .allSatisfy(data -> assertThat(data).contains("\"content\""))
                .satisfies(data -> assertThat(data.get(0)).contains("\"Hello\""));
        assertThat(completion.usage()).containsEntry("prompt_tokens", 321).containsEntry("prompt_cache_miss_tokens", 321);
        assertThat(recording.request().role()).isEqualTo("follow_up");
    }

    /**
     * The clauses this checks: {@code docs/design.md#provider-synthesized-labelled},
     * {@code docs/design.md#metrics-measured-not-assumed}.
     */
    @Test
    @DisplayName("timing follows the documented latency model and is labelled as modelled")
    void latencyModel() {
        Recording recording = new StreamSynthesizer(new LatencyModel(100, 0.5, 10), LocalDate.of(2026, 11, 30))
                .synthesize(new Script("s", InvocationMode.DUAL_AGENT, CallRole.CHAT, "u", "Hello there!", List.of(),
                        ProviderFamily.OPENAI, "m"), 1, 200);
        // the role chunk comes with the first token, so both are at the modelled first event
        assertThat(recording.response().events().get(0).data()).contains("\"role\":\"assistant\"");
        assertThat(recording.response().events().get(0).offsetMs()).isEqualTo(200);
        assertThat(recording.response().events().get(1).offsetMs()).isEqualTo(200);
        assertThat(recording.response().events().get(2).offsetMs()).isEqualTo(210);
        assertThat(recording.metadata().timing()).isEqualTo(
                "modelled: first event 100 ms + 0.500 ms per prompt token, then 10 ms per event");
        assertThat(recording.metadata().synthesized()).isTrue();
    }
}
