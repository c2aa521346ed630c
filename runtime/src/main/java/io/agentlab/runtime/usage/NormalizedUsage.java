package io.agentlab.runtime.usage;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.math.BigDecimal;
import java.util.Map;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * One call's usage after normalization ({@code docs/design.md#usage-normalized}).
 *
 * @param present            whether the provider reported usage at all
 * @param inputTokens        prompt tokens
 * @param outputTokens       completion tokens
 * @param totalTokens        total (input + output when the provider left it out)
 * @param cachedPromptTokens prompt tokens served from cache
 * @param cacheHitTokens     DeepSeek {@code prompt_cache_hit_tokens}
 * @param cacheMissTokens    DeepSeek {@code prompt_cache_miss_tokens}
 * @param reasoningTokens    {@code completion_tokens_details.reasoning_tokens}
 * @param latencyMs          provider-reported time ({@code usage.time} seconds × 1000), if any
 * @param directCost         provider-reported cost, if any
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record NormalizedUsage(boolean present, long inputTokens, long outputTokens, long totalTokens,
                              long cachedPromptTokens, long cacheHitTokens, long cacheMissTokens, long reasoningTokens,
                              Optional<Long> latencyMs, Optional<BigDecimal> directCost) {

    /** No usage reported. */
    public static NormalizedUsage absent() {
        return new NormalizedUsage(false, 0, 0, 0, 0, 0, 0, 0, Optional.empty(), Optional.empty());
    }

    /**
     * Normalizes a provider usage object: direct fields ({@code input_tokens}, {@code output_tokens},
     * {@code total_tokens}, {@code time}, {@code cost}) first, then the metadata / OpenAI-style fields
     * ({@code prompt_tokens}, {@code completion_tokens}, {@code prompt_tokens_details.cached_tokens},
     * {@code prompt_cache_hit_tokens}, {@code prompt_cache_miss_tokens},
     * {@code completion_tokens_details.reasoning_tokens}, {@code cost}/{@code total_cost}). Never throws: a field
     * that is null, absent or not a number ({@code "prompt_tokens_details": null} from vLLM and Azure) counts as
     * absent ({@code docs/recording.md#accumulation-rules}).
     */
    public static NormalizedUsage of(Map<String, Object> usage, Map<String, Object> metadata) {
        if ((usage == null || usage.isEmpty()) && (metadata == null || metadata.isEmpty())) {
            return absent();
        }
        Map<String, Object> u = usage == null ? Map.of() : usage;
        Map<String, Object> m = metadata == null ? Map.of() : metadata;
        long input = first(number(u, "input_tokens"), number(u, "prompt_tokens"), number(m, "prompt_tokens")).orElse(0L);
        long output = first(number(u, "output_tokens"), number(u, "completion_tokens"),
                number(m, "completion_tokens")).orElse(0L);
        long total = first(number(u, "total_tokens"), number(m, "total_tokens")).orElse(input + output);
        long hit = first(number(u, "prompt_cache_hit_tokens"), number(m, "prompt_cache_hit_tokens")).orElse(0L);
        long miss = first(number(u, "prompt_cache_miss_tokens"), number(m, "prompt_cache_miss_tokens")).orElse(0L);
        long cached = first(nested(u, "prompt_tokens_details", "cached_tokens"),
                nested(m, "prompt_tokens_details", "cached_tokens")).orElse(hit);
        long reasoning = first(nested(u, "completion_tokens_details", "reasoning_tokens"),
                nested(m, "completion_tokens_details", "reasoning_tokens")).orElse(0L);
        Optional<Long> latency = decimal(u, "time").map(seconds -> seconds.multiply(BigDecimal.valueOf(1000)).longValue());
        Optional<BigDecimal> cost = decimal(u, "cost").or(() -> decimal(m, "cost")).or(() -> decimal(m, "total_cost"));
        return new NormalizedUsage(true, input, output, total, cached, hit, miss, reasoning, latency, cost);
    }

    @SafeVarargs
    private static Optional<Long> first(Optional<Long>... candidates) {
        for (Optional<Long> candidate : candidates) {
            if (candidate.isPresent()) {
                return candidate;
            }
        }
        return Optional.empty();
    }

    private static Optional<Long> number(Map<String, Object> map, String key) {
        return map.get(key) instanceof Number n ? Optional.of(n.longValue()) : Optional.empty();
    }

    @SuppressWarnings("unchecked")
    private static Optional<Long> nested(Map<String, Object> map, String outer, String inner) {
        return map.get(outer) instanceof Map<?, ?> details ? number((Map<String, Object>) details, inner) : Optional.empty();
    }

    private static Optional<BigDecimal> decimal(Map<String, Object> map, String key) {
        if (!(map.get(key) instanceof Number n)) {
            return Optional.empty();
        }
        if (n instanceof Double d && !Double.isFinite(d)) {
            return Optional.empty(); // 1e400 reads as Infinity: no figure (docs/recording.md#accumulation-rules)
        }
        return Optional.of(new BigDecimal(n.toString()));
    }
}
