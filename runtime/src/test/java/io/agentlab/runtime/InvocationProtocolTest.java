package io.agentlab.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentlab.kernel.api.ContinuationDecision;
import io.agentlab.kernel.api.FollowUpReason;
import io.agentlab.kernel.api.FollowUpSummary;
import io.agentlab.kernel.api.InvocationMode;
import io.agentlab.runtime.llm.CallRole;
import io.agentlab.runtime.llm.ChatCompletion;
import io.agentlab.runtime.llm.ChatMessage;
import io.agentlab.runtime.llm.ChatRequest;
import io.agentlab.runtime.llm.ToolCall;
import io.agentlab.runtime.protocol.ProposedEvent;
import io.agentlab.runtime.protocol.VisibleText;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import io.agentlab.runtime.protocol.InvocationProtocol;
import io.agentlab.runtime.protocol.RuntimeConfig;

/**
 * Each protocol on its own, without a runtime, kernel or provider ({@code docs/design.md#modes-two-modes}): the
 * requests it builds and how it reads an answer back.
 */
class InvocationProtocolTest {

    private final TestEvents events = new TestEvents();
    private final List<ChatMessage> context = List.of(ChatMessage.user("earlier"), ChatMessage.assistant("sure"));

    private InvocationProtocol protocol(InvocationMode mode) {
        return InvocationProtocol.of(RuntimeConfig.of(mode, "p", "m", "You are Pip."),
                List.of(events.lamp(), events.note()));
    }

    private static ChatCompletion completion(String content, List<ToolCall> calls) {
        return new ChatCompletion(content, calls, calls.isEmpty() ? "stop" : "tool_calls", Map.of(), Duration.ZERO,
                Optional.empty(), Duration.ZERO, false);
    }

    private static String read(VisibleText text, String... deltas) {
        StringBuilder visible = new StringBuilder();
        for (String delta : deltas) {
            visible.append(text.accept(delta));
        }
        return visible.append(text.finish()).toString();
    }

    /** The clause this checks: {@code docs/design.md#modes-dual-agent-request}. */
    @Test
    @DisplayName("dual_agent: catalog lines in the system prompt, no tools, the context before the user's message")
    void dualFirstRequest() {
        ChatRequest request = protocol(InvocationMode.DUAL_AGENT).firstRequest(context, "lamp on");
        assertThat(request.tools()).isEmpty();
        assertThat(request.role()).isEqualTo(CallRole.CHAT);
        assertThat(request.messages().get(0).content()).startsWith("You are Pip.\n\n")
                .contains("- lamp.power.toggle: Switch the lamp on or off.", "[[EVENTS]]");
        assertThat(request.messages().subList(1, 4)).containsExactly(context.get(0), context.get(1),
                ChatMessage.user("lamp on"));
    }

    /** The clause this checks: {@code docs/design.md#modes-hidden-block}. */
    @Test
    @DisplayName("dual_agent: the block is never visible; its names, dotted or aliased, become ordered proposals")
    void dualAnswer() {
        InvocationProtocol protocol = protocol(InvocationMode.DUAL_AGENT);
        InvocationProtocol.FirstAnswer answer = protocol.firstAnswer();
        String visible = read(answer, "Done!\n[[EV", "ENTS]] note_text_create, lamp.power.toggle");
        assertThat(visible).isEqualTo("Done!\n");
        assertThat(answer.proposals(completion("", List.of()))).extracting(ProposedEvent::id, ProposedEvent::name)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("e1", "note.text.create"),
                        org.assertj.core.groups.Tuple.tuple("e2", "lamp.power.toggle"));
        assertThat(answer.hiddenBlock()).contains("note_text_create");
        assertThat(protocol.answerMessage("Done!", completion("Done!", List.of())))
                .isEqualTo(ChatMessage.assistant("Done!"));
    }

    @Test
    @DisplayName("dual_agent: the follow-up carries the compact results in its instruction, and no tools")
    void dualFollowUp() {
        ChatRequest request = protocol(InvocationMode.DUAL_AGENT).followUpRequest(context, followUp());
        assertThat(request.role()).isEqualTo(CallRole.FOLLOW_UP);
        assertThat(request.tools()).isEmpty();
        assertThat(request.messages().get(request.messages().size() - 1).content())
                .endsWith("\nResults: [{\"id\":\"call_1\",\"status\":\"succeeded\"}]");
    }

    /** The clause this checks: {@code docs/design.md#modes-tools-request}. */
    @Test
    @DisplayName("chat_agent_tools: one tool per event under its provider-safe name, the same persona and instruction"
            + " in the first and the follow-up request")
    void toolsRequests() {
        InvocationProtocol protocol = protocol(InvocationMode.CHAT_AGENT_TOOLS);
        ChatRequest first = protocol.firstRequest(context, "lamp on");
        assertThat(first.tools()).extracting(tool -> tool.name())
                .containsExactly("lamp_power_toggle", "note_text_create");
        ChatRequest followUp = protocol.followUpRequest(context, followUp());
        assertThat(followUp.tools()).isEqualTo(first.tools());
        assertThat(followUp.messages().get(0)).isEqualTo(first.messages().get(0));
        assertThat(followUp.messages().get(followUp.messages().size() - 1).content()).doesNotContain("Results:");
    }

    @Test
    @DisplayName("chat_agent_tools: the whole stream is visible; tool calls become proposals with their arguments,"
            + " and each result goes back as a tool message for its call")
    void toolsAnswer() {
        InvocationProtocol protocol = protocol(InvocationMode.CHAT_AGENT_TOOLS);
        InvocationProtocol.FirstAnswer answer = protocol.firstAnswer();
        assertThat(read(answer, "On ", "it goes.")).isEqualTo("On it goes.");
        ChatCompletion first = completion("On it goes.", List.of(
                new ToolCall("call_1", "lamp_power_toggle", "{\"state\":\"on\"}")));
        assertThat(answer.proposals(first)).singleElement().satisfies(proposal -> {
            assertThat(proposal.id()).isEqualTo("call_1");
            assertThat(proposal.name()).isEqualTo("lamp.power.toggle");
            assertThat(proposal.arguments()).containsEntry("state", "on");
        });
        assertThat(answer.hiddenBlock()).isEmpty();
        assertThat(protocol.answerMessage("On it goes.", first).toolCalls()).isEqualTo(first.toolCalls());
    }

    @Test
    @DisplayName("in every mode the follow-up answer's hidden block is filtered out")
    void followUpFilter() {
        for (InvocationMode mode : InvocationMode.values()) {
            assertThat(read(protocol(mode).followUpText(), "All set.", "\n[[EVENTS]] lamp.power.toggle"))
                    .as(mode.wireName()).isEqualTo("All set.\n");
        }
    }

    private static ContinuationDecision.FollowUp followUp() {
        return new ContinuationDecision.FollowUp(List.of(), Set.of(FollowUpReason.SYNTHESIS),
                new FollowUpSummary(List.of("call_1"), "[{\"id\":\"call_1\",\"status\":\"succeeded\"}]"));
    }
}
