package io.agentlab.runtime.llm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The request body with each tool's element remembered ({@code docs/performance.md#tool-elements}) is the body written
 * as one tree, byte for byte: the tree is built here as {@link ChatRequestJson} built it before it remembered anything.
 * QuickTheories prints the seed of a failure; rerun it with {@code -Dagentlab-build.properties.seed=N}.
 */
class ChatRequestJsonTest {

    private static final int EXAMPLES = Integer.getInteger("agentlab-build.properties.examples", 2_000);
    private static final Long SEED = Long.getLong("agentlab-build.properties.seed");

    private static final List<String> NAMES = List.of("device_volume_adjust", "session_end", "calendar_reminder_add",
            "knowledge_web_search");
    private static final List<String> DESCRIPTIONS = List.of("Adjust the volume.", "", "天气 🙂 \"quoted\"\n",
            "End the session.");
    /** Schema texts as a plugin may write them: spaced, compact, with escapes, numbers and nesting. */
    private static final List<String> SCHEMAS = List.of(
            "{\"type\":\"object\",\"properties\":{}}",
            """
            {"type": "object",
             "properties": {"value": {"type": "integer", "minimum": 0, "maximum": 100}},
             "required": ["value"], "additionalProperties": false}""",
            "{ \"type\" : \"object\", \"properties\" : { \"q\" : { \"type\" : \"string\", \"maxLength\" : 300,"
                    + " \"description\" : \"focused \\u0071uery \\\"x\\\"\" } } }",
            "{\"type\":\"object\",\"properties\":{\"at\":{\"type\":\"number\",\"multipleOf\":0.5,"
                    + "\"default\":1.0E2}}}");

    @Test
    @DisplayName("a body with remembered tool elements is the body written as one tree, for generated requests")
    void sameBodyAsOneTree() {
        Gen<ToolSpec> tools = integers().between(0, NAMES.size() - 1).zip(
                integers().between(0, DESCRIPTIONS.size() - 1), integers().between(0, SCHEMAS.size() - 1),
                (name, description, schema) -> new ToolSpec(NAMES.get(name), DESCRIPTIONS.get(description),
                        SCHEMAS.get(schema)));
        var base = qt().withExamples(EXAMPLES);
        (SEED == null ? base : base.withFixedSeed(SEED))
                .forAll(lists().of(tools).ofSizeBetween(0, 6))
                .checkAssert(specs -> {
                    ChatRequest request = request(specs);
                    assertThat(ChatRequestJson.write(request)).isEqualTo(asOneTree(request));
                    assertThat(ChatRequestJson.write(request)).as("written again, from memory")
                            .isEqualTo(asOneTree(request));
                    assertThat(ChatRequestJson.toolsJson(request))
                            .isEqualTo(specs.isEmpty() ? "" : Json.write(toolsTree(specs)));
                });
    }

    @Test
    @DisplayName("tools that share a name but not a schema or a description each keep their own element")
    void elementsOfEqualNames() {
        List<ToolSpec> specs = List.of(new ToolSpec("t", "a", SCHEMAS.get(0)), new ToolSpec("t", "a", SCHEMAS.get(1)),
                new ToolSpec("t", "b", SCHEMAS.get(1)), new ToolSpec("t", "b", SCHEMAS.get(1)));
        for (int round = 0; round < 2; round++) {
            for (int i = 0; i < specs.size(); i++) {
                ChatRequest request = request(specs.subList(i, i + 1));
                assertThat(ChatRequestJson.write(request)).as("round %d, tool %d", round, i)
                        .isEqualTo(asOneTree(request));
            }
        }
    }

    @Test
    @DisplayName("past the memory's bound every body is still exact, and a tool without a description is written null")
    void pastTheBound() {
        List<ToolSpec> specs = new ArrayList<>();
        for (int i = 0; i < ChatRequestJson.REMEMBERED_TOOLS * 2 + 3; i++) {
            specs.add(new ToolSpec("tool_" + i, i % 7 == 0 ? null : "tool " + i,
                    "{\"type\":\"object\",\"properties\":{\"n%d\":{\"const\":%d}}}".formatted(i, i)));
        }
        for (int round = 0; round < 2; round++) {
            for (int from = 0; from < specs.size(); from += 5) {
                ChatRequest request = request(specs.subList(from, Math.min(specs.size(), from + 9)));
                assertThat(ChatRequestJson.write(request)).as("round %d, tools from %d", round, from)
                        .isEqualTo(asOneTree(request));
                assertThat(ChatRequestJson.rememberedTools()).isLessThanOrEqualTo(ChatRequestJson.REMEMBERED_TOOLS);
            }
        }
    }

    @Test
    @DisplayName("a schema that is not JSON fails the body as it always did, and is not remembered")
    void invalidSchemaIsNotRemembered() {
        ChatRequest request = request(List.of(new ToolSpec("broken", "d", "{\"type\":")));
        int remembered = ChatRequestJson.rememberedTools();
        assertThatThrownBy(() -> ChatRequestJson.write(request)).isInstanceOf(JacksonException.class);
        assertThatThrownBy(() -> ChatRequestJson.toolsJson(request)).as("asked again")
                .isInstanceOf(JacksonException.class);
        assertThat(ChatRequestJson.rememberedTools()).isEqualTo(remembered);
    }

    private static ChatRequest request(List<ToolSpec> tools) {
        return new ChatRequest("gpt-4o-mini", List.of(ChatMessage.system("Be brief."), ChatMessage.user("louder")),
                tools, 0.2, 64, true, CallRole.CHAT, 7L);
    }

    /** The body as one tree, the way it was written before tool elements were remembered. */
    private static String asOneTree(ChatRequest request) {
        ObjectNode body = Json.MAPPER.createObjectNode();
        body.put("model", request.model());
        ArrayNode messages = body.putArray("messages");
        for (ChatMessage message : request.messages()) {
            messages.addObject().put("role", message.role().name().toLowerCase(Locale.ROOT))
                    .put("content", message.content());
        }
        if (!request.tools().isEmpty()) {
            body.set("tools", toolsTree(request.tools()));
        }
        body.put("temperature", request.temperature());
        body.put("max_tokens", request.maxTokens());
        body.put("seed", request.seed());
        body.put("stream", true);
        body.putObject("stream_options").put("include_usage", true);
        return Json.write(body);
    }

    private static ArrayNode toolsTree(List<ToolSpec> specs) {
        ArrayNode tools = Json.MAPPER.createArrayNode();
        for (ToolSpec tool : specs) {
            ObjectNode function = tools.addObject().put("type", "function").putObject("function");
            function.put("name", tool.name());
            function.put("description", tool.description());
            function.set("parameters", Json.tree(tool.parametersJson()));
        }
        return tools;
    }
}
