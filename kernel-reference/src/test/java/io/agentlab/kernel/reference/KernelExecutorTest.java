package io.agentlab.kernel.reference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The kernel's executor hands tasks to a spinning thread with the same contract as a plain pool. */
@Timeout(60)
class KernelExecutorTest {

    private static KernelExecutor executor(long spinNanos) {
        return new KernelExecutor(runnable -> {
            Thread thread = new Thread(runnable, "kernel-executor-test");
            thread.setDaemon(true);
            return thread;
        }, spinNanos);
    }

    @Test
    @DisplayName("every task runs exactly once, whichever thread takes it, under concurrent submission")
    void everyTaskRunsOnce() throws Exception {
        KernelExecutor executor = executor(KernelExecutor.SPIN_NANOS);
        int submitters = 4;
        int perSubmitter = 5_000;
        AtomicIntegerArray runs = new AtomicIntegerArray(submitters * perSubmitter);
        CountDownLatch done = new CountDownLatch(submitters * perSubmitter);
        List<CompletableFuture<Void>> submitting = new ArrayList<>();
        for (int s = 0; s < submitters; s++) {
            int base = s * perSubmitter;
            submitting.add(CompletableFuture.runAsync(() -> {
                for (int i = 0; i < perSubmitter; i++) {
                    int id = base + i;
                    executor.execute(() -> {
                        runs.incrementAndGet(id);
                        done.countDown();
                    });
                }
            }));
        }
        CompletableFuture.allOf(submitting.toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);
        assertThat(done.await(30, TimeUnit.SECONDS)).as("all tasks ran").isTrue();
        for (int id = 0; id < runs.length(); id++) {
            assertThat(runs.get(id)).as("runs of task %d", id).isEqualTo(1);
        }
        executor.shutdownNow();
    }

    @Test
    @DisplayName("a task handed to a spinning thread runs on it, with the interrupt flag its predecessor left cleared")
    void handOffToSpinningThread() throws Exception {
        KernelExecutor executor = executor(Duration.ofSeconds(30).toNanos());
        CompletableFuture<Thread> first = new CompletableFuture<>();
        executor.execute(() -> {
            Thread.currentThread().interrupt(); // a task that leaves its thread interrupted
            first.complete(Thread.currentThread());
        });
        Thread firstThread = first.get(30, TimeUnit.SECONDS);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!executor.spinning() && System.nanoTime() - deadline < 0) {
            Thread.onSpinWait(); // the thread registers as spinning right after its task returned
        }
        assertThat(executor.spinning()).as("the thread looks for its next task").isTrue();

        CompletableFuture<Thread> second = new CompletableFuture<>();
        CompletableFuture<Boolean> interrupted = new CompletableFuture<>();
        executor.execute(() -> {
            interrupted.complete(Thread.currentThread().isInterrupted());
            second.complete(Thread.currentThread());
        });
        assertThat(second.get(30, TimeUnit.SECONDS)).as("taken by the spinning thread").isSameAs(firstThread);
        assertThat(interrupted.get()).as("interrupt flag at the start of the second task").isFalse();
        executor.shutdownNow();
    }

    @Test
    @DisplayName("after shutdownNow nothing is accepted and a spinning thread stops looking")
    void shutdownStopsSpinning() throws Exception {
        KernelExecutor executor = executor(Duration.ofSeconds(30).toNanos());
        CountDownLatch ran = new CountDownLatch(1);
        executor.execute(ran::countDown);
        assertThat(ran.await(30, TimeUnit.SECONDS)).isTrue();
        long spinning = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!executor.spinning() && System.nanoTime() - spinning < 0) {
            Thread.onSpinWait();
        }
        assertThat(executor.spinning()).as("a thread spins before the shutdown").isTrue();
        executor.shutdownNow();
        assertThatThrownBy(() -> executor.execute(() -> { }))
                .isInstanceOf(RejectedExecutionException.class).hasMessageContaining("closed");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (executor.spinning() && System.nanoTime() - deadline < 0) {
            Thread.onSpinWait();
        }
        assertThat(executor.spinning()).as("no thread still spinning after shutdown").isFalse();
    }
}
