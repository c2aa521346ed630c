package io.agentlab.runtime.protocol;

import io.agentlab.runtime.llm.CallRole;
import io.agentlab.runtime.llm.ChatMessage;
import io.agentlab.runtime.llm.ChatRequest;
import io.agentlab.runtime.llm.ToolSpec;
import java.util.ArrayList;
import java.util.List;

/** What the protocols share: the persona-first system prompt, the follow-up instruction, the request shape. */
final class Prompts {

    static final String FOLLOW_UP_INSTRUCTION = """
            The actions have finished; their results follow and the user has not seen them. Answer the user once \
            more, briefly: use the results, correct your first answer if needed, and do not repeat it. If an action \
            failed, say so plainly; if one needs clarification, ask its question.""";

    private Prompts() {
    }

    /** The persona alone when no capability is enabled, else persona and the mode's instruction. */
    static String systemPrompt(RuntimeConfig config, boolean capabilities, String instruction) {
        // no capability enabled: the mode-specific instruction is none (docs/design.md#modes-minimal-instruction)
        return capabilities ? config.persona() + "\n\n" + instruction : config.persona();
    }

    static ChatRequest first(RuntimeConfig config, String system, List<ChatMessage> context, String userText,
                             List<ToolSpec> tools) {
        List<ChatMessage> messages = new ArrayList<>();
        messages.add(ChatMessage.system(system));
        messages.addAll(context);
        messages.add(ChatMessage.user(userText));
        return request(config, messages, tools, CallRole.CHAT);
    }

    static ChatRequest followUp(RuntimeConfig config, String system, List<ChatMessage> context, String results,
                                List<ToolSpec> tools) {
        List<ChatMessage> messages = new ArrayList<>();
        messages.add(ChatMessage.system(system));
        messages.addAll(context);
        messages.add(ChatMessage.system(FOLLOW_UP_INSTRUCTION + results));
        return request(config, messages, tools, CallRole.FOLLOW_UP);
    }

    private static ChatRequest request(RuntimeConfig config, List<ChatMessage> messages, List<ToolSpec> tools,
                                       CallRole role) {
        return new ChatRequest(config.model(), messages, tools, config.temperature(), config.maxTokens(),
                config.includeUsage(), role, config.seed());
    }
}
