package io.agentlab.runtime.usage;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.math.BigDecimal;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * The cost of a turn's model calls and where it came from ({@code docs/design.md#usage-provider-cost}): the provider's
 * cost only when every call reported usage and a valid direct cost; otherwise the catalog, with the reason in {@link
 * #source()}.
 *
 * @param amount        the cost, empty when the catalog has no price for some call's model
 * @param source        where it came from
 * @param usageComplete every call reported usage
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record TurnCost(Optional<BigDecimal> amount, CostSource source, boolean usageComplete) {

    /**
     * One priced call.
     *
     * @param model the model called
     * @param usage its normalized usage
     */
    public record Call(String model, NormalizedUsage usage) {
        /** Rejects nulls. */
        public Call {
            Objects.requireNonNull(model, "model");
            Objects.requireNonNull(usage, "usage");
        }
    }

    /** Prices the calls of a turn. */
    public static TurnCost of(List<Call> calls, PricingCatalog catalog) {
        boolean usageComplete = calls.stream().allMatch(call -> call.usage().present());
        long withCost = calls.stream().filter(call -> call.usage().directCost().isPresent()).count();
        boolean costObserved = withCost > 0;
        boolean costComplete = withCost == calls.size();
        boolean costValid = calls.stream().allMatch(call -> call.usage().directCost().map(c -> c.signum() >= 0)
                .orElse(true));
        if (!calls.isEmpty() && usageComplete && costObserved && costComplete && costValid) {
            BigDecimal total = calls.stream().map(call -> call.usage().directCost().orElseThrow())
                    .reduce(BigDecimal.ZERO, BigDecimal::add);
            return new TurnCost(Optional.of(total), CostSource.PROVIDER, true);
        }
        CostSource source = !usageComplete ? CostSource.INCOMPLETE_USAGE_FALLBACK
                : costObserved ? CostSource.CATALOG_FALLBACK_INCOMPLETE_PROVIDER_COST
                : CostSource.CATALOG_FALLBACK;
        BigDecimal total = BigDecimal.ZERO;
        for (Call call : calls) {
            if (!call.usage().present()) {
                continue;
            }
            Optional<BigDecimal> cost = catalog.cost(call.model(), call.usage());
            if (cost.isEmpty()) {
                return new TurnCost(Optional.empty(), source, usageComplete);
            }
            total = total.add(cost.get());
        }
        return new TurnCost(Optional.of(total), source, usageComplete);
    }
}
