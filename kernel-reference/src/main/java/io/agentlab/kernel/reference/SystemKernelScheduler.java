package io.agentlab.kernel.reference;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.time.Duration;
import java.util.PriorityQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.apiguardian.api.API;

/**
 * Wall-clock scheduling on one daemon timer thread. The kernels' default is one instance shared by every kernel of
 * the process that is given no scheduler (docs/kernel.md#threads).
 *
 * <p>Almost every timer the kernel arms is cancelled long before it is due (an event's timeout, a batch's deadline),
 * so arming and cancelling must be cheap. A general scheduled executor wakes its timer thread whenever a new task
 * becomes the earliest one — for a kernel running one batch at a time that is every batch, twice, and each wake-up
 * is a cross-thread hand-off that costs more than the kernel's own work (docs/performance.md#kernel-overhead). Here
 * the timer thread, while timers are in use, never sleeps longer than {@link #HEARTBEAT}, so a new timer due later
 * than its next wake-up is just queued; only an earlier one (or the first after a long idle) wakes it. Cancelling
 * only removes the entry. Tasks run on the timer thread at their due time, never early.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class SystemKernelScheduler implements KernelScheduler, AutoCloseable {

    /** The longest the timer thread sleeps while timers are in use. */
    static final long HEARTBEAT = TimeUnit.MILLISECONDS.toNanos(20);
    /** How long the timer thread keeps its heartbeat after the last timer went, before it sleeps until woken. */
    static final long LINGER = TimeUnit.SECONDS.toNanos(2);

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition wake = lock.newCondition();
    private final PriorityQueue<Timer> queue = new PriorityQueue<>();
    private final AtomicLong sequence = new AtomicLong();
    private final Thread thread;
    /** When the timer thread will next wake on its own ({@code Long.MAX_VALUE}: only when signalled). */
    private long plannedWake = Long.MAX_VALUE;
    private long lastUse = System.nanoTime();
    private boolean closed;

    /** Starts the timer thread. */
    public SystemKernelScheduler() {
        thread = new Thread(this::loop, "agentlab-kernel-timer");
        thread.setDaemon(true);
        thread.start();
    }

    @Override
    public long nanoTime() {
        return System.nanoTime();
    }

    @Override
    public Cancellable schedule(Duration delay, Runnable task) {
        long now = System.nanoTime();
        Timer timer = new Timer(now + Math.max(0, delay.toNanos()), sequence.incrementAndGet(), task);
        lock.lock();
        try {
            if (closed) {
                return () -> { };
            }
            queue.add(timer);
            lastUse = now;
            if (plannedWake == Long.MAX_VALUE || timer.due - plannedWake < 0) {
                wake.signal(); // due before the thread would look again
            }
        } finally {
            lock.unlock();
        }
        return () -> {
            lock.lock();
            try {
                queue.remove(timer); // no wake-up: the thread finds the queue as it is when it looks
            } finally {
                lock.unlock();
            }
        };
    }

    private void loop() {
        lock.lock();
        try {
            while (!closed) {
                long now = System.nanoTime();
                Timer head = queue.peek();
                if (head != null && head.due - now <= 0) {
                    queue.poll();
                    plannedWake = now; // busy: a timer armed meanwhile needs no signal
                    lock.unlock();
                    try {
                        head.task.run();
                    } catch (RuntimeException e) {
                        // a timer task is the kernel's own code; one failing must not stop the others
                    } finally {
                        lock.lock();
                    }
                    continue;
                }
                boolean inUse = head != null || now - lastUse < LINGER;
                long until = inUse ? now + HEARTBEAT : Long.MAX_VALUE;
                if (head != null && head.due - until < 0) {
                    until = head.due;
                }
                plannedWake = until;
                try {
                    if (until == Long.MAX_VALUE) {
                        wake.await();
                    } else {
                        wake.awaitNanos(until - now);
                    }
                } catch (InterruptedException e) {
                    return; // close()
                }
            }
        } finally {
            lock.unlock();
        }
    }

    /** Stops the timer thread; timers not yet due never run. */
    @Override
    public void close() {
        lock.lock();
        try {
            closed = true;
            queue.clear();
            wake.signal();
        } finally {
            lock.unlock();
        }
        thread.interrupt();
    }

    private static final class Timer implements Comparable<Timer> {
        final long due;
        final long sequence;
        final Runnable task;

        Timer(long due, long sequence, Runnable task) {
            this.due = due;
            this.sequence = sequence;
            this.task = task;
        }

        @Override
        public int compareTo(Timer other) {
            int byDue = Long.compare(due - other.due, 0);
            return byDue != 0 ? byDue : Long.compare(sequence, other.sequence);
        }
    }
}
