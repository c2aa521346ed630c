package io.agentlab.kernel.api;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * How often the kernel re-invokes a handler after a <em>transient</em> failure, always inside the event's timeout.
 *
 * @param retriesOnTransientFailure 0 or 1; the design allows one retry, for read-only events only
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record RetryPolicy(int retriesOnTransientFailure) {

    private static final RetryPolicy NONE = new RetryPolicy(0);
    private static final RetryPolicy ONCE = new RetryPolicy(1);

    /** Validates the range. */
    public RetryPolicy {
        if (retriesOnTransientFailure < 0 || retriesOnTransientFailure > 1) {
            throw new IllegalArgumentException(
                    "retriesOnTransientFailure must be 0 or 1 (docs/design.md#safety-no-side-effect-retry allows one "
                            + "retry), was " + retriesOnTransientFailure);
        }
    }

    /** Never retry. The only policy a side-effecting event may have. */
    public static RetryPolicy none() {
        return NONE;
    }

    /** Retry once on a transient failure, inside the event timeout. Read-only events only. */
    public static RetryPolicy onceOnTransientFailure() {
        return ONCE;
    }
}
