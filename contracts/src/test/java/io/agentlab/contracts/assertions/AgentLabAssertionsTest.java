package io.agentlab.contracts.assertions;

import static io.agentlab.contracts.assertions.AgentLabAssertions.assertThat;
import static io.agentlab.contracts.assertions.AgentLabAssertions.assertThatAudit;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.agentlab.kernel.api.InvocationMode;
import io.agentlab.kernel.api.ResolutionOutcome;
import io.agentlab.runtime.Conversation;
import io.agentlab.runtime.protocol.RuntimeConfig;
import io.agentlab.runtime.TurnResult;
import io.agentlab.runtime.TurnRuntime;
import io.agentlab.runtime.VisibleSink;
import io.agentlab.runtime.llm.CallRole;
import io.agentlab.runtime.llm.Chunks;
import io.agentlab.runtime.llm.ProviderRegistry;
import io.agentlab.runtime.llm.ScriptedChatProvider;
import io.agentlab.plugins.BuiltInPlugins;
import java.time.ZoneId;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.opentest4j.AssertionFailedError;

/** The AssertJ entry points on a real turn: they pass on what happened and fail with expected vs actual. */
class AgentLabAssertionsTest {

    private static TurnResult turn;

    @BeforeAll
    static void runTurn() {
        ScriptedChatProvider provider = new ScriptedChatProvider().enqueue(Chunks.stream("m").content("Volume 30.")
                .toolCall(0, "call_1", "device_volume_adjust", "{\"mode\":\"absolute\",\"value\":30}")
                .finish("tool_calls").done().payloads());
        try (TurnRuntime runtime = TurnRuntime.builder().plugins(BuiltInPlugins.withInMemoryPorts())
                .providers(new ProviderRegistry().register("p", provider))
                .config(RuntimeConfig.of(InvocationMode.CHAT_AGENT_TOOLS, "p", "m", "You are Pip.")).build()) {
            turn = runtime.runTurn(new Conversation("s", ZoneId.of("UTC"), Locale.ENGLISH), "set the volume to 30",
                    VisibleSink.discard());
        }
    }

    @Test
    @DisplayName("fluent checks pass on what the turn did")
    void passes() {
        assertThat(turn).endedWithoutError().firstAnswerContains("Volume 30").hasPolicy("complete").hasNoFollowUp()
                .hasEvents("device.volume.adjust").hasCalls(CallRole.CHAT, 1).hasCalls(CallRole.FOLLOW_UP, 0)
                .event(0).succeeded().hasArgument("value", 30)
                .hasArguments(Map.of("mode", "absolute", "value", 30)).wasResolved(ResolutionOutcome.DETERMINISTIC);
        assertThatAudit(turn.audit()).containsTypesInOrder("RUN_STARTED", "TOOL_CALL_START", "TOOL_CALL_RESULT",
                "RUN_FINISHED").passesStreamChecker(turn.turnId());
    }

    @Test
    @DisplayName("failures show expected and actual side by side")
    void failures() {
        assertThatThrownBy(() -> assertThat(turn).event(0).hasArgument("value", 40))
                .isInstanceOf(AssertionFailedError.class)
                .hasMessage("expected argument <value> of call_1 (device.volume.adjust) to be 40 but was 30")
                .satisfies(e -> org.assertj.core.api.Assertions.assertThat(((AssertionFailedError) e).getExpected()
                        .getStringRepresentation()).isEqualTo("40"));
        assertThatThrownBy(() -> assertThat(turn).hasPolicy("follow_up"))
                .hasMessage("expected policy <follow_up> but was <complete>");
        assertThatThrownBy(() -> assertThat(turn).hasEvents("session.terminate"))
                .hasMessage("expected events [session.terminate] but the batch had [device.volume.adjust]");
        assertThatThrownBy(() -> assertThatAudit(turn.audit()).containsTypesInOrder("RUN_FINISHED", "RUN_STARTED"))
                .hasMessageStartingWith("expected the stream to contain [RUN_FINISHED, RUN_STARTED] in order, but "
                        + "RUN_STARTED (item 2) never came");
    }
}
