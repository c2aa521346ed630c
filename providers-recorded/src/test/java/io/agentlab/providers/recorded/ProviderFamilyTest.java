package io.agentlab.providers.recorded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.agentlab.kernel.api.InvocationMode;
import io.agentlab.runtime.llm.Json;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Each provider family's chunk profile: what the writer sends; that a recording breaking the protocol is refused at load
 * with the file, the recording, the event index and the field; and that one departing from its family's usual shape is
 * loaded with a note saying where (docs/recording.md#protocol-and-notes).
 */
class ProviderFamilyTest {

    static List<ProviderFamily> families() {
        return ProviderFamily.builtIns();
    }

    /** The notes the loader gives a recording's file text. */
    private static List<String> notes(String text) {
        return Recordings.read(text, "noted.json", List.of()).notes();
    }

    private static final LocalDate DAY = LocalDate.of(2026, 11, 30);

    private static List<String> payloads(Recording recording) {
        return recording.response().events().stream().map(Recording.TimedEvent::data).toList();
    }

    /** The tools-mode "lamp on" recording of a family, as file text with one event's chunk changed. */
    private static String withChunk(ProviderFamily family, int event, Consumer<ObjectNode> change) {
        Recording recording = RecordingsTest.synthesized(family, InvocationMode.CHAT_AGENT_TOOLS);
        List<Recording.TimedEvent> events = new ArrayList<>(recording.response().events());
        ObjectNode chunk = (ObjectNode) Json.tree(events.get(event).data());
        change.accept(chunk);
        events.set(event, new Recording.TimedEvent(events.get(event).offsetMs(), Json.write(chunk)));
        return Recordings.write(new Recording(recording.id(), recording.request(), new Recording.RecordedResponse(
                200, recording.response().headers(), events), recording.metadata()));
    }

    private static int indexOf(Recording recording, String fragment) {
        List<String> payloads = payloads(recording);
        for (int i = 0; i < payloads.size(); i++) {
            if (payloads.get(i).contains(fragment)) {
                return i;
            }
        }
        throw new AssertionError("no event contains " + fragment);
    }

    @ParameterizedTest
    @MethodSource("families")
    @DisplayName("every chunk the synthesizer and the fixtures write carries what its family always sends")
    void writtenStreamsAreFaithful(ProviderFamily family) {
        for (InvocationMode mode : InvocationMode.values()) {
            assertThat(family.deviations(payloads(RecordingsTest.synthesized(family, mode)))).isEmpty();
        }
        for (Recording fixture : FaultFixtures.fixtures()) {
            assertThat(ProviderFamily.fromWireName(fixture.metadata().provider()).deviations(payloads(fixture)))
                    .as(fixture.id()).isEmpty();
        }
    }

    @ParameterizedTest
    @MethodSource("families")
    @DisplayName("a recording whose chunk lacks 'created' (the SDK requires it) is refused, naming the file, the recording, the event and the field")
    void missingCreatedIsRefused(ProviderFamily family) {
        String text = withChunk(family, 2, chunk -> chunk.remove("created"));
        assertThatThrownBy(() -> Recordings.parse(text, "recordings/broken.json"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("recordings/broken.json: recording 'lamp-on-chat_agent_tools-"
                        + family.wireName() + "' breaks the chat streaming protocol")
                .hasMessageContaining("event 2: 'created' is missing, not a number (Unix seconds)");
    }

    @Test
    @DisplayName("openai: a choice without 'logprobs' is read, with a note")
    void openAiLogprobs() {
        String text = withChunk(ProviderFamily.OPENAI, 1,
                chunk -> ((ObjectNode) chunk.get("choices").get(0)).remove("logprobs"));
        assertThat(notes(text)).containsExactly(
                "event 1 lacks 'choices[0].logprobs', which openai choices usually carry");
    }

    @Test
    @DisplayName("openai: usage without 'prompt_tokens_details' (real OpenAI streams), or on a chunk with choices, is read, with a note")
    void openAiUsage() {
        Recording recording = RecordingsTest.synthesized(ProviderFamily.OPENAI, InvocationMode.CHAT_AGENT_TOOLS);
        int usage = indexOf(recording, "\"usage\":{");
        String text = withChunk(ProviderFamily.OPENAI, usage,
                chunk -> ((ObjectNode) chunk.get("usage")).remove("prompt_tokens_details"));
        assertThat(notes(text)).containsExactly("event " + usage
                + " lacks 'usage.prompt_tokens_details.cached_tokens', where openai usually reports its prompt cache");
        int finish = indexOf(recording, "\"finish_reason\":\"tool_calls\"");
        String early = withChunk(ProviderFamily.OPENAI, finish,
                chunk -> chunk.set("usage", Json.tree(payloads(recording).get(usage)).get("usage")));
        assertThat(notes(early)).containsExactly("event " + finish + ": 'usage' rides on a chunk with 1 choice(s); "
                + "openai usually sends it on a final chunk with empty 'choices'");
    }

    @Test
    @DisplayName("usage whose details are null (vLLM, Azure) is read without a protocol finding")
    void nullUsageDetails() {
        Recording recording = RecordingsTest.synthesized(ProviderFamily.OPENAI, InvocationMode.CHAT_AGENT_TOOLS);
        int usage = indexOf(recording, "\"usage\":{");
        String text = withChunk(ProviderFamily.OPENAI, usage, chunk -> ((ObjectNode) chunk.get("usage"))
                .putNull("prompt_tokens_details").putNull("completion_tokens_details"));
        assertThat(Recordings.parse(text, "null-details.json").response().events().get(usage).data())
                .contains("\"prompt_tokens_details\":null");
    }

    @Test
    @DisplayName("usage without total_tokens breaks the protocol (the SDK requires it) and is refused")
    void usageWithoutTotal() {
        Recording recording = RecordingsTest.synthesized(ProviderFamily.OPENAI, InvocationMode.CHAT_AGENT_TOOLS);
        int usage = indexOf(recording, "\"usage\":{");
        String text = withChunk(ProviderFamily.OPENAI, usage, chunk -> ((ObjectNode) chunk.get("usage"))
                .remove("total_tokens"));
        assertThatThrownBy(() -> Recordings.parse(text, "broken.json"))
                .hasMessageContaining("event " + usage + ": 'usage.total_tokens' is missing, not an integer");
    }

    @Test
    @DisplayName("deepseek: usage without 'prompt_cache_hit_tokens', or on a chunk without a finish reason, is read, with a note")
    void deepSeekUsage() {
        Recording recording = RecordingsTest.synthesized(ProviderFamily.DEEPSEEK, InvocationMode.DUAL_AGENT);
        int usage = indexOf(recording, "\"usage\":{");
        assertThat(payloads(recording).get(usage)).contains("\"finish_reason\":\"stop\"");
        String text = withChunk(ProviderFamily.DEEPSEEK, indexOf(RecordingsTest.synthesized(ProviderFamily.DEEPSEEK,
                InvocationMode.CHAT_AGENT_TOOLS), "\"usage\":{"),
                chunk -> ((ObjectNode) chunk.get("usage")).remove("prompt_cache_hit_tokens"));
        assertThat(notes(text)).singleElement().asString()
                .contains("lacks 'usage.prompt_cache_hit_tokens', where deepseek usually reports its prompt cache");
        String early = withChunk(ProviderFamily.DEEPSEEK, 1,
                chunk -> chunk.set("usage", Json.tree(payloads(recording).get(usage)).get("usage")));
        assertThat(notes(early)).contains("event 1: 'usage' rides on a chunk without a finish reason; deepseek "
                + "usually sends it on the chunk that carries the finish reason");
    }

    @Test
    @DisplayName("dashscope: a chunk without 'system_fingerprint' (real Qwen streams) is read, with a note")
    void dashScopeFingerprint() {
        String text = withChunk(ProviderFamily.DASHSCOPE, 3, chunk -> chunk.remove("system_fingerprint"));
        assertThat(notes(text)).containsExactly(
                "event 3 lacks 'system_fingerprint', which dashscope chunks usually carry");
    }

    @ParameterizedTest
    @MethodSource("families")
    @DisplayName("a first delta without the role, or a first tool-call delta without an id, is read, with a note")
    void roleAndToolCallId(ProviderFamily family) {
        String text = withChunk(family, 0, chunk -> ((ObjectNode) chunk.get("choices").get(0).get("delta"))
                .remove("role"));
        assertThat(notes(text)).containsExactly("event 0 lacks 'choices[0].delta.role': the first delta of a "
                + family.wireName() + " stream usually says \"assistant\"");
        Recording recording = RecordingsTest.synthesized(family, InvocationMode.CHAT_AGENT_TOOLS);
        int call = indexOf(recording, "\"id\":\"call_1\"");
        String anonymous = withChunk(family, call, chunk -> ((ObjectNode) chunk.get("choices").get(0).get("delta")
                .get("tool_calls").get(0)).remove("id"));
        assertThat(notes(anonymous)).containsExactly("event " + call
                + " lacks 'choices[0].delta.tool_calls[0].id' on the first delta of tool call 0");
    }

    @Test
    @DisplayName("openai-compatible, a missing family and an undescribed one: only the protocol is checked")
    void openAiCompatible() {
        String text = withChunk(ProviderFamily.OPENAI, 1,
                chunk -> ((ObjectNode) chunk.get("choices").get(0)).remove("logprobs"));
        assertThat(ProviderFamily.OPENAI_COMPATIBLE.deviations(List.of(Json.tree(text).get("response").get("events")
                .get(1).get("data").asString()))).isEmpty();
        String compatible = text.replace("\"provider\" : \"openai\"", "\"provider\" : \"openai-compatible\"");
        assertThat(compatible).isNotEqualTo(text);
        Recordings.Loaded loaded = Recordings.read(compatible, "c.json", List.of());
        assertThat(loaded.family()).isEqualTo(ProviderFamily.OPENAI_COMPATIBLE);
        assertThat(loaded.notes()).isEmpty();
        Recordings.Loaded absent = Recordings.read(text.replace("\"provider\" : \"openai\",", ""), "a.json",
                List.of());
        assertThat(absent.family()).isEqualTo(ProviderFamily.OPENAI_COMPATIBLE);
        assertThat(absent.recording().metadata().provider()).isEqualTo("openai-compatible");
        Recordings.Loaded sglang = Recordings.read(text.replace("\"provider\" : \"openai\"",
                "\"provider\" : \"sglang\""), "s.json", List.of());
        assertThat(sglang.family()).isEqualTo(ProviderFamily.OPENAI_COMPATIBLE);
        assertThat(sglang.recording().metadata().provider()).as("kept as written").isEqualTo("sglang");
        assertThat(sglang.notes()).singleElement().asString()
                .startsWith("no description of provider family 'sglang' was found; read as openai-compatible");
    }

    @Test
    @DisplayName("the message lists at most eight findings and counts the rest")
    void manyViolationsAreCounted() {
        Recording recording = RecordingsTest.synthesized(ProviderFamily.OPENAI, InvocationMode.DUAL_AGENT);
        List<Recording.TimedEvent> events = recording.response().events().stream()
                .map(e -> new Recording.TimedEvent(e.offsetMs(), e.data().replaceFirst("\"created\":\\d+,", "")))
                .toList();
        String text = Recordings.write(new Recording(recording.id(), recording.request(),
                new Recording.RecordedResponse(200, recording.response().headers(), events), recording.metadata()));
        int chunks = events.size() - 1;
        assertThatThrownBy(() -> Recordings.parse(text, "broken.json"))
                .hasMessageContaining("event 7: 'created' is missing").hasMessageNotContaining("event 8:")
                .hasMessageEndingWith("; and " + (chunks - 8) + " more");
    }

    @Test
    @DisplayName("what each family writes: envelope, first delta, tool-call continuation, finish and usage")
    void writerShapes() {
        List<String> openAi = ProviderFamily.OPENAI.stream("gpt-4o-mini", "k", DAY).content("Hi")
                .toolCall(0, "call_1", "f", List.of("{\"a\"", ":1}")).finish("tool_calls", ProviderStream.Usage.of(9, 2))
                .done().payloads();
        JsonNode first = Json.tree(openAi.get(0));
        assertThat(first.get("id").asString()).matches("chatcmpl-[A-Za-z0-9]{29}");
        assertThat(first.get("created").asLong()).isBetween(1_795_996_800L, 1_795_996_800L + 86_399);
        assertThat(first.get("system_fingerprint").asString()).matches("fp_[0-9a-f]{10}");
        assertThat(first.get("service_tier").asString()).isEqualTo("default");
        assertThat(first.get("usage").isNull()).isTrue();
        assertThat(first.get("choices").get(0).get("delta").toString())
                .isEqualTo("{\"role\":\"assistant\",\"content\":\"\",\"refusal\":null}");
        assertThat(openAi.get(2)).contains("\"function\":{\"name\":\"f\",\"arguments\":\"\"}");
        assertThat(openAi.get(3)).contains("\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"{\\\"a\\\"\"}}]");
        assertThat(Json.tree(openAi.get(6)).get("choices").size()).isZero();
        assertThat(Json.tree(openAi.get(6)).get("usage").get("completion_tokens_details").has("reasoning_tokens"))
                .isTrue();
        assertThat(openAi).last().isEqualTo("[DONE]");

        List<String> deepSeek = ProviderFamily.DEEPSEEK.stream("deepseek-chat", "k", DAY).content("Hi")
                .finish("stop", ProviderStream.Usage.of(120, 6).cached(64)).done().payloads();
        assertThat(Json.tree(deepSeek.get(0)).get("id").asString()).matches("[0-9a-f-]{36}");
        assertThat(Json.tree(deepSeek.get(0)).get("system_fingerprint").asString()).matches("fp_[0-9a-f]{10}_prod.*");
        JsonNode finish = Json.tree(deepSeek.get(2));
        assertThat(finish.get("choices").get(0).get("delta").toString()).isEqualTo("{\"content\":\"\"}");
        assertThat(finish.get("usage").get("prompt_cache_hit_tokens").asInt()).isEqualTo(64);
        assertThat(finish.get("usage").get("prompt_cache_miss_tokens").asInt()).isEqualTo(56);
        assertThat(finish.get("usage").get("prompt_tokens_details").get("cached_tokens").asInt()).isEqualTo(64);
        assertThat(deepSeek).hasSize(4);

        List<String> dashScope = ProviderFamily.DASHSCOPE.stream("qwen-plus", "k", DAY)
                .toolCall(0, "call_1", "f", List.of("{\"a\"", ":1}")).finish("tool_calls", null).done().payloads();
        assertThat(Json.tree(dashScope.get(0)).get("id").asString()).matches("chatcmpl-[0-9a-f-]{36}");
        assertThat(Json.tree(dashScope.get(0)).get("system_fingerprint").isNull()).isTrue();
        assertThat(Json.tree(dashScope.get(0)).has("usage")).as("no usage in the stream, no usage key").isFalse();
        assertThat(dashScope.get(1)).contains("\"function\":{\"name\":\"f\",\"arguments\":\"{\\\"a\\\"\"}");
        JsonNode continuation = Json.tree(dashScope.get(2)).get("choices").get(0);
        assertThat(continuation.get("delta").get("tool_calls").get(0).get("id").asString()).isEmpty();
        assertThat(continuation.has("finish_reason")).isFalse();
    }

    /**
     * A stream in the shape llama.cpp's {@code llama-server} sends, written by hand for this test (synthesized: the
     * keys, their order and the extensions follow the real server's streams; the text, ids and figures are invented).
     */
    private static final List<String> LLAMA_SERVER_SHAPE = List.of(
            "{\"choices\":[{\"finish_reason\":null,\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":null}}],"
                    + "\"created\":1796053776,\"id\":\"chatcmpl-Synthesized0Synthesized0Synthesi\",\"model\":\"local-model\","
                    + "\"system_fingerprint\":\"b1-0000000\",\"object\":\"chat.completion.chunk\"}",
            "{\"choices\":[{\"finish_reason\":null,\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,"
                    + "\"id\":\"SynthesizedToolCallId00000000000\",\"type\":\"function\",\"function\":{\"name\":"
                    + "\"device_volume_adjust\",\"arguments\":\"{\"}}]}}],\"created\":1796053777,"
                    + "\"id\":\"chatcmpl-Synthesized0Synthesized0Synthesi\",\"model\":\"local-model\","
                    + "\"system_fingerprint\":\"b1-0000000\",\"object\":\"chat.completion.chunk\"}",
            "{\"choices\":[{\"finish_reason\":null,\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,"
                    + "\"function\":{\"arguments\":\"\\\"mode\\\":\\\"mute\\\"}\"}}]}}],\"created\":1796053777,"
                    + "\"id\":\"chatcmpl-Synthesized0Synthesized0Synthesi\",\"model\":\"local-model\","
                    + "\"system_fingerprint\":\"b1-0000000\",\"object\":\"chat.completion.chunk\"}",
            "{\"choices\":[{\"finish_reason\":\"tool_calls\",\"index\":0,\"delta\":{}}],\"created\":1796053777,"
                    + "\"id\":\"chatcmpl-Synthesized0Synthesized0Synthesi\",\"model\":\"local-model\","
                    + "\"system_fingerprint\":\"b1-0000000\",\"object\":\"chat.completion.chunk\"}",
            "{\"choices\":[],\"created\":1796053777,\"id\":\"chatcmpl-Synthesized0Synthesized0Synthesi\","
                    + "\"model\":\"local-model\",\"system_fingerprint\":\"b1-0000000\",\"object\":\"chat.completion.chunk\","
                    + "\"usage\":{\"completion_tokens\":12,\"prompt_tokens\":300,\"total_tokens\":312,"
                    + "\"prompt_tokens_details\":{\"cached_tokens\":0}},\"timings\":{\"cache_n\":0,\"prompt_n\":300,"
                    + "\"prompt_ms\":2400.0,\"predicted_n\":12,\"predicted_ms\":600.0}}",
            "[DONE]");

    @Test
    @DisplayName("llamacpp: the server's shape is faithful (and noted as openai: no logprobs); the writer writes it")
    void llamaCpp() {
        assertThat(ProviderFamily.LLAMACPP.deviations(LLAMA_SERVER_SHAPE)).isEmpty();
        assertThat(ProviderFamily.OPENAI.deviations(LLAMA_SERVER_SHAPE))
                .contains("event 0 lacks 'choices[0].logprobs', which openai choices usually carry");
        List<String> withoutTimings = new ArrayList<>(LLAMA_SERVER_SHAPE);
        withoutTimings.set(4, withoutTimings.get(4).replaceFirst(",\"timings\":\\{[^}]*}", ""));
        assertThat(ProviderFamily.LLAMACPP.deviations(withoutTimings))
                .containsExactly("event 4 lacks 'timings' next to 'usage', which llamacpp usually sends");

        List<String> written = ProviderFamily.LLAMACPP.stream("local-model", "k", DAY).content("Hi")
                .toolCall(0, "call_1", "f", List.of("{\"a\"", ":1}")).finish("tool_calls", ProviderStream.Usage.of(9, 2))
                .done().payloads();
        assertThat(ProviderFamily.LLAMACPP.deviations(written)).isEmpty();
        JsonNode first = Json.tree(written.get(0));
        assertThat(first.get("id").asString()).matches("chatcmpl-[A-Za-z0-9]{32}");
        assertThat(first.get("system_fingerprint").asString()).matches("b1-[0-9a-f]{7}");
        assertThat(first.has("usage")).as("no \"usage\": null before the usage chunk").isFalse();
        assertThat(first.get("choices").get(0).toString())
                .isEqualTo("{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":null},\"finish_reason\":null}");
        assertThat(written.get(2)).contains("\"function\":{\"name\":\"f\",\"arguments\":\"{\\\"a\\\"\"}");
        JsonNode continuation = Json.tree(written.get(3)).get("choices").get(0);
        assertThat(continuation.get("delta").get("tool_calls").get(0).has("id")).isFalse();
        assertThat(continuation.has("finish_reason")).isTrue();
        JsonNode usage = Json.tree(written.get(5));
        assertThat(usage.get("choices").size()).isZero();
        assertThat(usage.get("timings").get("predicted_n").asInt()).isEqualTo(2);
        assertThat(written).last().isEqualTo("[DONE]");
    }

    @Test
    @DisplayName("the same key gives the same id and created; another key another id")
    void reproducibleIds() {
        String a = ProviderFamily.OPENAI.stream("m", "a", DAY).content("x").payloads().get(0);
        assertThat(ProviderFamily.OPENAI.stream("m", "a", DAY).content("x").payloads().get(0)).isEqualTo(a);
        assertThat(Json.tree(ProviderFamily.OPENAI.stream("m", "b", DAY).content("x").payloads().get(0)).get("id"))
                .isNotEqualTo(Json.tree(a).get("id"));
    }

    @Test
    @DisplayName("an unknown family is named with the ones there are and how to add one")
    void unknownFamily() {
        assertThat(ProviderFamily.fromWireName("DeepSeek")).isEqualTo(ProviderFamily.DEEPSEEK);
        assertThatThrownBy(() -> ProviderFamily.fromWireName("mistral"))
                .hasMessageStartingWith("unknown provider family 'mistral'; the kit describes openai, deepseek, "
                        + "dashscope and llamacpp (and openai-compatible for any other server); add your own as "
                        + "agentlab/families/<name>.json on the classpath");
        assertThatThrownBy(() -> ProviderFamily.fromWireName("../../etc/passwd"))
                .as("a name is a file name: it never leaves its folder").hasMessageStartingWith("unknown provider family");
    }

    @Test
    @DisplayName("a user's family: a file in a folder or on the classpath, extending a built-in, used to write and to note")
    void userFamily(@org.junit.jupiter.api.io.TempDir java.nio.file.Path folder) throws java.io.IOException {
        java.nio.file.Files.writeString(folder.resolve("vllm.json"), """
                {"name": "vllm", "description": "vLLM's OpenAI-compatible server", "extends": "openai",
                 "service_tier": null, "refusal": false, "completion_details": false}
                """);
        ProviderFamily vllm = ProviderFamily.fromWireName("vllm", List.of(folder));
        assertThat(vllm.wireName()).isEqualTo("vllm");
        assertThat(vllm.profile().idStyle()).isEqualTo(ProviderFamily.OPENAI.profile().idStyle());
        assertThat(vllm.profile().serviceTier()).isNull();
        List<String> written = vllm.stream("m", "k", DAY).content("Hi").finish("stop", ProviderStream.Usage.of(3, 1))
                .done().payloads();
        assertThat(written.get(0)).doesNotContain("service_tier").doesNotContain("refusal");
        assertThat(vllm.deviations(written)).isEmpty();
        assertThat(ProviderFamily.OPENAI.deviations(written)).isEmpty();
        assertThat(ProviderFamily.fromWireName("classpath-family").description())
                .as("found on the test classpath at agentlab/families/classpath-family.json")
                .isEqualTo("a family described only on the test classpath");
        java.nio.file.Files.writeString(folder.resolve("broken.json"), "{\"name\": \"broken\", \"id_style\": \"x\"}");
        assertThatThrownBy(() -> ProviderFamily.fromWireName("broken", List.of(folder)))
                .hasMessageContaining("broken.json: not a valid provider family").hasMessageContaining("id_style");
        java.nio.file.Files.writeString(folder.resolve("bare.json"), "{\"name\": \"bare\"}");
        assertThatThrownBy(() -> ProviderFamily.fromWireName("bare", List.of(folder)))
                .hasMessageContaining("gives no [id_style");
    }

    @Test
    @DisplayName("a built-in family's description reads back to the same profile")
    void describeRoundTrip() {
        for (ProviderFamily family : ProviderFamily.builtIns()) {
            ProviderFamily again = ProviderFamily.parse(Json.write(family.describe()), "described", name -> null);
            assertThat(again.profile()).as(family.wireName()).isEqualTo(family.profile());
        }
    }
}
