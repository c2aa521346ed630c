package io.agentlab.runtime.llm;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.List;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * A streamed Chat Completions request.
 *
 * @param model        the model
 * @param messages     the conversation as sent
 * @param tools        function tools; empty means no {@code tools} field at all (dual_agent)
 * @param temperature  sampling temperature, or null for the provider default
 * @param maxTokens    output budget, or null
 * @param includeUsage whether to ask for {@code stream_options.include_usage}
 * @param role         why the call is made
 * @param seed         the sampling seed, or null for none (providers that honour it repeat their choices)
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record ChatRequest(String model, List<ChatMessage> messages, List<ToolSpec> tools, Double temperature,
                          Integer maxTokens, boolean includeUsage, CallRole role, Long seed) {
    /** Rejects nulls and copies lists. */
    public ChatRequest {
        Objects.requireNonNull(model, "model");
        messages = List.copyOf(messages);
        tools = tools == null ? List.of() : List.copyOf(tools);
        Objects.requireNonNull(role, "role");
    }

    /** A request without a seed. */
    public ChatRequest(String model, List<ChatMessage> messages, List<ToolSpec> tools, Double temperature,
                       Integer maxTokens, boolean includeUsage, CallRole role) {
        this(model, messages, tools, temperature, maxTokens, includeUsage, role, null);
    }
}
