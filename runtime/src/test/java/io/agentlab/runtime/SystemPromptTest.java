package io.agentlab.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentlab.kernel.api.EventDefinition;
import io.agentlab.kernel.api.InvocationMode;
import io.agentlab.runtime.llm.ChatRequest;
import io.agentlab.runtime.llm.ProviderRegistry;
import java.time.ZoneId;
import java.util.Locale;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import io.agentlab.runtime.protocol.RuntimeConfig;

/**
 * The minimum mode-specific instruction ({@code docs/design.md#modes-minimal-instruction}): none at all when no event
 * is enabled.
 */
class SystemPromptTest {

    private static ChatRequest first(InvocationMode mode, EventDefinition... definitions) {
        try (TurnRuntime runtime = TurnRuntime.builder().definitions(definitions).providers(new ProviderRegistry())
                .config(RuntimeConfig.of(mode, "p", "m", "You are Pip.")).build()) {
            return runtime.firstRequest(new Conversation("s", ZoneId.of("UTC"), Locale.ENGLISH), "hello");
        }
    }

    @ParameterizedTest
    @EnumSource(InvocationMode.class)
    @DisplayName("no event enabled: the system prompt is the persona alone, no tools, in either mode")
    void personaAlone(InvocationMode mode) {
        ChatRequest request = first(mode);
        assertThat(request.messages().get(0).content()).isEqualTo("You are Pip.");
        assertThat(request.tools()).isEmpty();
    }

    @ParameterizedTest
    @EnumSource(InvocationMode.class)
    @DisplayName("with an event: the persona plus the mode's instruction")
    void withInstruction(InvocationMode mode) {
        ChatRequest request = first(mode, new TestEvents().lamp());
        assertThat(request.messages().get(0).content()).startsWith("You are Pip.\n\n").hasSizeGreaterThan(40);
    }
}
