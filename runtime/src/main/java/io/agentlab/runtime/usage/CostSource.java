package io.agentlab.runtime.usage;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.Locale;
import org.apiguardian.api.API;

/** Where a turn's cost came from ({@code docs/design.md#usage-cost-source}). */
@API(status = EXPERIMENTAL, since = "0.1")
public enum CostSource {
    /** Every call reported usage and a complete, valid direct cost. */
    PROVIDER,
    /** Usage complete, no direct cost: the pricing catalog. */
    CATALOG_FALLBACK,
    /** Some calls reported a direct cost, not all: the pricing catalog. */
    CATALOG_FALLBACK_INCOMPLETE_PROVIDER_COST,
    /** Some call reported no usage: the pricing catalog over what was reported. */
    INCOMPLETE_USAGE_FALLBACK;

    /** The wire value, e.g. {@code catalog_fallback}. */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
