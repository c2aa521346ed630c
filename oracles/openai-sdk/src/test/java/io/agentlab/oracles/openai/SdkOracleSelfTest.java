package io.agentlab.oracles.openai;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The oracle itself, over hand-made export files: good streams pass, and each DELIBERATELY BROKEN stream or export
 * below is caught with a finding that names what is wrong. Without these, a green oracle could mean it checks nothing.
 */
class SdkOracleSelfTest {

    private static final String ENVELOPE = "\"id\":\"chatcmpl-x\",\"object\":\"chat.completion.chunk\","
            + "\"created\":1796000000,\"model\":\"m\",\"system_fingerprint\":\"fp_0123456789\"";

    private static String chunk(String delta, String finish) {
        return "{" + ENVELOPE + ",\"choices\":[{\"index\":0,\"delta\":" + delta + ",\"logprobs\":null,"
                + "\"finish_reason\":" + (finish == null ? "null" : "\"" + finish + "\"") + "}]}";
    }

    private static String usageChunk(String usage) {
        return "{" + ENVELOPE + ",\"choices\":[],\"usage\":" + usage + "}";
    }

    private static final String ROLE = chunk("{\"role\":\"assistant\",\"content\":\"\"}", null);
    private static final String USAGE = "{\"prompt_tokens\":10,\"completion_tokens\":2,\"total_tokens\":12,"
            + "\"prompt_tokens_details\":{\"cached_tokens\":0}}";
    private static final String KIT_HELLO = "{\"outcome\":\"completed\",\"content\":\"Hello\",\"toolCalls\":[],"
            + "\"finishReason\":\"stop\",\"usage\":" + USAGE + "}";

    private static JsonNode stream(String family, String kit, String... payloads) throws IOException {
        ObjectNode stream = SdkOracle.FILES.createObjectNode();
        stream.put("id", "hand-made").put("family", family).put("source", "synthesized").put("origin", "this test");
        ArrayNode data = stream.putArray("payloads");
        for (String payload : payloads) {
            data.add(payload);
        }
        stream.set("kit", SdkOracle.FILES.readTree(kit));
        return stream;
    }

    private static JsonNode hello(String kit) throws IOException {
        return stream("openai", kit, ROLE, chunk("{\"content\":\"Hello\"}", null), chunk("{}", "stop"),
                usageChunk(USAGE), "[DONE]");
    }

    @Test
    @DisplayName("a faithful OpenAI stream agrees; DeepSeek's usage on the finish chunk is folded and agrees")
    void goodStreamsAgree() throws IOException {
        assertThat(SdkOracle.judge(hello(KIT_HELLO)).outcome()).isEqualTo(SdkOracle.Outcome.ACCUMULATED);
        String deepSeekUsage = "{\"prompt_tokens\":10,\"completion_tokens\":2,\"total_tokens\":12,"
                + "\"prompt_cache_hit_tokens\":4,\"prompt_cache_miss_tokens\":6}";
        JsonNode deepSeek = stream("deepseek", KIT_HELLO.replace(USAGE, deepSeekUsage), ROLE,
                chunk("{\"content\":\"Hello\"}", null),
                chunk("{\"content\":\"\"}", "stop").replace("}]}", "}],\"usage\":" + deepSeekUsage + "}"), "[DONE]");
        SdkOracle.Verdict verdict = SdkOracle.judge(deepSeek);
        assertThat(verdict.findings()).isEmpty();
        assertThat(verdict.outcome()).isEqualTo(SdkOracle.Outcome.FOLDED);
    }

    @Test
    @DisplayName("DELIBERATELY BROKEN: chunks without 'created' (what the kit shipped before) do not parse")
    void missingCreated() throws IOException {
        JsonNode broken = stream("openai", KIT_HELLO, ROLE.replace("\"created\":1796000000,", ""),
                chunk("{\"content\":\"Hello\"}", null), chunk("{}", "stop"), usageChunk(USAGE), "[DONE]");
        SdkOracle.Verdict verdict = SdkOracle.judge(broken);
        assertThat(verdict.outcome()).isEqualTo(SdkOracle.Outcome.DISAGREE);
        assertThat(verdict.findings()).singleElement().asString()
                .startsWith("event 0 does not parse as ChatCompletionChunk").contains("created");
    }

