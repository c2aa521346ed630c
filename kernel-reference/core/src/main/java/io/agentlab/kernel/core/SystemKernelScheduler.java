package io.agentlab.kernel.core;

import java.time.Duration;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/** Wall-clock scheduling on one daemon timer thread. The kernel's default. */
public final class SystemKernelScheduler implements KernelScheduler, AutoCloseable {

    private final ScheduledThreadPoolExecutor timer;

    /** Starts the timer thread. */
    public SystemKernelScheduler() {
        timer = new ScheduledThreadPoolExecutor(1, runnable -> {
            Thread thread = new Thread(runnable, "agentlab-kernel-timer");
            thread.setDaemon(true);
            return thread;
        });
        // Cancelled timeouts are the common case (most events finish in time): drop them at once.
        timer.setRemoveOnCancelPolicy(true);
    }

    @Override
    public long nanoTime() {
        return System.nanoTime();
    }

    @Override
    public Cancellable schedule(Duration delay, Runnable task) {
        ScheduledFuture<?> future = timer.schedule(task, delay.toNanos(), TimeUnit.NANOSECONDS);
        return () -> future.cancel(false);
    }

    /** Stops the timer thread. */
    @Override
    public void close() {
        timer.shutdownNow();
    }
}
