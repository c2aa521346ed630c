package io.agentlab.runtime.usage;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.agentlab.runtime.llm.Json;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apiguardian.api.API;
import tools.jackson.databind.JsonNode;

/**
 * Prices per model, in tiers by prompt tokens ({@code docs/design.md#usage-catalog-fallback}). The JSON file:
 *
 * <pre>{@code
 * {"models": {"deepseek-chat": {"tiers": [
 *     {"max_prompt_tokens": 32000, "input_cost_per_token": 0.00000027,
 *      "output_cost_per_token": 0.0000011, "cache_hit_cost_per_token": 0.00000007},
 *     {"max_prompt_tokens": null, "input_cost_per_token": 0.0000005, "output_cost_per_token": 0.000002}]}}}
 * }</pre>
 *
 * A tier applies when the call's prompt tokens are at most its {@code max_prompt_tokens} ({@code null} = no limit);
 * the first matching tier wins. The cached-token rate is {@code cache_hit_cost_per_token} when it is set and
 * positive, else the input rate.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class PricingCatalog {

    /**
     * One price tier.
     *
     * @param maxPromptTokens      the tier's upper bound, or null
     * @param inputCostPerToken    uncached prompt rate
     * @param outputCostPerToken   completion rate
     * @param cacheHitCostPerToken cached prompt rate, or null
     */
    public record Tier(Long maxPromptTokens, BigDecimal inputCostPerToken, BigDecimal outputCostPerToken,
                       BigDecimal cacheHitCostPerToken) {
        /** The rate for cached prompt tokens. */
        public BigDecimal cachedRate() {
            return cacheHitCostPerToken != null && cacheHitCostPerToken.signum() > 0 ? cacheHitCostPerToken
                    : inputCostPerToken;
        }
    }

    private final Map<String, List<Tier>> models;

    private PricingCatalog(Map<String, List<Tier>> models) {
        this.models = models;
    }

    /** An empty catalog (every cost is unknown). */
    public static PricingCatalog empty() {
        return new PricingCatalog(Map.of());
    }

    /**
     * Loads a catalog file.
     *
     * @throws IllegalArgumentException naming the file and the model or field that is wrong
     */
    public static PricingCatalog load(Path file) throws IOException {
        return parse(Files.readString(file), file.toString());
    }

    /** Parses catalog JSON; {@code source} names it in errors. */
    public static PricingCatalog parse(String json, String source) {
        JsonNode root = Json.tree(json);
        Map<String, List<Tier>> models = new LinkedHashMap<>();
        JsonNode modelsNode = root.path("models");
        if (!modelsNode.isObject()) {
            throw new IllegalArgumentException(source + ": expected an object \"models\"");
        }
        for (Map.Entry<String, JsonNode> model : modelsNode.properties()) {
            List<Tier> tiers = new ArrayList<>();
            for (JsonNode tier : model.getValue().path("tiers")) {
                tiers.add(new Tier(tier.hasNonNull("max_prompt_tokens") ? tier.get("max_prompt_tokens").asLong() : null,
                        rate(tier, "input_cost_per_token", source, model.getKey()),
                        rate(tier, "output_cost_per_token", source, model.getKey()),
                        tier.hasNonNull("cache_hit_cost_per_token") ? tier.get("cache_hit_cost_per_token").decimalValue()
                                : null));
            }
            if (tiers.isEmpty()) {
                throw new IllegalArgumentException(source + ": model '" + model.getKey() + "' has no tiers");
            }
            models.put(model.getKey(), List.copyOf(tiers));
        }
        return new PricingCatalog(Map.copyOf(models));
    }

    private static BigDecimal rate(JsonNode tier, String field, String source, String model) {
        if (!tier.hasNonNull(field) || !tier.get(field).isNumber()) {
            throw new IllegalArgumentException(source + ": model '" + model + "': a tier lacks numeric '" + field + "'");
        }
        return tier.get(field).decimalValue();
    }

    /** The tier for a call of {@code model} with {@code promptTokens}. */
    public Optional<Tier> tier(String model, long promptTokens) {
        for (Tier tier : models.getOrDefault(model, List.of())) {
            if (tier.maxPromptTokens() == null || promptTokens <= tier.maxPromptTokens()) {
                return Optional.of(tier);
            }
        }
        return Optional.empty();
    }

    /**
     * The catalog cost of one call: uncached prompt × input rate + cached prompt × cached rate + completion × output
     * rate; empty when the model has no matching tier.
     */
    public Optional<BigDecimal> cost(String model, NormalizedUsage usage) {
        return tier(model, usage.inputTokens()).map(tier -> {
            long cached = Math.min(usage.cachedPromptTokens(), usage.inputTokens());
            return tier.inputCostPerToken().multiply(BigDecimal.valueOf(usage.inputTokens() - cached))
                    .add(tier.cachedRate().multiply(BigDecimal.valueOf(cached)))
                    .add(tier.outputCostPerToken().multiply(BigDecimal.valueOf(usage.outputTokens())));
        });
    }
}
