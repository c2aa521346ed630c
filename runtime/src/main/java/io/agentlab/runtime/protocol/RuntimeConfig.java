package io.agentlab.runtime.protocol;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.agentlab.kernel.api.InvocationMode;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * What both modes share, and the one thing that differs ({@code docs/design.md#modes-consistency-contract}): the same
 * persona, model, sampling and output budget; only {@link #mode()} changes how capabilities are offered.
 *
 * @param mode               the invocation mode
 * @param providerKey        the provider in the {@link io.agentlab.runtime.llm.ProviderRegistry}
 * @param model              ChatAgent's model
 * @param persona            ChatAgent's persona prompt (identical in both modes)
 * @param temperature        sampling temperature (null: provider default)
 * @param maxTokens          ChatAgent's output budget (null: provider default)
 * @param includeUsage       whether to request {@code stream_options.include_usage}
 * @param eventAgentModel    the small model of the EventAgent fallback
 * @param eventAgentMaxTokens the fallback's output budget
 * @param seed               the sampling seed sent with every call, or null for none
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record RuntimeConfig(InvocationMode mode, String providerKey, String model, String persona, Double temperature,
                            Integer maxTokens, boolean includeUsage, String eventAgentModel, int eventAgentMaxTokens,
                            Long seed) {

    /** Rejects nulls. */
    public RuntimeConfig {
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(providerKey, "providerKey");
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(persona, "persona");
        Objects.requireNonNull(eventAgentModel, "eventAgentModel");
    }

    /** A configuration without a seed. */
    public RuntimeConfig(InvocationMode mode, String providerKey, String model, String persona, Double temperature,
                         Integer maxTokens, boolean includeUsage, String eventAgentModel, int eventAgentMaxTokens) {
        this(mode, providerKey, model, persona, temperature, maxTokens, includeUsage, eventAgentModel,
                eventAgentMaxTokens, null);
    }

    /** Defaults: temperature 0.7, 300 output tokens, usage requested, the same model for the fallback, 200 tokens. */
    public static RuntimeConfig of(InvocationMode mode, String providerKey, String model, String persona) {
        return new RuntimeConfig(mode, providerKey, model, persona, 0.7, 300, true, model, 200);
    }

    /** The same configuration in the other mode (everything else identical). */
    public RuntimeConfig withMode(InvocationMode other) {
        return new RuntimeConfig(other, providerKey, model, persona, temperature, maxTokens, includeUsage,
                eventAgentModel, eventAgentMaxTokens, seed);
    }

    /** The same configuration with ChatAgent's model and the EventAgent's. */
    public RuntimeConfig withModels(String chatModel, String eventAgent) {
        return new RuntimeConfig(mode, providerKey, chatModel, persona, temperature, maxTokens, includeUsage,
                eventAgent, eventAgentMaxTokens, seed);
    }

    /** The same configuration with ChatAgent's sampling temperature, output budget and the seed of every call. */
    public RuntimeConfig withSampling(Double samplingTemperature, Integer outputBudget, Long samplingSeed) {
        return new RuntimeConfig(mode, providerKey, model, persona, samplingTemperature, outputBudget, includeUsage,
                eventAgentModel, eventAgentMaxTokens, samplingSeed);
    }
}
