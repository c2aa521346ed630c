package io.agentlab.kernel.reference;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;

/**
 * Virtual time for tests: nothing fires until {@link #advance(Duration)} moves the clock, and due tasks then run on
 * the caller's thread in time order. A hanging handler can thus be timed out deterministically, without waiting.
 */
public final class ManualKernelScheduler implements KernelScheduler {

    private final PriorityQueue<Task> queue =
            new PriorityQueue<>(Comparator.comparingLong(Task::dueNanos).thenComparingLong(Task::sequence));
    private long nowNanos;
    private long sequence;

    @Override
    public synchronized long nanoTime() {
        return nowNanos;
    }

    @Override
    public synchronized Cancellable schedule(Duration delay, Runnable task) {
        Task entry = new Task(nowNanos + Math.max(0, delay.toNanos()), sequence++, task);
        queue.add(entry);
        return () -> {
            synchronized (ManualKernelScheduler.this) {
                queue.remove(entry);
            }
        };
    }

    /** Moves the clock forward and runs every task that became due, earliest first. */
    public void advance(Duration amount) {
        long target;
        synchronized (this) {
            target = nowNanos + amount.toNanos();
        }
        while (true) {
            Task due;
            synchronized (this) {
                Task head = queue.peek();
                if (head == null || head.dueNanos() > target) {
                    nowNanos = target;
                    return;
                }
                due = queue.poll();
                nowNanos = Math.max(nowNanos, due.dueNanos());
            }
            due.task().run(); // outside the lock: the task may schedule more
        }
    }

    /** How many tasks are waiting (for assertions that a timer was set or cancelled). */
    public synchronized int pendingTasks() {
        return queue.size();
    }

    /** The delays of the waiting tasks from now, earliest first. */
    public synchronized List<Duration> pendingDelays() {
        List<Task> tasks = new ArrayList<>(queue);
        tasks.sort(queue.comparator());
        return tasks.stream().map(t -> Duration.ofNanos(t.dueNanos() - nowNanos)).toList();
    }

    private record Task(long dueNanos, long sequence, Runnable task) {
    }
}
