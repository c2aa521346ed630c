package io.agentlab.kernel.reference;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The wall-clock timer: due tasks run, never early, in due order; cancelled ones never; close stops everything. */
class SystemKernelSchedulerTest {

    private final SystemKernelScheduler scheduler = new SystemKernelScheduler();

    @AfterEach
    void close() {
        scheduler.close();
    }

    @Test
    @DisplayName("a timer due before the thread's next look still runs, and never before its due time")
    void earlierTimerWakesTheThread() throws InterruptedException {
        AtomicBoolean late = new AtomicBoolean();
        scheduler.schedule(Duration.ofHours(1), () -> late.set(true)); // the thread now sleeps a heartbeat at most
        CountDownLatch ran = new CountDownLatch(1);
        long[] ranAt = new long[1];
        long armed = System.nanoTime();
        scheduler.schedule(Duration.ofMillis(2), () -> {
            ranAt[0] = System.nanoTime();
            ran.countDown();
        });
        assertThat(ran.await(30, TimeUnit.SECONDS)).isTrue();
        assertThat(ranAt[0] - armed).as("never early").isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(2));
        assertThat(late).isFalse();
    }

    @Test
    @DisplayName("timers run in due order; a cancelled one never runs")
    void orderAndCancel() throws InterruptedException {
        List<String> order = new CopyOnWriteArrayList<>();
        CountDownLatch done = new CountDownLatch(1);
        scheduler.schedule(Duration.ofMillis(60), () -> {
            order.add("c");
            done.countDown();
        });
        KernelScheduler.Cancellable cancelled = scheduler.schedule(Duration.ofMillis(30), () -> order.add("x"));
        scheduler.schedule(Duration.ofMillis(40), () -> order.add("b"));
        scheduler.schedule(Duration.ofMillis(1), () -> order.add("a"));
        cancelled.cancel();
        assertThat(done.await(30, TimeUnit.SECONDS)).isTrue();
        assertThat(order).containsExactly("a", "b", "c");
    }

    @Test
    @DisplayName("after a long idle the first timer still wakes the thread")
    void firstTimerAfterIdle() throws InterruptedException {
        CountDownLatch first = new CountDownLatch(1);
        scheduler.schedule(Duration.ZERO, first::countDown);
        assertThat(first.await(30, TimeUnit.SECONDS)).isTrue();
        CountDownLatch second = new CountDownLatch(1);
        scheduler.schedule(Duration.ofMillis(5), second::countDown);
        assertThat(second.await(30, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    @DisplayName("a failing task, even with an Error, does not stop the timer")
    void failingTask() throws InterruptedException {
        CountDownLatch after = new CountDownLatch(1);
        scheduler.schedule(Duration.ofMillis(50), after::countDown); // queued first: no later timer restarts a thread
        scheduler.schedule(Duration.ZERO, () -> {
            throw new IllegalStateException("boom");
        });
        scheduler.schedule(Duration.ZERO, () -> {
            throw new OutOfMemoryError("unable to create native thread (a test's)");
        });
        assertThat(after.await(30, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    @DisplayName("a task that leaves the timer thread interrupted does not stop the timers queued after it")
    void strayInterrupt() throws InterruptedException {
        CountDownLatch after = new CountDownLatch(1);
        scheduler.schedule(Duration.ofMillis(50), after::countDown); // queued first: no later timer restarts a thread
        scheduler.schedule(Duration.ZERO, () -> Thread.currentThread().interrupt());
        assertThat(after.await(30, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    @DisplayName("the thread starts with the first timer, exits once idle, and the next timer starts another")
    void threadExitsWhenIdle() throws InterruptedException {
        SystemKernelScheduler idle = new SystemKernelScheduler(0);
        try {
            AtomicReference<Thread> first = new AtomicReference<>();
            CountDownLatch firstRan = new CountDownLatch(1);
            idle.schedule(Duration.ZERO, () -> {
                first.set(Thread.currentThread());
                firstRan.countDown();
            });
            assertThat(firstRan.await(30, TimeUnit.SECONDS)).isTrue();
            first.get().join(TimeUnit.SECONDS.toMillis(30));
            assertThat(first.get().isAlive()).as("the timer thread, with no timer left").isFalse();

            AtomicReference<Thread> second = new AtomicReference<>();
            CountDownLatch secondRan = new CountDownLatch(1);
            idle.schedule(Duration.ofMillis(1), () -> {
                second.set(Thread.currentThread());
                secondRan.countDown();
            });
            assertThat(secondRan.await(30, TimeUnit.SECONDS)).isTrue();
            assertThat(second.get()).isNotSameAs(first.get());
        } finally {
            idle.close();
        }
    }

    @Test
    @DisplayName("cancelled timers do not pile up: however many are cancelled, the queue keeps at most about twice the "
            + "live ones")
    void cancelledTimersArePurged() {
        List<KernelScheduler.Cancellable> live = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            live.add(scheduler.schedule(Duration.ofHours(1), () -> { }));
        }
        for (int i = 0; i < 10_000; i++) {
            scheduler.schedule(Duration.ofHours(1), () -> { }).cancel(); // an event's timeout, cancelled as usual
        }
        assertThat(scheduler.queued()).as("timers queued with 100 live and 10,000 cancelled").isLessThanOrEqualTo(300);
        live.forEach(KernelScheduler.Cancellable::cancel);
    }
}
