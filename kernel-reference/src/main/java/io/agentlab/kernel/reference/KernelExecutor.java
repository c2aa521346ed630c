package io.agentlab.kernel.reference;

import java.time.Duration;
import java.util.HashSet;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A kernel's task executor: its view of the daemon threads every kernel of the process shares, in which a thread that
 * has just finished a task keeps looking for this kernel's next one for {@link #SPIN_NANOS} before it goes back to
 * the shared pool (docs/performance.md#kernel-overhead).
 *
 * <p>Why shared: a kernel lives for one session (one case in a run), and a thread of its own costs a thread start per
 * kernel, more than a short case's kernel work (docs/performance.md#shared-kernel-threads). Why the spin: a kernel
 * task is often microseconds of work (resolve a single event, run an in-memory handler, aggregate), and on a virtual
 * machine waking a parked thread costs tens of microseconds, more than the work. A batch submitted right after the
 * previous one (a turn's follow-up, a handler start while resolution runs) then finds a thread already running. At
 * most {@link #MAX_SPINNERS} threads of one kernel spin at a time, each for a bounded window, so an idle kernel costs
 * nothing and a busy machine loses at most that window per task.
 *
 * <p>Tasks see the same contract as on a pool of their own: each accepted task runs once, on a pooled thread, with the
 * interrupt flag clear when it starts (set, if this executor is being shut down) and the kernel creator's context
 * class loader; {@link #shutdownNow()} refuses new tasks and interrupts this kernel's running ones, never another
 * kernel's. A thread leaves with its interrupt flag cleared, so an interrupt meant for one kernel's task never reaches
 * the next kernel's (docs/kernel.md#threads).
 */
final class KernelExecutor {

    /** How long a thread that finished a task looks for the next one before it parks. */
    static final long SPIN_NANOS = TimeUnit.MICROSECONDS.toNanos(100);
    /** A kernel's threads spinning at once; more would only compete with the tasks they wait for on a small machine. */
    static final int MAX_SPINNERS = 1;
    /** How long a shared thread waits for work before it exits. */
    static final long KEEP_ALIVE_SECONDS = 60;

    /** A spinner's slot once it stopped looking: nothing may be handed to it any more. */
    private static final Runnable GONE = () -> { };
    private static final AtomicInteger THREADS = new AtomicInteger();
    /** The threads of every kernel in the process: none while idle, as many as the kernels' tasks need at once. */
    private static final ThreadPoolExecutor SHARED = new ThreadPoolExecutor(0, Integer.MAX_VALUE, KEEP_ALIVE_SECONDS,
            TimeUnit.SECONDS, new SynchronousQueue<>(),
            runnable -> KernelThreads.newThread("agentlab-kernel-" + THREADS.incrementAndGet(), runnable));

    private final long spinNanos;
    private final ClassLoader contextLoader = Thread.currentThread().getContextClassLoader();
    private final AtomicReference<AtomicReference<Runnable>> spinner = new AtomicReference<>();
    private final AtomicInteger spinners = new AtomicInteger();
    /** The threads running this executor's tasks; guards the interrupts {@link #shutdownNow()} sends to them. */
    private final Set<Thread> running = new HashSet<>();
    private volatile boolean closed;

    KernelExecutor() {
        this(SPIN_NANOS);
    }

    /** With another spin window (tests use a long one, so a hand-off to a spinning thread is certain). */
    KernelExecutor(long spinNanos) {
        this.spinNanos = spinNanos;
    }

    /** How many shared kernel threads the process has started so far (for tests). */
    static int threadsStarted() {
        return THREADS.get();
    }

    /** Whether {@link #shutdownNow()} was called. */
    boolean closed() {
        return closed;
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
        SHARED.execute(() -> runFrom(task));
        return false;
    }

    /** Stops accepting tasks and interrupts this executor's running ones (as {@link ExecutorService#shutdownNow()}). */
    void shutdownNow() {
        synchronized (running) {
            closed = true;
            running.forEach(Thread::interrupt);
        }
    }

    /**
     * Waits until no thread runs one of this executor's tasks (for tests).
     *
     * @return whether that happened within the timeout
     */
    boolean awaitIdle(Duration timeout) throws InterruptedException {
        long end = System.nanoTime() + timeout.toNanos();
        synchronized (running) {
            for (long left = timeout.toNanos(); !running.isEmpty(); left = end - System.nanoTime()) {
                if (left <= 0) {
                    return false;
                }
                TimeUnit.NANOSECONDS.timedWait(running, left);
            }
            return true;
        }
    }

    private void runFrom(Runnable first) {
        Thread current = Thread.currentThread();
        ClassLoader shared = current.getContextClassLoader();
        synchronized (running) {
            running.add(current);
            startFlag();
        }
        current.setContextClassLoader(contextLoader);
        try {
            Runnable task = first;
            while (task != null) {
                task.run();
                task = next();
            }
        } finally {
            current.setContextClassLoader(shared);
            synchronized (running) {
                running.remove(current);
                running.notifyAll();
            }
            Thread.interrupted(); // no interrupt sent for this kernel's task may reach the next kernel's
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
        // A task handed over is always run, as a pool runs every task it accepted.
        startFlag();
        return slot.get();
    }

    /**
     * Sets the interrupt flag a task starts with: clear, unless the executor is closing, when it starts interrupted
     * (ThreadPoolExecutor's rule). {@link #shutdownNow()} sets {@code closed} before it interrupts, so an interrupt
     * cleared here is sent again.
     */
    private void startFlag() {
        Thread.interrupted();
        if (closed) {
            Thread.currentThread().interrupt();
        }
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