    @Test
    @DisplayName("DELIBERATELY BROKEN: the kit's text, finish reason or usage differs from what the SDK folds")
    void kitDiffers() throws IOException {
        assertThat(SdkOracle.judge(hello(KIT_HELLO.replace("\"Hello\"", "\"Hullo\""))).findings())
                .containsExactly("content: the SDK has \"Hello\", the kit \"Hullo\"");
        assertThat(SdkOracle.judge(hello(KIT_HELLO.replace("\"stop\"", "\"length\""))).findings())
                .containsExactly("finish reason: the SDK has \"stop\", the kit \"length\"");
        assertThat(SdkOracle.judge(hello(KIT_HELLO.replace("\"cached_tokens\":0", "\"cached_tokens\":7"))).findings())
                .contains("usage.prompt_tokens_details.cached_tokens: the SDK has 0, the kit 7");
        assertThat(SdkOracle.judge(hello(KIT_HELLO.replace(",\"usage\":" + USAGE, ",\"usage\":{}"))).findings())
                .singleElement().asString().startsWith("usage: the SDK has CompletionUsage");
    }

    @Test
    @DisplayName("DELIBERATELY BROKEN: DashScope's \"id\": \"\" continuation taken for a new call (the kit's old fold)")
    void toolCallSplitByEmptyId() throws IOException {
        String first = chunk("{\"tool_calls\":[{\"index\":0,\"id\":\"call_1\",\"type\":\"function\","
                + "\"function\":{\"name\":\"f\",\"arguments\":\"{\\\"a\\\"\"}}]}", null);
        String continuation = chunk("{\"tool_calls\":[{\"index\":0,\"id\":\"\",\"type\":\"function\","
                + "\"function\":{\"arguments\":\":1}\"}}]}", null);
        String kitSplit = "{\"outcome\":\"completed\",\"content\":\"\",\"toolCalls\":["
                + "{\"index\":0,\"id\":\"call_1\",\"name\":\"f\",\"arguments\":\"{\\\"a\\\"\"},"
                + "{\"index\":1,\"id\":\"\",\"name\":\"\",\"arguments\":\":1}\"}],\"finishReason\":\"tool_calls\","
                + "\"usage\":{}}";
        JsonNode broken = stream("dashscope", kitSplit, ROLE, first, continuation, chunk("{}", "tool_calls"), "[DONE]");
        SdkOracle.Verdict verdict = SdkOracle.judge(broken);
        assertThat(verdict.outcome()).isEqualTo(SdkOracle.Outcome.DISAGREE);
        assertThat(verdict.findings()).contains("tool call 0 arguments: the SDK has \"{\"a\":1}\", the kit "
                + "\"{\"a\"\"").anySatisfy(f -> assertThat(f).startsWith("tool calls: the SDK has 1, the kit 2"));
        String kitRight = kitSplit.replace("{\\\"a\\\"\"},{\"index\":1,\"id\":\"\",\"name\":\"\",\"arguments\":\":1}\"}",
                "{\\\"a\\\":1}\"}");
        assertThat(SdkOracle.judge(stream("dashscope", kitRight, ROLE, first, continuation, chunk("{}", "tool_calls"),
                "[DONE]")).findings()).isEmpty();
    }

    @Test
    @DisplayName("faults: both reject a cut chunk and a truncated stream; DELIBERATELY BROKEN: the kit completing one")
    void faults() throws IOException {
        String malformed = "{\"outcome\":\"rejected\",\"error\":\"MALFORMED_CHUNK\",\"message\":\"chunk 2 is not JSON\"}";
        assertThat(SdkOracle.judge(stream("openai", malformed, ROLE, "{\"choices\":[{\"delta\":{\"content\":"))
                .outcome()).isEqualTo(SdkOracle.Outcome.BOTH_REJECT);
        String truncated = "{\"outcome\":\"rejected\",\"error\":\"TRUNCATED\",\"message\":\"no finish\"}";
        assertThat(SdkOracle.judge(stream("openai", truncated, ROLE, chunk("{\"content\":\"Hel\"}", null)))
                .outcome()).isEqualTo(SdkOracle.Outcome.BOTH_REJECT);
        SdkOracle.Verdict completes = SdkOracle.judge(stream("openai", KIT_HELLO, ROLE, chunk("{\"content\":\"Hel\"}",
                null)));
        assertThat(completes.outcome()).isEqualTo(SdkOracle.Outcome.DISAGREE);
        assertThat(completes.findings()).singleElement().asString()
                .startsWith("the SDK's accumulator fails: Final chat completion chunk(s) not yet received");
        SdkOracle.Verdict wrongReason = SdkOracle.judge(stream("openai", truncated, ROLE,
                "{\"choices\":[{\"delta\":{\"content\":"));
        assertThat(wrongReason.findings()).singleElement().asString()
                .contains("but the kit rejects the stream for another reason: TRUNCATED");
    }

