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
 * than its next wake-up is just queued; only an earlier one wakes it. Cancelling marks the entry, in amortised
 * constant time however many kernels share the queue; marked entries are dropped when they reach its head, or all at
 * once when there are more than {@value #PURGE_AT} and they are more than half of it. The thread starts with the first
 * timer and exits once no timer is queued and none was armed for {@link #LINGER}, so an idle scheduler holds no
 * thread. Tasks run on the timer thread at their due time, never early.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class SystemKernelScheduler implements KernelScheduler, AutoCloseable {

    /** The longest the timer thread sleeps while timers are in use. */
    static final long HEARTBEAT = TimeUnit.MILLISECONDS.toNanos(20);
    /** How long after the last timer was armed the timer thread, none queued, keeps its heartbeat before it exits. */
    static final long LINGER = TimeUnit.SECONDS.toNanos(2);
    /** Cancelled entries a queue keeps before they are purged, if they are also more than half of it. */
    private static final int PURGE_AT = 64;

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition wake = lock.newCondition();
    private final PriorityQueue<Timer> queue = new PriorityQueue<>();
    private final AtomicLong sequence = new AtomicLong();
    private final long linger;
    /** The timer thread, null while none runs. */
    private Thread thread;
    /** When the timer thread will next wake on its own. */
    private long plannedWake;
    private long lastUse = System.nanoTime();
    private int cancelledInQueue;
    private boolean closed;

    /** A scheduler; its thread starts with the first timer. */
    public SystemKernelScheduler() {
        this(LINGER);
    }

    /** With another idle time before the thread exits (tests use none). */
    SystemKernelScheduler(long lingerNanos) {
        this.linger = lingerNanos;
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
            if (thread == null) {
                Thread starting = KernelThreads.newThread("agentlab-kernel-timer", this::loop);
                try {
                    starting.start();
                } catch (RuntimeException | Error e) {
                    queue.remove(timer); // not armed: the caller hears why, and the next timer tries again
                    throw e;
                }
                thread = starting;
                plannedWake = now; // starting: it looks at the queue before it sleeps
            } else if (timer.due - plannedWake < 0) {
                wake.signal(); // due before the thread would look again
            }
        } finally {
            lock.unlock();
        }
        return () -> cancel(timer);
    }

    /** Marks the timer; no wake-up: the thread finds the queue as it is when it looks. */
    private void cancel(Timer timer) {
        lock.lock();
        try {
            if (timer.queued && !timer.cancelled) {
                timer.cancelled = true;
                if (++cancelledInQueue > PURGE_AT && cancelledInQueue > queue.size() / 2) {
                    queue.removeIf(Timer::purge);
                    cancelledInQueue = 0;
                }
            }
        } finally {
            lock.unlock();
        }
    }

    private void loop() {
        lock.lock();
        try {
            while (!closed) {
                long now = System.nanoTime();
                Timer head = queue.peek();
                if (head != null && head.cancelled) {
                    queue.poll().queued = false;
                    cancelledInQueue--;
                    continue;
                }
                if (head != null && head.due - now <= 0) {
                    queue.poll().queued = false;
                    plannedWake = now; // busy: a timer armed meanwhile needs no signal
                    lock.unlock();
                    try {
                        head.task.run();
                    } catch (RuntimeException e) {
                        // a timer task is the kernel's own code; one failing must not stop the others, whose
                        // timeouts and deadlines are all this thread's (docs/kernel.md#threads)
                    } catch (Error e) {
                        report(e); // nor an Error, which is still worth a trace
                    } finally {
                        Thread.interrupted(); // a task's stray interrupt is not close(), which sets closed
                        lock.lock();
                    }
                    continue;
                }
                if (head == null && now - lastUse >= linger) {
                    return; // idle: the next timer starts a thread again
                }
                long until = now + HEARTBEAT;
                if (head != null && head.due - until < 0) {
                    until = head.due;
                }
                plannedWake = until;
                try {
                    wake.awaitNanos(until - now);
                } catch (InterruptedException e) {
                    // close() sets closed before it interrupts; any other interrupt must not strand queued timers
                }
            }
        } finally {
            if (thread == Thread.currentThread()) {
                thread = null;
            }
            lock.unlock();
        }
    }

    private static void report(Error error) {
        Thread current = Thread.currentThread();
        try {
            current.getUncaughtExceptionHandler().uncaughtException(current, error);
        } catch (RuntimeException | Error ignored) {
            // the report is best effort: the timer must go on
        }
    }

    /** Timers in the queue, cancelled ones not yet dropped included (for tests). */
    int queued() {
        lock.lock();
        try {
            return queue.size();
        } finally {
            lock.unlock();
        }
    }

    /** Stops the timer thread; timers not yet due never run. */
    @Override
    public void close() {
        Thread running;
        lock.lock();
        try {
            closed = true;
            queue.clear();
            running = thread;
            wake.signal();
        } finally {
            lock.unlock();
        }
        if (running != null) {
            running.interrupt();
        }
    }

    private static final class Timer implements Comparable<Timer> {
        final long due;
        final long sequence;
        final Runnable task;
        /** Guarded by the scheduler's lock. */
        boolean queued = true;
        boolean cancelled;

        Timer(long due, long sequence, Runnable task) {
            this.due = due;
            this.sequence = sequence;
            this.task = task;
        }

        /** Whether a purge drops this entry (a cancelled one, then no longer queued). */
        boolean purge() {
            if (cancelled) {
                queued = false;
            }
            return cancelled;
        }

        @Override
        public int compareTo(Timer other) {
            int byDue = Long.compare(due - other.due, 0);
            return byDue != 0 ? byDue : Long.compare(sequence, other.sequence);
        }
    }
}
