package io.agentlab.runtime.protocol;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.agentlab.kernel.api.BatchResult;
import io.agentlab.kernel.api.ContinuationDecision;
import io.agentlab.kernel.api.EventDefinition;
import io.agentlab.kernel.api.EventResult;
import io.agentlab.kernel.api.InvocationMode;
import io.agentlab.runtime.llm.ChatCompletion;
import io.agentlab.runtime.llm.ChatMessage;
import io.agentlab.runtime.llm.ChatRequest;
import io.agentlab.runtime.llm.Json;
import io.agentlab.runtime.llm.ToolSpec;
import io.agentlab.runtime.protocol.ProposedEvent;
import io.agentlab.runtime.protocol.ToolCallEvents;
import io.agentlab.runtime.protocol.ToolNames;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * {@code chat_agent_tools} ({@code docs/design.md#modes-two-modes}): every enabled event is a native tool with its
 * full argument schema under a provider-safe name ({@link ToolNames}); the model's tool calls, in order, are the
 * proposals, with the arguments it filled. The whole stream is visible text. Each result goes back to later context as
 * a tool message (compact result when the kernel asked for a follow-up, else the status), never to the user.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class ChatAgentToolsProtocol implements InvocationProtocol {

    private static final String INSTRUCTION = """
            You can call tools for the user. Always answer the user first, naturally and briefly, then call the \
            tools the request needs.""";

    private final RuntimeConfig config;
    private final ToolNames names;
    private final List<ToolSpec> tools;
    private final String systemPrompt;

    /**
     * The protocol offering {@code definitions}, in order.
     *
     * @throws io.agentlab.kernel.reference.RegistrationException when two names would share a provider-safe tool name
     */
    public ChatAgentToolsProtocol(RuntimeConfig config, List<EventDefinition> definitions) {
        this.config = Objects.requireNonNull(config, "config");
        this.names = ToolNames.of(definitions.stream().map(EventDefinition::name).toList());
        List<ToolSpec> specs = new ArrayList<>();
        for (EventDefinition definition : definitions) {
            specs.add(new ToolSpec(names.alias(definition.name()), definition.description(),
                    definition.argumentsSchema()));
        }
        this.tools = List.copyOf(specs);
        this.systemPrompt = Prompts.systemPrompt(config, !tools.isEmpty(), INSTRUCTION);
    }

    @Override
    public InvocationMode mode() {
        return InvocationMode.CHAT_AGENT_TOOLS;
    }

    @Override
    public RuntimeConfig config() {
        return config;
    }

    @Override
    public String systemPrompt() {
        return systemPrompt;
    }

    /** The tools offered, in order. */
    public List<ToolSpec> tools() {
        return tools;
    }

    @Override
    public ChatRequest firstRequest(List<ChatMessage> context, String userText) {
        return Prompts.first(config, systemPrompt, context, userText, tools);
    }

    @Override
    public FirstAnswer firstAnswer() {
        return new FirstAnswer() {
            @Override
            public String accept(String delta) {
                return delta;
            }

            @Override
            public String finish() {
                return "";
            }

            @Override
            public List<ProposedEvent> proposals(ChatCompletion completion) {
                return ToolCallEvents.of(completion.toolCalls(), names);
            }

            @Override
            public String hiddenBlock() {
                return "";
            }
        };
    }

    @Override
    public ChatMessage answerMessage(String visibleAnswer, ChatCompletion first) {
        return first.toolCalls().isEmpty() ? ChatMessage.assistant(visibleAnswer)
                : ChatMessage.assistantToolCalls(visibleAnswer, first.toolCalls());
    }

    @Override
    public List<ChatMessage> resultMessages(ChatCompletion first, BatchResult batch) {
        Map<String, String> compact = new LinkedHashMap<>();
        if (batch.decision() instanceof ContinuationDecision.FollowUp follow) {
            for (var item : Json.tree(follow.summary().json())) {
                compact.put(item.path("id").asString(), Json.write(Json.MAPPER.convertValue(item, Object.class)));
            }
        }
        List<ChatMessage> messages = new ArrayList<>();
        for (int i = 0; i < first.toolCalls().size(); i++) {
            EventResult result = batch.results().get(i);
            messages.add(ChatMessage.tool(first.toolCalls().get(i).id(),
                    compact.getOrDefault(result.eventId(), Json.write(Map.of("status", result.status())))));
        }
        return messages;
    }

    @Override
    public ChatRequest followUpRequest(List<ChatMessage> context, ContinuationDecision.FollowUp follow) {
        return Prompts.followUp(config, systemPrompt, context, "", tools);
    }
}