    private static String choice(int index, String delta, String finish) {
        return "{" + ENVELOPE + ",\"choices\":[{\"index\":" + index + ",\"delta\":" + delta + ",\"logprobs\":null,"
                + "\"finish_reason\":" + (finish == null ? "null" : "\"" + finish + "\"") + "}]}";
    }

    private static String kitChoice(int index, String content, String calls, String finish) {
        return "{\"index\":" + index + ",\"content\":\"" + content + "\",\"refusal\":\"\",\"reasoning\":\"\","
                + "\"toolCalls\":" + calls + ",\"finishReason\":\"" + finish + "\"}";
    }

    @Test
    @DisplayName("n = 2: choice 0 is compared with the kit's completion and each choice apart; DELIBERATELY BROKEN: "
            + "the choices mixed into one text (the kit's old fold)")
    void twoChoices() throws IOException {
        String[] payloads = {choice(0, "{\"role\":\"assistant\",\"content\":\"\"}", null),
            choice(1, "{\"role\":\"assistant\",\"content\":\"\"}", null), choice(0, "{\"content\":\"Hel\"}", null),
            choice(1, "{\"content\":\"By\"}", null), choice(0, "{\"content\":\"lo\"}", null),
            choice(1, "{\"content\":\"e\"}", null), choice(0, "{}", "stop"), choice(1, "{}", "stop"), usageChunk(USAGE),
            "[DONE]"};
        String choices = ",\"choices\":[" + kitChoice(0, "Hello", "[]", "stop") + "," + kitChoice(1, "Bye", "[]", "stop")
                + "]";
        SdkOracle.Verdict right = SdkOracle.judge(stream("openai", KIT_HELLO.replace("}}", "}}" + choices), payloads));
        assertThat(right.findings()).isEmpty();
        assertThat(right.notes()).singleElement().asString().startsWith("2 choices");
        String mixed = KIT_HELLO.replace("\"Hello\"", "\"HelBylo\"").replace("}}", "}}" + choices.replace(
                "," + kitChoice(1, "Bye", "[]", "stop"), ""));
        assertThat(SdkOracle.judge(stream("openai", mixed, payloads)).findings())
                .contains("content: the SDK has \"Hello\", the kit \"HelBylo\"", "choices: the SDK has 2, the kit 1");
    }

    @Test
    @DisplayName("reasoning_content deltas are compared, concatenated; DELIBERATELY BROKEN: the kit dropping them "
            + "(its old fold)")
    void reasoning() throws IOException {
        String[] payloads = {ROLE, chunk("{\"content\":null,\"reasoning_content\":\"Lamp \"}", null),
            chunk("{\"content\":null,\"reasoning_content\":\"on.\"}", null),
            chunk("{\"content\":\"Hello\",\"reasoning_content\":null}", null), chunk("{}", "stop"), usageChunk(USAGE),
            "[DONE]"};
        String kit = KIT_HELLO.replace("}}", "}},\"choices\":[" + kitChoice(0, "Hello", "[]", "stop") + "]");
        assertThat(SdkOracle.judge(stream("deepseek", kit.replace("\"reasoning\":\"\"", "\"reasoning\":\"Lamp on.\""),
                payloads)).findings()).isEmpty();
        assertThat(SdkOracle.judge(stream("deepseek", kit, payloads)).findings())
                .containsExactly("choice 0 reasoning: the SDK has \"Lamp on.\", the kit \"\"");
    }

