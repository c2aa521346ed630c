package io.agentlab.kernel.reference;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.time.Duration;
import org.apiguardian.api.API;

/**
 * The kernel's clock and timer. Every timeout and timing goes through it, so tests drive timeouts with a
 * {@code ManualKernelScheduler} (test fixtures) instead of waiting for them.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public interface KernelScheduler {

    /** Monotonic time in nanoseconds (only differences are meaningful). */
    long nanoTime();

    /**
     * Runs {@code task} once after {@code delay}. Tasks must be short: they complete futures and interrupt threads.
     *
     * @return a handle that cancels the task if it has not run yet
     */
    Cancellable schedule(Duration delay, Runnable task);

    /** A scheduled task that can still be called off. */
    @FunctionalInterface
    interface Cancellable {
        /** Calls the task off; no effect once it ran. */
        void cancel();
    }
}
