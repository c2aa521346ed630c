package io.agentlab.kernel.api;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.time.Duration;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * The batch limits ({@code docs/design.md#batch-concurrency-limit}, {@code docs/design.md#batch-deadline}): bounded
 * parallelism and one overall deadline.
 *
 * @param concurrencyLimit handlers running at once, 1..16
 * @param batchDeadline    the whole batch's deadline, positive and at most {@link #MAX_BATCH_DEADLINE}
 * @param maxBatchSize     the most events one batch may hold, 1..{@link #MAX_BATCH_SIZE}; a larger batch is refused
 *                         whole (every event {@code rejected}, nothing executed): a model that emits hundreds of
 *                         events is broken, and executing some of them would be a guess
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record KernelLimits(int concurrencyLimit, Duration batchDeadline, int maxBatchSize) {

    /** The default concurrency limit. */
    public static final int DEFAULT_CONCURRENCY_LIMIT = 4;
    /** The default batch deadline. */
    public static final Duration DEFAULT_BATCH_DEADLINE = Duration.ofSeconds(15);
    /** The largest batch deadline accepted ("positive and bounded"). */
    public static final Duration MAX_BATCH_DEADLINE = Duration.ofMinutes(5);
    /** The default most events per batch. */
    public static final int DEFAULT_MAX_BATCH_SIZE = 64;
    /** The largest batch-size limit accepted. */
    public static final int MAX_BATCH_SIZE = 1024;

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
        if (maxBatchSize < 1 || maxBatchSize > MAX_BATCH_SIZE) {
            throw new IllegalArgumentException("maxBatchSize must be within 1.." + MAX_BATCH_SIZE + ", was "
                    + maxBatchSize);
        }
    }

    /** Limits with the default batch size. */
    public KernelLimits(int concurrencyLimit, Duration batchDeadline) {
        this(concurrencyLimit, batchDeadline, DEFAULT_MAX_BATCH_SIZE);
    }

    /** Limit 4, deadline 15 s, at most 64 events a batch. */
    public static KernelLimits defaults() {
        return new KernelLimits(DEFAULT_CONCURRENCY_LIMIT, DEFAULT_BATCH_DEADLINE, DEFAULT_MAX_BATCH_SIZE);
    }

    /** A copy with another concurrency limit. */
    public KernelLimits withConcurrencyLimit(int limit) {
        return new KernelLimits(limit, batchDeadline, maxBatchSize);
    }

    /** A copy with another batch deadline. */
    public KernelLimits withBatchDeadline(Duration deadline) {
        return new KernelLimits(concurrencyLimit, deadline, maxBatchSize);
    }

    /** A copy with another batch-size limit. */
    public KernelLimits withMaxBatchSize(int size) {
        return new KernelLimits(concurrencyLimit, batchDeadline, size);
    }
}