    @Test
    @DisplayName("tool calls by index: the same id at index 0 and 1 is two calls, a call with no id is call_<index>; "
            + "DELIBERATELY BROKEN: calls merged by id (the kit's old fold), a made-up id that is not call_<index>")
    void toolCallsByIndex() throws IOException {
        String first = chunk("{\"tool_calls\":[{\"index\":0,\"id\":\"call_0\",\"type\":\"function\","
                + "\"function\":{\"name\":\"f\",\"arguments\":\"{}\"}}]}", null);
        String second = chunk("{\"tool_calls\":[{\"index\":1,\"id\":\"call_0\",\"type\":\"function\","
                + "\"function\":{\"name\":\"f\",\"arguments\":null}}]}", null);
        String rest = chunk("{\"tool_calls\":[{\"index\":1,\"function\":{\"arguments\":\"{}\"}}]}", null);
        String two = "{\"outcome\":\"completed\",\"content\":\"\",\"toolCalls\":["
                + "{\"index\":0,\"id\":\"call_0\",\"name\":\"f\",\"arguments\":\"{}\"},"
                + "{\"index\":1,\"id\":\"call_0\",\"name\":\"f\",\"arguments\":\"{}\"}],"
                + "\"finishReason\":\"tool_calls\",\"usage\":{}}";
        String[] payloads = {ROLE, first, second, rest, chunk("{}", "tool_calls"), "[DONE]"};
        assertThat(SdkOracle.judge(stream("openai-compatible", two, payloads)).findings()).isEmpty();
        String merged = two.replace("{\"index\":0,\"id\":\"call_0\",\"name\":\"f\"",
                "{\"index\":0,\"id\":\"call_0\",\"name\":\"ff\"").replace("\"id\":\"call_0\",\"name\":\"f\",", "\"id\":\"call_1\",\"name\":\"\",");
        assertThat(SdkOracle.judge(stream("openai-compatible", merged, payloads)).findings())
                .contains("tool call 0 name: the SDK has \"f\", the kit \"ff\"",
                        "tool call 1 name: the SDK has \"f\", the kit \"\"");

        String[] noIds = {ROLE, chunk("{\"tool_calls\":[{\"index\":0,\"type\":\"function\",\"function\":"
                + "{\"name\":\"f\",\"arguments\":\"{}\"}}]}", null), chunk("{}", "tool_calls"), "[DONE]"};
        String kitNoId = "{\"outcome\":\"completed\",\"content\":\"\",\"toolCalls\":[{\"index\":0,\"id\":\"call_0\","
                + "\"name\":\"f\",\"arguments\":\"{}\"}],\"finishReason\":\"tool_calls\",\"usage\":{}}";
        assertThat(SdkOracle.judge(stream("openai-compatible", kitNoId, noIds)).findings()).isEmpty();
        assertThat(SdkOracle.judge(stream("openai-compatible", kitNoId.replace("call_0", "call_7"), noIds)).findings())
                .containsExactly("tool call 0 id (none sent: call_0): the SDK has \"call_0\", the kit \"call_7\"");
    }

    @Test
    @DisplayName("a finish reason before the end is folded from the last one; DELIBERATELY BROKEN: the kit stopping "
            + "at the first")
    void earlyFinish() throws IOException {
        String[] payloads = {ROLE, chunk("{\"content\":\"Hel\"}", "stop"), chunk("{\"content\":\"lo\"}", null),
            chunk("{}", "stop"), usageChunk(USAGE), "[DONE]"};
        SdkOracle.Verdict verdict = SdkOracle.judge(stream("openai-compatible", KIT_HELLO, payloads));
        assertThat(verdict.findings()).isEmpty();
        assertThat(verdict.outcome()).isEqualTo(SdkOracle.Outcome.EARLY_FINISH);
        assertThat(SdkOracle.judge(stream("openai-compatible", KIT_HELLO.replace("\"Hello\"", "\"Hel\""), payloads))
                .findings()).containsExactly("content: the SDK has \"Hello\", the kit \"Hel\"");
    }

