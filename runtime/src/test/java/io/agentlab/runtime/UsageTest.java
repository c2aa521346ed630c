package io.agentlab.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.agentlab.runtime.usage.CostSource;
import io.agentlab.runtime.usage.NormalizedUsage;
import io.agentlab.runtime.usage.PricingCatalog;
import io.agentlab.runtime.usage.TurnCost;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** {@code docs/design.md#usage-normalized}: usage normalization, catalog tiers, and every costSource. */
class UsageTest {

    /** A catalog pricing one named model like {@link #CATALOG}'s "m". */
    static final java.util.function.Function<String, PricingCatalog> CATALOG_FOR_MODEL = model -> PricingCatalog.parse(
            "{\"models\": {\"" + model + "\": {\"tiers\": [{\"max_prompt_tokens\": null, "
                    + "\"input_cost_per_token\": 0.000001, \"output_cost_per_token\": 0.000002, "
                    + "\"cache_hit_cost_per_token\": 0.0000001}]}}}", "test");

    static final PricingCatalog CATALOG = PricingCatalog.parse("""
            {"models": {"m": {"tiers": [
              {"max_prompt_tokens": 1000, "input_cost_per_token": 0.001, "output_cost_per_token": 0.002,
               "cache_hit_cost_per_token": 0.0001},
              {"max_prompt_tokens": null, "input_cost_per_token": 0.01, "output_cost_per_token": 0.02}]}}}""", "test");

    @Test
    @DisplayName("OpenAI, DeepSeek and DashScope shapes normalize to the same summary fields")
    void shapes() {
        NormalizedUsage openAi = NormalizedUsage.of(Map.of("prompt_tokens", 100, "completion_tokens", 20,
                "total_tokens", 120, "prompt_tokens_details", Map.of("cached_tokens", 40)), Map.of());
        assertThat(openAi.inputTokens()).isEqualTo(100);
        assertThat(openAi.cachedPromptTokens()).isEqualTo(40);
        NormalizedUsage deepSeek = NormalizedUsage.of(Map.of("prompt_tokens", 100, "completion_tokens", 20,
                "prompt_cache_hit_tokens", 70, "prompt_cache_miss_tokens", 30), Map.of());
        assertThat(deepSeek.cachedPromptTokens()).isEqualTo(70);
        assertThat(deepSeek.cacheMissTokens()).isEqualTo(30);
        assertThat(deepSeek.totalTokens()).isEqualTo(120);
        NormalizedUsage dashScope = NormalizedUsage.of(Map.of("input_tokens", 50, "output_tokens", 5, "time", 1.5),
                Map.of("total_tokens", 55, "completion_tokens_details", Map.of("reasoning_tokens", 3)));
        assertThat(dashScope.totalTokens()).isEqualTo(55);
        assertThat(dashScope.reasoningTokens()).isEqualTo(3);
        assertThat(dashScope.latencyMs()).contains(1500L);
    }

    @Test
    @DisplayName("null, absent and odd fields count as absent, never an exception (before: NumberFormatException on an "
            + "infinite cost or time; docs/recording.md#accumulation-rules)")
    void oddFieldsNeverThrow() {
        Map<String, Object> usage = new java.util.HashMap<>();
        usage.put("prompt_tokens", 57);
        usage.put("completion_tokens", "7");
        usage.put("total_tokens", null);
        usage.put("prompt_tokens_details", null);
        Map<String, Object> details = new java.util.HashMap<>();
        details.put("reasoning_tokens", null);
        usage.put("completion_tokens_details", details);
        usage.put("cost", Double.POSITIVE_INFINITY);
        usage.put("time", Double.NaN);
        NormalizedUsage normalized = NormalizedUsage.of(usage, null);
        assertThat(normalized.present()).isTrue();
        assertThat(normalized.inputTokens()).isEqualTo(57);
        assertThat(normalized.outputTokens()).isZero();
        assertThat(normalized.totalTokens()).isEqualTo(57);
        assertThat(normalized.cachedPromptTokens()).isZero();
        assertThat(normalized.reasoningTokens()).isZero();
        assertThat(normalized.directCost()).isEmpty();
        assertThat(normalized.latencyMs()).isEmpty();
    }

    @Test
    @DisplayName("direct fields win over metadata")
    void precedence() {
        NormalizedUsage usage = NormalizedUsage.of(Map.of("input_tokens", 10), Map.of("prompt_tokens", 99));
        assertThat(usage.inputTokens()).isEqualTo(10);
    }

    /** The clause this checks: {@code docs/design.md#usage-catalog-fallback}. */
    @Test
    @DisplayName("catalog: the tier by prompt tokens; cached tokens at the cache rate, or the input rate without one")
    void catalog() {
        NormalizedUsage small = NormalizedUsage.of(Map.of("prompt_tokens", 100, "completion_tokens", 10,
                "prompt_tokens_details", Map.of("cached_tokens", 40)), Map.of());
        // 60 × 0.001 + 40 × 0.0001 + 10 × 0.002
        assertThat(CATALOG.cost("m", small)).hasValueSatisfying(c -> assertThat(c).isEqualByComparingTo("0.084"));
        NormalizedUsage large = NormalizedUsage.of(Map.of("prompt_tokens", 2000, "completion_tokens", 10,
                "prompt_tokens_details", Map.of("cached_tokens", 1000)), Map.of());
        // 1000 × 0.01 + 1000 × 0.01 (no cache rate in this tier) + 10 × 0.02
        assertThat(CATALOG.cost("m", large)).hasValueSatisfying(c -> assertThat(c).isEqualByComparingTo("20.2"));
        assertThat(CATALOG.cost("unknown", small)).isEmpty();
        assertThatThrownBy(() -> PricingCatalog.parse("{\"models\":{\"x\":{\"tiers\":[{}]}}}", "prices.json"))
                .hasMessageContaining("prices.json").hasMessageContaining("input_cost_per_token");
    }

    @Test
    @DisplayName("costSource: provider, catalog_fallback, catalog_fallback_incomplete_provider_cost, incomplete_usage_fallback")
    void costSources() {
        NormalizedUsage withCost = NormalizedUsage.of(Map.of("prompt_tokens", 10, "completion_tokens", 1,
                "cost", 0.5), Map.of());
        NormalizedUsage withoutCost = NormalizedUsage.of(Map.of("prompt_tokens", 10, "completion_tokens", 1), Map.of());
        TurnCost provider = TurnCost.of(List.of(new TurnCost.Call("m", withCost), new TurnCost.Call("m", withCost)),
                CATALOG);
        assertThat(provider.source()).isEqualTo(CostSource.PROVIDER);
        assertThat(provider.amount()).hasValueSatisfying(c -> assertThat(c).isEqualByComparingTo("1"));
        assertThat(TurnCost.of(List.of(new TurnCost.Call("m", withoutCost)), CATALOG).source())
                .isEqualTo(CostSource.CATALOG_FALLBACK);
        assertThat(TurnCost.of(List.of(new TurnCost.Call("m", withCost), new TurnCost.Call("m", withoutCost)), CATALOG)
                .source()).isEqualTo(CostSource.CATALOG_FALLBACK_INCOMPLETE_PROVIDER_COST);
        TurnCost incomplete = TurnCost.of(List.of(new TurnCost.Call("m", withoutCost),
                new TurnCost.Call("m", NormalizedUsage.absent())), CATALOG);
        assertThat(incomplete.source()).isEqualTo(CostSource.INCOMPLETE_USAGE_FALLBACK);
        assertThat(incomplete.usageComplete()).isFalse();
        assertThat(CostSource.CATALOG_FALLBACK_INCOMPLETE_PROVIDER_COST.wireName())
                .isEqualTo("catalog_fallback_incomplete_provider_cost");
    }
}
