package io.agentlab.tokens;

import static org.assertj.core.api.Assertions.assertThat;

import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.EncodingRegistry;
import com.knuddels.jtokkit.api.EncodingType;
import io.agentlab.kernel.api.EventDefinition;
import io.agentlab.kernel.api.HandlerResult;
import io.agentlab.kernel.api.ResultPolicy;
import io.agentlab.kernel.api.InvocationMode;
import io.agentlab.runtime.protocol.InvocationProtocol;
import io.agentlab.runtime.protocol.RuntimeConfig;
import io.agentlab.runtime.llm.ChatMessage;
import io.agentlab.runtime.llm.ChatRequest;
import io.agentlab.runtime.llm.ChatRequestJson;
import io.agentlab.runtime.llm.Json;
import io.agentlab.runtime.llm.ToolCall;
import org.junit.jupiter.api.DisplayName;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Prompt tokens follow the published recipe exactly, however often a text is counted. */
class PromptTokensTest {

    private static final EncodingRegistry REGISTRY = Encodings.newDefaultEncodingRegistry();
    private static final Encoding O200K = REGISTRY.getEncoding(EncodingType.O200K_BASE);

    @Test
    @DisplayName("a model name picks the encoding jtokkit's registry picks for it, o200k_base when it knows none")
    void encodingFollowsTheModel() {
        for (String model : List.of("gpt-4o-mini", "gpt-4o-2024-08-06", "gpt-4o", "gpt-4", "gpt-4-0613",
                "gpt-4-32k-0314", "gpt-4-turbo", "gpt-3.5-turbo", "gpt-3.5-turbo-16k-0613", "text-davinci-003",
                "o1-mini", "qwen-plus", "", "pip-small")) {
            EncodingType expected = REGISTRY.getEncodingForModel(model).map(encoding -> EncodingType
                    .fromName(encoding.getName()).orElseThrow()).orElse(EncodingType.O200K_BASE);
            assertThat(PromptTokens.encodingFor(model)).as(model).isEqualTo(expected);
        }
        String body = "{\"model\":\"gpt-4\",\"messages\":[{\"role\":\"user\",\"content\":\"turn it up\"}]}";
        Encoding cl100k = REGISTRY.getEncoding(EncodingType.CL100K_BASE);
        assertThat(PromptTokens.count(body))
                .isEqualTo(3 + 3 + cl100k.countTokens("user") + cl100k.countTokens("turn it up"));
    }

    /** The clause this checks: {@code docs/design.md#usage-protocol-overhead-counted}. */
    @Test
    @DisplayName("a request counts as its body does: both protocols, 0 to 2 events, history with tool calls")
    void requestCountsAsItsBody() {
        List<EventDefinition> all = definitions();
        List<ChatMessage> history = List.of(ChatMessage.user("switch the lamp on"),
                ChatMessage.assistantToolCalls(null, List.of(new ToolCall("c1", "lamp_power_toggle",
                        "{\"state\":\"on\"}"))),
                ChatMessage.tool("c1", "{\"ok\":true}"), ChatMessage.assistant("Done — the lamp is on. 💡"),
                ChatMessage.assistantToolCalls("", List.of(new ToolCall("c2", null, null))));
        for (InvocationMode mode : InvocationMode.values()) {
            for (String model : List.of("gpt-4o-mini", "gpt-4")) {
                for (int events = 0; events <= all.size(); events++) {
                    InvocationProtocol protocol = InvocationProtocol.of(RuntimeConfig.of(mode, "p", model,
                            "You are Pip, a friendly toy — answer briefly."), all.subList(0, events));
                    for (List<ChatMessage> before : List.of(List.<ChatMessage>of(), history)) {
                        ChatRequest request = protocol.firstRequest(before, "turn it up a bit, \"please\"");
                        assertThat(PromptTokens.count(request)).as("%s, %s, %d events, %d earlier messages", mode,
                                model, events, before.size())
                                .isEqualTo(PromptTokens.count(ChatRequestJson.write(request)));
                    }
                }
            }
        }
    }

    @Test
    @DisplayName("a message holding a special-token marker is counted as its characters, never refused")
    void specialMarkersAreOrdinaryText() {
        String user = "say <|endoftext|> and <|endofprompt|> aloud";
        String body = "{\"model\":\"gpt-4o-mini\",\"messages\":[{\"role\":\"user\",\"content\":"
                + Json.write(user) + "}]}";
        assertThat(PromptTokens.count(body))
                .isEqualTo(3 + 3 + O200K.countTokens("user") + O200K.countTokensOrdinary(user));
        assertThat(PromptTokens.completion(user)).isEqualTo(O200K.countTokensOrdinary(user));
    }

    @Test
    @DisplayName("a remembered long text counts the same as counting it afresh, past the memory's bound too")
    void rememberedCountsAreExact() {
        String tools = "[{\"type\":\"function\",\"function\":{\"name\":\"device_volume_adjust\",\"description\":"
                + "\"Change the device volume.\",\"parameters\":{\"type\":\"object\",\"properties\":{\"mode\":"
                + "{\"type\":\"string\",\"enum\":[\"absolute\",\"relative\"]},\"value\":{\"type\":\"integer\"}}}}}]";
        // more distinct long system prompts than are remembered, each counted twice, so the memory fills, starts
        // again and serves remembered counts in between
        for (int round = 0; round < 2; round++) {
            for (int i = 0; i < PromptTokens.REMEMBERED_TEXTS + 20; i++) {
                String system = ("You are Pip, variant " + i + ". ").repeat(20);
                assertThat(system.length()).isGreaterThanOrEqualTo(PromptTokens.REMEMBERED_LENGTH);
                String user = "set the volume to " + i;
                String body = "{\"model\":\"gpt-4o-mini\",\"messages\":[{\"role\":\"system\",\"content\":"
                        + Json.write(system) + "},{\"role\":\"user\",\"content\":" + Json.write(user) + "}],"
                        + "\"tools\":" + tools + "}";
                int expected = 3 + 3 + O200K.countTokens("system") + O200K.countTokens(system)
                        + 3 + O200K.countTokens("user") + O200K.countTokens(user)
                        + O200K.countTokens(Json.write(Json.tree(tools)));
                assertThat(PromptTokens.count(body)).as("round %d, prompt %d", round, i).isEqualTo(expected);
            }
        }
    }

    /** Two small events: what the request carries of them is what is counted, not what they do. */
    private static List<EventDefinition> definitions() {
        return List.of(
                EventDefinition.builder("lamp.power.toggle").schemaVersion("1.0.0")
                        .description("Switch the lamp on or off.")
                        .argumentsSchema("{\"type\":\"object\",\"properties\":{\"state\":{\"enum\":[\"on\",\"off\"]}},"
                                + "\"required\":[\"state\"]}")
                        .handler(invocation -> HandlerResult.success(Map.of())).resultPolicy(ResultPolicy.SILENT_SUCCESS).build(),
                EventDefinition.builder("note.text.create").schemaVersion("1.0.0").description("Write down a note.")
                        .argumentsSchema("{\"type\":\"object\",\"properties\":{\"text\":{\"type\":\"string\"}},"
                                + "\"required\":[\"text\"]}")
                        .handler(invocation -> HandlerResult.success(Map.of())).resultPolicy(ResultPolicy.SILENT_SUCCESS).build());
    }
}