    @Test
    @DisplayName("Azure's first chunk (object \"\", choices []) is read as the SDK's client reads it, noted; "
            + "\"prompt_tokens_details\": null is no details; DELIBERATELY BROKEN: the kit keeping details the SDK lacks")
    void azureAndNullDetails() throws IOException {
        String filters = "{\"choices\":[],\"created\":0,\"id\":\"\",\"model\":\"\",\"object\":\"\","
                + "\"prompt_filter_results\":[{\"prompt_index\":0}]}";
        String nullDetails = "{\"prompt_tokens\":10,\"completion_tokens\":2,\"total_tokens\":12,"
                + "\"prompt_tokens_details\":null}";
        String kit = KIT_HELLO.replace(USAGE, "{\"prompt_tokens\":10,\"completion_tokens\":2,\"total_tokens\":12}");
        String[] payloads = {filters, ROLE, chunk("{\"content\":\"Hello\"}", null), chunk("{}", "stop"),
            usageChunk(nullDetails), "[DONE]"};
        SdkOracle.Verdict verdict = SdkOracle.judge(stream("openai-compatible", kit, payloads));
        assertThat(verdict.findings()).isEmpty();
        assertThat(verdict.outcome()).isEqualTo(SdkOracle.Outcome.ACCUMULATED);
        assertThat(verdict.notes()).singleElement().asString().contains("'object_' is invalid");
        assertThat(SdkOracle.judge(stream("openai-compatible", KIT_HELLO, payloads)).findings())
                .contains("usage.prompt_tokens_details.cached_tokens: the SDK has null, the kit 0");
    }

    /** A complete export of agreeing streams, one per family and source, with its manifest. */
    private static void writeGoodExport(Path directory) throws IOException {
        StringBuilder families = new StringBuilder();
        for (String family : OracleRun.FAMILIES) {
            families.append(families.isEmpty() ? "" : ",").append("\"").append(family)
                    .append("\":{\"shipped\":1,\"synthesized\":1}");
            for (String source : OracleRun.SOURCES) {
                JsonNode good = hello(KIT_HELLO);
                ((ObjectNode) good).put("family", family).put("source", source);
                Path file = directory.resolve(family).resolve(source).resolve("hand-made.json");
                Files.createDirectories(file.getParent());
                Files.writeString(file, good.toString());
            }
        }
        Files.writeString(directory.resolve("manifest.json"), "{\"streams\":" + 2 * OracleRun.FAMILIES.size()
                + ",\"families\":{" + families + "}}");
    }

    @Test
    @DisplayName("DELIBERATELY BROKEN file in an otherwise good export: the run fails naming the stream and the field")
    void brokenFileFailsTheRun(@TempDir Path directory) throws IOException {
        writeGoodExport(directory);
        assertThat(OracleRun.of(directory).problems()).isEmpty();
        Path file = directory.resolve("deepseek").resolve("shipped").resolve("hand-made.json");
        Files.writeString(file, Files.readString(file).replace("\\\"created\\\":1796000000,", ""));
        assertThat(OracleRun.of(directory).problems()).singleElement().asString()
                .startsWith("deepseek/shipped/hand-made: DISAGREE [event 0 does not parse as ChatCompletionChunk")
                .contains("created");
    }

    @Test
    @DisplayName("DELIBERATELY BROKEN exports: none, an empty manifest, fewer files than counted — never a silent pass")
    void incompleteExports(@TempDir Path directory) throws IOException {
        assertThat(OracleRun.of(directory.resolve("absent")).problems()).singleElement().asString()
                .startsWith("no export at");

        Files.writeString(directory.resolve("manifest.json"), "{\"streams\":0,\"families\":{}}");
        assertThat(OracleRun.of(directory).problems()).contains("the manifest counts no stream",
                "the manifest counts no shipped openai stream", "the manifest counts no synthesized dashscope stream");

        writeGoodExport(directory);
        OracleRun complete = OracleRun.of(directory);
        assertThat(complete.problems()).isEmpty();
        assertThat(complete.verdicts()).hasSize(2 * OracleRun.FAMILIES.size());
        assertThat(complete.summary()).contains("deepseek" + " ".repeat(10) + "synthesized" + " ".repeat(8) + "1");

        Files.delete(directory.resolve("deepseek").resolve("synthesized").resolve("hand-made.json"));
        int streams = 2 * OracleRun.FAMILIES.size();
        assertThat(OracleRun.of(directory).problems()).containsExactly("found " + (streams - 1) + " stream files, the "
                + "manifest counts " + streams, "deepseek synthesized: found 0 stream files, the manifest counts 1");
        List<String> noManifest = OracleRun.of(directory.resolve("openai")).problems();
        assertThat(noManifest).singleElement().asString().startsWith("no export at");
    }
}
