package io.agentlab.kernel.reference;

import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The kernel's task executor: a cached pool of daemon threads in which a thread that has just finished a task keeps
 * looking for the next one for {@link #SPIN_NANOS} before it parks (docs/performance.md#kernel-overhead).
 *
 * <p>Why: a kernel task is often microseconds of work (resolve a single event, run an in-memory handler, aggregate),
 * and on a virtual machine waking a parked thread costs tens of microseconds, more than the work. A batch submitted
 * right after the previous one (a turn's follow-up, a test suite's next case, a handler start while resolution runs)
 * then finds a thread already running. At most {@link #MAX_SPINNERS} threads spin at a time, each for a bounded
 * window, so an idle kernel costs nothing and a busy machine loses at most that window per task. Tasks see the same
 * contract as on a plain pool: each accepted task runs once, on a pooled thread, with the interrupt flag clear when it
 * starts (set, if the executor is being shut down); after {@link #shutdownNow()} none is accepted.
 */
final class KernelExecutor {

    /** How long a thread that finished a task looks for the next one before it parks. */
    static final long SPIN_NANOS = TimeUnit.MICROSECONDS.toNanos(100);
    /** Threads spinning at once; more would only compete with the tasks they wait for on a small machine. */
    static final int MAX_SPINNERS = 1;

    /** A spinner's slot once it stopped looking: nothing may be handed to it any more. */
    private static final Runnable GONE = () -> { };

    private final ExecutorService pool;
    private final long spinNanos;
    private final AtomicReference<AtomicReference<Runnable>> spinner = new AtomicReference<>();
    private final AtomicInteger spinners = new AtomicInteger();
    private volatile boolean closed;

    KernelExecutor(ThreadFactory threads) {
        this(threads, SPIN_NANOS);
    }

    /** With another spin window (tests use a long one, so a hand-off to a spinning thread is certain). */
    KernelExecutor(ThreadFactory threads, long spinNanos) {
        this.pool = Executors.newCachedThreadPool(threads);
        this.spinNanos = spinNanos;
    }

    /** Whether a thread is looking for a task right now (for tests). */
    boolean spinning() {
        return spinner.get() != null;
    }

    /**
     * Runs {@code task} on a pooled thread: a spinning one if there is one, else a parked or new one.
     *
     * @return whether a spinning thread took it (it is starting now, with no wake-up)
     */
    boolean execute(Runnable task) {
        Objects.requireNonNull(task, "task");
        if (closed) {
            throw new RejectedExecutionException("the kernel is closed");
        }
        AtomicReference<Runnable> slot = spinner.getAndSet(null);
        if (slot != null && slot.compareAndSet(null, task)) {
            return true;
        }
        pool.execute(() -> runFrom(task));
        return false;
    }

    /** Stops accepting tasks and interrupts the running ones (as {@link ExecutorService#shutdownNow()}). */
    void shutdownNow() {
        closed = true;
        pool.shutdownNow();
    }

    private void runFrom(Runnable first) {
        Runnable task = first;
        while (task != null) {
            task.run();
            task = next();
        }
    }

    /** The next task handed to this thread while it spins, or null: then the thread goes back to the pool. */
    private Runnable next() {
        if (closed) {
            return null;
        }
        if (spinners.incrementAndGet() > MAX_SPINNERS) {
            spinners.decrementAndGet();
            return null;
        }
        AtomicReference<Runnable> slot = new AtomicReference<>();
        try {
            spinner.set(slot);
            long end = System.nanoTime() + spinNanos;
            while (slot.get() == null && System.nanoTime() - end < 0 && !closed) {
                Thread.yield(); // a thread with work to do on this core goes first
            }
            spinner.compareAndSet(slot, null);
            if (slot.compareAndSet(null, GONE)) {
                return null; // nothing came: park in the pool
            }
        } finally {
            spinners.decrementAndGet();
        }
        // A task handed over is always run, as a pool runs every task it accepted: with a clear interrupt flag,
        // unless the executor is closing, when it starts interrupted (ThreadPoolExecutor's rule).
        Thread.interrupted();
        if (closed) {
            Thread.currentThread().interrupt();
        }
        return slot.get();
    }

    /**
     * Looks at {@code future} for up to {@link #SPIN_NANOS} before a caller parks on it: the other half of a fast
     * batch's round trip, whose result is often ready within microseconds. Only worth it when the work was taken by
     * a running thread: one that must be woken runs sooner on the core a parked caller leaves free.
     */
    static void awaitBriefly(CompletableFuture<?> future) {
        long end = System.nanoTime() + SPIN_NANOS;
        while (!future.isDone() && System.nanoTime() - end < 0) {
            Thread.yield();
        }
    }
}
