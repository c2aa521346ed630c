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
import io.agentlab.runtime.protocol.ToolNames;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * {@code dual_agent} ({@code docs/design.md#modes-two-modes}): a compact catalog (one line per event: name and
 * description) in the system prompt, and a hidden event block after the visible reply that names the events in order.
 * The block never reaches the user ({@link HiddenEventBlockParser}); its events carry no arguments, which the
 * resolvers fill. The follow-up request carries the compact results in its instruction.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class DualAgentProtocol implements InvocationProtocol {

    private static final String INSTRUCTION = """
            You can trigger actions for the user. Always answer the user first, naturally and briefly.
            If the request needs actions, end your message with a new line that starts with %s followed by the \
            action names, comma-separated, in the order they should run. Never mention that line or the action \
            names to the user.
            Actions:
            %s""";

    private final RuntimeConfig config;
    private final ToolNames names;
    private final String systemPrompt;

    /**
     * The protocol offering {@code definitions}, in order.
     *
     * @throws io.agentlab.kernel.reference.RegistrationException when two names would share a provider-safe alias
     */
    public DualAgentProtocol(RuntimeConfig config, List<EventDefinition> definitions) {
        this.config = Objects.requireNonNull(config, "config");
        // the model may answer with either form of a name, as in tools mode (docs/design.md#modes-tool-name-alias)
        this.names = ToolNames.of(definitions.stream().map(EventDefinition::name).toList());
        StringBuilder catalog = new StringBuilder();
        for (EventDefinition definition : definitions) {
            catalog.append("- ").append(definition.name()).append(": ").append(definition.description()).append('\n');
        }
        this.systemPrompt = Prompts.systemPrompt(config, !definitions.isEmpty(),
                String.format(INSTRUCTION, HiddenEventBlockParser.MARKER, catalog.toString().strip()));
    }

    @Override
    public InvocationMode mode() {
        return InvocationMode.DUAL_AGENT;
    }

    @Override
    public RuntimeConfig config() {
        return config;
    }

    @Override
    public String systemPrompt() {
        return systemPrompt;
    }

    @Override
    public ChatRequest firstRequest(List<ChatMessage> context, String userText) {
        return Prompts.first(config, systemPrompt, context, userText, List.of());
    }

    @Override
    public FirstAnswer firstAnswer() {
        HiddenEventBlockParser parser = new HiddenEventBlockParser();
        return new FirstAnswer() {
            @Override
            public String accept(String delta) {
                return parser.accept(delta);
            }

            @Override
            public String finish() {
                return parser.finish();
            }

            @Override
            public List<ProposedEvent> proposals(ChatCompletion completion) {
                List<ProposedEvent> proposals = new ArrayList<>();
                for (String name : parser.eventNames()) {
                    proposals.add(new ProposedEvent("e" + (proposals.size() + 1), names.eventName(name), Map.of(),
                            "", null));
                }
                return proposals;
            }

            @Override
            public String hiddenBlock() {
                return parser.rawBlock();
            }
        };
    }

    @Override
    public ChatMessage answerMessage(String visibleAnswer, ChatCompletion first) {
        return ChatMessage.assistant(visibleAnswer);
    }

    @Override
    public List<ChatMessage> resultMessages(ChatCompletion first, BatchResult batch) {
        return List.of(); // the results reach the follow-up through its instruction, never the stored history
    }

    @Override
    public ChatRequest followUpRequest(List<ChatMessage> context, ContinuationDecision.FollowUp follow) {
        return Prompts.followUp(config, systemPrompt, context, "\nResults: " + follow.summary().json(), List.of());
    }
}
