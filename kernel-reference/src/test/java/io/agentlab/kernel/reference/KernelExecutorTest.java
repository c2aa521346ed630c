package io.agentlab.kernel.reference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A kernel's executor hands tasks to a spinning thread with the same contract as a pool of the kernel's own, over
 * threads every kernel shares (docs/kernel.md#threads).
 */
@Timeout(60)
class KernelExecutorTest {

    private static KernelExecutor executor(long spinNanos) {
        return new KernelExecutor(spinNanos);
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

    @Test
    @DisplayName("shutdownNow interrupts its own kernel's running task, never another kernel's on the shared threads")
    void shutdownInterruptsOnlyItsOwnTasks() throws Exception {
        KernelExecutor closing = executor(0);
        KernelExecutor other = executor(0);
        CountDownLatch bothRunning = new CountDownLatch(2);
        CountDownLatch release = new CountDownLatch(1);
        CompletableFuture<String> closingTask = new CompletableFuture<>();
        CompletableFuture<String> otherTask = new CompletableFuture<>();
        closing.execute(() -> closingTask.complete(waitFor(bothRunning, release)));
        other.execute(() -> otherTask.complete(waitFor(bothRunning, release)));
        assertThat(bothRunning.await(30, TimeUnit.SECONDS)).as("both tasks started").isTrue();

        closing.shutdownNow();
        assertThat(closingTask.get(30, TimeUnit.SECONDS)).as("the closed kernel's task").isEqualTo("interrupted");
        assertThat(otherTask).as("the other kernel's task, still waiting").isNotDone();
        release.countDown();
        assertThat(otherTask.get(30, TimeUnit.SECONDS)).as("the other kernel's task").isEqualTo("released");
        assertThat(closing.awaitIdle(Duration.ofSeconds(30))).as("the closed kernel has no task running").isTrue();
        other.shutdownNow();
    }

    private static String waitFor(CountDownLatch running, CountDownLatch release) {
        running.countDown();
        try {
            return release.await(30, TimeUnit.SECONDS) ? "released" : "timed out";
        } catch (InterruptedException e) {
            return "interrupted";
        }
    }

    @Test
    @DisplayName("each kernel's tasks see its creator's context class loader, whichever shared thread runs them")
    void tasksSeeTheirKernelsContextLoader() throws Exception {
        Thread current = Thread.currentThread();
        ClassLoader original = current.getContextClassLoader();
        ClassLoader first = new ClassLoader(original) { };
        ClassLoader second = new ClassLoader(original) { };
        KernelExecutor firstKernel;
        KernelExecutor secondKernel;
        try {
            current.setContextClassLoader(first);
            firstKernel = executor(0);
            current.setContextClassLoader(second);
            secondKernel = executor(0);
        } finally {
            current.setContextClassLoader(original);
        }
        for (int round = 0; round < 20; round++) {
            for (KernelExecutor kernel : List.of(firstKernel, secondKernel)) {
                CompletableFuture<ClassLoader> seen = new CompletableFuture<>();
                kernel.execute(() -> seen.complete(Thread.currentThread().getContextClassLoader()));
                assertThat(seen.get(30, TimeUnit.SECONDS)).as("round %d", round)
                        .isSameAs(kernel == firstKernel ? first : second);
                assertThat(kernel.awaitIdle(Duration.ofSeconds(30))).isTrue();
            }
        }
        firstKernel.shutdownNow();
        secondKernel.shutdownNow();
    }

    @Test
    @DisplayName("kernels made one after another reuse the shared threads instead of starting their own")
    void kernelsShareThreads() throws Exception {
        Set<Thread> threads = new HashSet<>();
        for (int i = 0; i < 50; i++) {
            KernelExecutor kernel = executor(0);
            CompletableFuture<Thread> ran = new CompletableFuture<>();
            kernel.execute(() -> ran.complete(Thread.currentThread()));
            threads.add(ran.get(30, TimeUnit.SECONDS));
            kernel.shutdownNow();
            assertThat(kernel.awaitIdle(Duration.ofSeconds(30))).isTrue();
        }
        // a thread going back to the pool may not be waiting yet when the next kernel asks: a few more may start
        assertThat(threads).as("threads that ran the tasks of 50 kernels").hasSizeLessThan(10)
                .allSatisfy(thread -> assertThat(thread.getName()).startsWith("agentlab-kernel-"));
    }

    @Test
    @DisplayName("a pool thread inherits no thread-local value from the caller whose task made it start")
    void poolThreadsInheritNothing() throws Exception {
        InheritableThreadLocal<String> session = new InheritableThreadLocal<>();
        KernelExecutor kernel = executor(0);
        CountDownLatch release = new CountDownLatch(1);
        session.set("session A");
        try {
            // every task blocks, so each takes an idle pool thread until one needs a thread this call starts
            for (int i = 0; i < 1_000; i++) {
                int before = KernelExecutor.threadsStarted();
                CompletableFuture<String> value = new CompletableFuture<>();
                kernel.execute(() -> {
                    value.complete(String.valueOf(session.get()));
                    Gates.awaitQuietly(release);
                });
                if (KernelExecutor.threadsStarted() > before) {
                    assertThat(value.get(30, TimeUnit.SECONDS)).as("the value a thread started for this call sees")
                            .isEqualTo("null");
                    return;
                }
            }
            fail("1,000 tasks found an idle pool thread each; none started one");
        } finally {
            session.remove();
            release.countDown();
            kernel.shutdownNow();
        }
    }
}
