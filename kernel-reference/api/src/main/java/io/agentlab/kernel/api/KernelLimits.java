package io.agentlab.kernel.api;

import java.time.Duration;
import java.util.Objects;

/**
 * The batch limits ({@code docs/design.md#batch-concurrency-limit}, {@code docs/design.md#batch-deadline}): bounded
 * parallelism and one overall deadline.
 *
 * @param concurrencyLimit handlers running at once, 1..16
 * @param batchDeadline    the whole batch's deadline, positive and at most {@link #MAX_BATCH_DEADLINE}
 */
public record KernelLimits(int concurrencyLimit, Duration batchDeadline) {

    /** The default concurrency limit. */
    public static final int DEFAULT_CONCURRENCY_LIMIT = 4;
    /** The default batch deadline. */
    public static final Duration DEFAULT_BATCH_DEADLINE = Duration.ofSeconds(15);
    /** The largest batch deadline accepted ("positive and bounded"). */
    public static final Duration MAX_BATCH_DEADLINE = Duration.ofMinutes(5);

    /** Checks the ranges. */
    public KernelLimits {
        if (concurrencyLimit < 1 || concurrencyLimit > 16) {
            throw new IllegalArgumentException("concurrencyLimit must be within 1..16, was " + concurrencyLimit);
        }
        Objects.requireNonNull(batchDeadline, "batchDeadline");
        if (batchDeadline.isZero() || batchDeadline.isNegative() || batchDeadline.compareTo(MAX_BATCH_DEADLINE) > 0) {
            throw new IllegalArgumentException(
                    "batchDeadline must be positive and at most " + MAX_BATCH_DEADLINE + ", was " + batchDeadline);
        }
    }

    /** Limit 4, deadline 15 s. */
    public static KernelLimits defaults() {
        return new KernelLimits(DEFAULT_CONCURRENCY_LIMIT, DEFAULT_BATCH_DEADLINE);
    }

    /** A copy with another concurrency limit. */
    public KernelLimits withConcurrencyLimit(int limit) {
        return new KernelLimits(limit, batchDeadline);
    }

    /** A copy with another batch deadline. */
    public KernelLimits withBatchDeadline(Duration deadline) {
        return new KernelLimits(concurrencyLimit, deadline);
    }
}
