package io.agentlab.providers.recorded;

import static org.assertj.core.api.Assertions.assertThat;

import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.EncodingType;
import io.agentlab.kernel.runtime.llm.Json;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Prompt tokens follow the published recipe exactly, however often a text is counted. */
class PromptTokensTest {

    private static final Encoding O200K = Encodings.newDefaultEncodingRegistry().getEncoding(EncodingType.O200K_BASE);

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
}
