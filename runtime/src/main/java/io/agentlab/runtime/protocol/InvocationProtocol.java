package io.agentlab.runtime.protocol;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.agentlab.kernel.api.BatchResult;
import io.agentlab.kernel.api.ContinuationDecision;
import io.agentlab.kernel.api.EventDefinition;
import io.agentlab.kernel.api.InvocationMode;
import io.agentlab.runtime.llm.ChatCompletion;
import io.agentlab.runtime.llm.ChatMessage;
import io.agentlab.runtime.llm.ChatRequest;
import io.agentlab.runtime.protocol.HiddenEventBlockParser;
import io.agentlab.runtime.protocol.ProposedEvent;
import io.agentlab.runtime.protocol.VisibleText;
import java.util.List;
import org.apiguardian.api.API;

/**
 * How ChatAgent is offered the enabled capabilities and how its answer is read back: everything that differs between
 * the invocation modes ({@code docs/design.md#modes-two-modes}), and nothing else. The {@link TurnRuntime} runs the
 * same loop for every protocol; a protocol builds the requests, filters the visible text, extracts the proposals and
 * says which messages a turn stores. A protocol is immutable and cheap: measuring a prompt needs no runtime, kernel or
 * provider.
 *
 * <pre>{@code
 * InvocationProtocol protocol = InvocationProtocol.of(RuntimeConfig.of(InvocationMode.DUAL_AGENT, "main", model,
 *         persona), definitions);
 * int tokens = PromptTokens.count(protocol.firstRequest(List.of(), "turn it up a bit"));
 * }</pre>
 *
 * <p>The set is closed, as {@link InvocationMode} is: a new mode is one new class here plus its constant
 * ({@code docs/design.md#modes-third-mode}, sketched in {@code docs/runtime.md#a-third-protocol}).
 */
@API(status = EXPERIMENTAL, since = "0.1")
public sealed interface InvocationProtocol permits DualAgentProtocol, ChatAgentToolsProtocol {

    /**
     * The protocol of {@code config.mode()}, offering {@code definitions} in their order.
     *
     * @throws io.agentlab.kernel.reference.RegistrationException when two names would share a provider-safe tool name
     */
    static InvocationProtocol of(RuntimeConfig config, List<EventDefinition> definitions) {
        return switch (config.mode()) {
            case DUAL_AGENT -> new DualAgentProtocol(config, definitions);
            case CHAT_AGENT_TOOLS -> new ChatAgentToolsProtocol(config, definitions);
        };
    }

    /** The mode this protocol implements. */
    InvocationMode mode();

    /** The configuration the requests are built from. */
    RuntimeConfig config();

    /**
     * ChatAgent's system prompt: the persona, then the mode's instruction (and catalog) when a capability is enabled,
     * the persona alone when none is ({@code docs/design.md#modes-minimal-instruction}).
     */
    String systemPrompt();

    /** ChatAgent's first request: system prompt, the conversation's context, the user's message. */
    ChatRequest firstRequest(List<ChatMessage> context, String userText);

    /** A reader for one streamed first answer. */
    FirstAnswer firstAnswer();

    /** The assistant message stored for the first answer (visible, and in later context). */
    ChatMessage answerMessage(String visibleAnswer, ChatCompletion first);

    /** Messages carrying the batch's results into later context only (never shown); may be empty. */
    List<ChatMessage> resultMessages(ChatCompletion first, BatchResult batch);

    /**
     * The single follow-up request ({@code docs/design.md#policy-llm-follow-up}).
     *
     * @param context the conversation's context followed by what this turn stored for context so far
     */
    ChatRequest followUpRequest(List<ChatMessage> context, ContinuationDecision.FollowUp follow);

    /**
     * A filter for the follow-up answer. In every mode a hidden block in the second answer is ignored: it is never
     * shown and runs nothing.
     */
    default VisibleText followUpText() {
        return new HiddenEventBlockParser();
    }

    /** One streamed first answer: its visible text, then the proposals the protocol reads from it. */
    interface FirstAnswer extends VisibleText {

        /** The proposed events, in order, once the stream has ended. */
        List<ProposedEvent> proposals(ChatCompletion completion);

        /** The hidden block as the model wrote it ({@code dual_agent}), else empty; for audit. */
        String hiddenBlock();
    }
}
