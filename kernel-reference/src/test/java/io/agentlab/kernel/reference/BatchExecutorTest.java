package io.agentlab.kernel.reference;

import static io.agentlab.kernel.reference.Definitions.ok;
import static io.agentlab.kernel.reference.Definitions.silent;
import static io.agentlab.kernel.reference.Turns.batch;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.agentlab.kernel.api.BatchExecution;
import io.agentlab.kernel.api.BatchResult;
import io.agentlab.kernel.api.ConcurrencyClass;
import io.agentlab.kernel.api.EventBatch;
import io.agentlab.kernel.api.EventOutcome;
import io.agentlab.kernel.api.EventOutcome.Deduplicated;
import io.agentlab.kernel.api.EventOutcome.Failed;
import io.agentlab.kernel.api.EventOutcome.Replayed;
import io.agentlab.kernel.api.EventOutcome.Succeeded;
import io.agentlab.kernel.api.EventOutcome.TimedOut;
import io.agentlab.kernel.api.EventOutcome.TimeoutScope;
import io.agentlab.kernel.api.EventResult;
import io.agentlab.kernel.api.HandlerResult;
import io.agentlab.kernel.api.KernelLimits;
import io.agentlab.kernel.api.RetryPolicy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The shared batch executor, rule by rule ({@code docs/design.md#batch-shared-executor} and the clauses after it). */
class BatchExecutorTest {

    private final Gates gates = new Gates();
    private ReferenceKernel kernel;

    @AfterEach
    void close() {
        if (kernel != null) {
            kernel.close();
        }
    }

    private static BatchResult await(BatchExecution execution) throws Exception {
        return execution.result().get(10, TimeUnit.SECONDS);
    }

    private static List<String> statuses(BatchResult result) {
        return result.results().stream().map(EventResult::status).toList();
    }

    @Test
    @DisplayName("results are reported in input order, whatever order the handlers finish in")
    void resultsKeepInputOrder() throws Exception {
        kernel = ReferenceKernel.builder().register(silent("t.gate", gates.echo()).build()).build();
        BatchExecution execution = kernel.submit(batch("t1")
                .event("t.gate", Map.of("n", 1)).event("t.gate", Map.of("n", 2)).event("t.gate", Map.of("n", 3))
                .build());
        gates.awaitStarted(3);
        gates.open("e3");
        gates.awaitEnded("e3");
        gates.open("e2");
        gates.awaitEnded("e2");
        gates.open("e1");
        BatchResult result = await(execution);

        assertThat(result.results()).extracting(EventResult::eventId).containsExactly("e1", "e2", "e3");
        assertThat(result.results()).extracting(EventResult::orderIndex).containsExactly(0, 1, 2);
        assertThat(gates.log.stream().filter(entry -> entry.startsWith("end:")))
                .as("the handlers finished in reverse order").containsExactly("end:e3", "end:e2", "end:e1");
    }

    @Test
    @DisplayName("never more handlers run at once than the concurrency limit, dispatched in input order")
    void concurrencyLimit() throws Exception {
        kernel = ReferenceKernel.builder().limits(KernelLimits.defaults().withConcurrencyLimit(2))
                .register(silent("t.gate", gates.echo()).build()).build();
        EventBatch.Builder builder = batch("t1");
        for (int i = 1; i <= 5; i++) {
            builder.event("t.gate", Map.of("n", i));
        }
        BatchExecution execution = kernel.submit(builder.build());

        assertThat(gates.awaitStarted(2)).containsExactlyInAnyOrder("e1", "e2"); // dispatched in order, begun in any
        for (int next = 3; next <= 5; next++) {
            gates.open("e" + (next - 2));
            assertThat(gates.awaitStarted(1)).containsExactly("e" + next);
        }
        gates.open("e4");
        gates.open("e5");
        await(execution);

        assertThat(maxOverlap(gates.log)).isEqualTo(2);
    }

    /**
     * The clause this checks: {@code docs/design.md#safety-structured-failure} (a throwing handler is a failure with a
     * code).
     */
    @Test
    @DisplayName("a failing or throwing event does not disturb its siblings")
    void failureIsolation() throws Exception {
        kernel = ReferenceKernel.builder()
                .register(silent("t.throws", invocation -> {
                    throw new IllegalStateException("boom");
                }).build())
                .register(silent("t.fails", invocation -> HandlerResult.failure("device_offline", "offline")).build())
                .register(silent("t.null", invocation -> null).build())
                .register(silent("t.ok", ok()).build())
                .build();
        BatchResult result = kernel.execute(batch("t1")
                .event("t.throws").event("t.fails").event("t.null").event("t.ok").build());

        assertThat(statuses(result)).containsExactly("failed", "failed", "failed", "succeeded");
        assertThat((Failed) result.results().get(0).outcome())
                .satisfies(f -> assertThat(f.code()).isEqualTo("handler_exception"))
                .satisfies(f -> assertThat(f.message()).contains("IllegalStateException", "boom"));
        assertThat(((Failed) result.results().get(1).outcome()).code()).isEqualTo("device_offline");
        assertThat(((Failed) result.results().get(2).outcome()).code()).isEqualTo("handler_contract");
    }

    @Test
    @DisplayName("a hanging handler times out on the event timeout, is interrupted, and its sibling's result survives")
    void eventTimeout() throws Exception {
        ManualKernelScheduler clock = new ManualKernelScheduler();
        kernel = ReferenceKernel.builder().scheduler(clock)
                .register(silent("t.hang", gates.echo()).timeout(Duration.ofSeconds(2)).build())
                .register(silent("t.ok", ok()).build())
                .build();
        BatchExecution execution = kernel.submit(batch("t1").event("t.hang").event("t.ok").build());
        gates.awaitStarted(1);
        clock.advance(Duration.ofMillis(1999));
        assertThat(execution.result()).isNotDone();
        clock.advance(Duration.ofMillis(1));
        BatchResult result = await(execution);

        assertThat(result.results().get(0).outcome())
                .isEqualTo(new TimedOut(Duration.ofSeconds(2), TimeoutScope.EVENT, true));
        assertThat(result.results().get(1).outcome()).isInstanceOf(Succeeded.class);
        execution.quiescence().get(10, TimeUnit.SECONDS);
        assertThat(gates.log).contains("interrupted:e1");
    }

    @Test
    @DisplayName("on the wall clock, a caller's blocking continuation on one kernel's timed-out result holds up no "
            + "other kernel's timeout (the timer thread is shared)")
    void kernelsTimeOutIndependently() throws Exception {
        Gates otherGates = new Gates();
        kernel = ReferenceKernel.builder()
                .register(silent("t.hang", gates.echo()).timeout(Duration.ofMillis(50)).build()).build();
        Thread test = Thread.currentThread();
        CountDownLatch release = new CountDownLatch(1);
        try (ReferenceKernel other = ReferenceKernel.builder()
                .register(silent("t.hang", otherGates.echo()).timeout(Duration.ofMillis(50)).build()).build()) {
            boolean blocking = false;
            for (int attempt = 1; attempt <= 20 && !blocking; attempt++) {
                CompletableFuture<Thread> continuedOn = new CompletableFuture<>();
                kernel.submit(batch("t1-" + attempt).event("t.hang").build()).result().thenRun(() -> {
                    continuedOn.complete(Thread.currentThread());
                    if (Thread.currentThread() != test) {
                        // a caller's continuation that blocks the thread completing the result
                        Gates.awaitQuietly(release);
                    }
                });
                // on the test thread: the result completed before the continuation was registered; try again
                blocking = continuedOn.get(10, TimeUnit.SECONDS) != test;
            }
            assertThat(blocking).as("a continuation blocking the thread that completed a timed-out result").isTrue();

            BatchExecution execution = other.submit(batch("t2").event("t.hang").build());
            BatchResult result = await(execution);
            assertThat(result.results().get(0).outcome())
                    .isEqualTo(new TimedOut(Duration.ofMillis(50), TimeoutScope.EVENT, true));
        } finally {
            release.countDown();
        }
    }

    @Test
    @DisplayName("kernels given no scheduler share the process's one timer thread")
    void kernelsShareTheTimer() throws Exception {
        Set<Thread> before = timerThreads();
        List<ReferenceKernel> kernels = new ArrayList<>();
        try {
            for (int i = 0; i < 20; i++) {
                ReferenceKernel each = ReferenceKernel.builder()
                        .register(silent("t.gate", gates.echo()).timeout(Duration.ofSeconds(60)).build()).build();
                kernels.add(each);
                each.submit(batch("t" + i).event("t.gate").build());
            }
            gates.awaitStarted(20); // every handler runs: each kernel has its batch deadline and event timeout armed
            Set<Thread> started = timerThreads();
            started.removeAll(before);
            // one, if the shared timer had exited while idle (docs/kernel.md#threads); a timer per kernel starts 20
            assertThat(started).as("timer threads started while 20 kernels have timers armed").hasSizeLessThan(2);
        } finally {
            gates.open("e1");
            kernels.forEach(ReferenceKernel::close);
        }
    }

    private static Set<Thread> timerThreads() {
        Set<Thread> timers = new HashSet<>(Thread.getAllStackTraces().keySet());
        timers.removeIf(thread -> !thread.getName().equals("agentlab-kernel-timer"));
        return timers;
    }

    @Test
    @DisplayName("a kernel closed while a batch starts: submit says the kernel is closed; no timer outlives the batch")
    void closedWhileStarting() {
        assertClosedWhileStarting(ReferenceKernel::close);
    }

    @Test
    @DisplayName("the same when the close missed the batch and only its threads refuse it")
    void threadsRefuseWhileStarting() {
        assertClosedWhileStarting(closing -> closing.executor().shutdownNow());
    }

    /** Runs {@code close} when the batch arms its deadline, as a close() on another thread landing then would. */
    private void assertClosedWhileStarting(Consumer<ReferenceKernel> close) {
        AtomicReference<ReferenceKernel> closing = new AtomicReference<>();
        List<AtomicBoolean> timers = new CopyOnWriteArrayList<>();
        KernelScheduler closesOnFirstTimer = new KernelScheduler() {
            @Override
            public long nanoTime() {
                return System.nanoTime();
            }

            @Override
            public Cancellable schedule(Duration delay, Runnable task) {
                close.accept(closing.get());
                AtomicBoolean cancelled = new AtomicBoolean();
                timers.add(cancelled);
                return () -> cancelled.set(true);
            }
        };
        kernel = ReferenceKernel.builder().scheduler(closesOnFirstTimer).register(silent("t.ok", ok()).build()).build();
        closing.set(kernel);

        assertThatThrownBy(() -> kernel.submit(batch("t1").event("t.ok").build()))
                .isInstanceOf(IllegalStateException.class).hasMessage("the kernel is closed");
        assertThat(timers).as("timers armed").isNotEmpty().allSatisfy(cancelled -> assertThat(cancelled).isTrue());
    }

    @Test
    @DisplayName("the batch deadline times out running and waiting events; the waiting one never starts")
    void batchDeadline() throws Exception {
        ManualKernelScheduler clock = new ManualKernelScheduler();
        kernel = ReferenceKernel.builder().scheduler(clock)
                .limits(new KernelLimits(1, Duration.ofSeconds(10)))
                .register(silent("t.gate", gates.echo()).timeout(Duration.ofSeconds(60)).build())
                .build();
        BatchExecution execution = kernel.submit(batch("t1")
                .event("t.gate", Map.of("n", 1)).event("t.gate", Map.of("n", 2)).build());
        gates.awaitStarted(1);
        clock.advance(Duration.ofSeconds(10));
        BatchResult result = await(execution);
        execution.quiescence().get(10, TimeUnit.SECONDS);

        assertThat(result.results()).extracting(EventResult::outcome).containsExactly(
                new TimedOut(Duration.ofSeconds(10), TimeoutScope.BATCH, true),
                new TimedOut(Duration.ofSeconds(10), TimeoutScope.BATCH, false));
        assertThat(result.results().get(1).timings().dispatchOffset()).isEmpty();
        assertThat(gates.log).contains("interrupted:e1").doesNotContain("start:e2");
    }

    @Test
    @DisplayName("events sharing a conflict key never overlap; other events run beside them")
    void conflictKeys() throws Exception {
        kernel = ReferenceKernel.builder()
                .register(silent("t.speaker", gates.echo()).conflictKeys("speaker").build())
                .register(silent("t.lamp", gates.echo()).conflictKeys("lamp").build())
                .build();
        BatchExecution execution = kernel.submit(batch("t1")
                .event("t.speaker", Map.of("n", 1)).event("t.speaker", Map.of("n", 2)).event("t.lamp").build());

        assertThat(gates.awaitStarted(2)).containsExactlyInAnyOrder("e1", "e3");
        gates.open("e1");
        assertThat(gates.awaitStarted(1)).containsExactly("e2");
        gates.open("e2");
        gates.open("e3");
        await(execution);

        assertThat(gates.log.indexOf("end:e1")).isLessThan(gates.log.indexOf("start:e2"));
    }

    @Test
    @DisplayName("a terminal event starts only after every non-terminal sibling ended, even when listed first")
    void terminalRunsLast() throws Exception {
        kernel = ReferenceKernel.builder()
                .register(silent("t.end", gates.echo()).terminal(true).build())
                .register(silent("t.gate", gates.echo()).build())
                .build();
        BatchExecution execution = kernel.submit(batch("t1")
                .event("t.end").event("t.gate", Map.of("n", 1)).event("t.gate", Map.of("n", 2)).build());

        assertThat(gates.awaitStarted(2)).containsExactlyInAnyOrder("e2", "e3"); // two threads: either may begin first
        gates.open("e2");
        gates.open("e3");
        assertThat(gates.awaitStarted(1)).containsExactly("e1");
        gates.open("e1");
        BatchResult result = await(execution);

        assertThat(statuses(result)).containsOnly("succeeded");
        assertThat(gates.log.indexOf("start:e1"))
                .isGreaterThan(gates.log.indexOf("end:e2"))
                .isGreaterThan(gates.log.indexOf("end:e3"));
    }

    @Test
    @DisplayName("exact duplicates (same name, canonical arguments) execute once; others execute")
    void duplicatesCoalesced() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        kernel = ReferenceKernel.builder().register(silent("t.count", invocation -> {
            calls.incrementAndGet();
            return HandlerResult.success(Map.of("call", calls.get()));
        }).build()).build();
        BatchResult result = kernel.execute(batch("t1")
                .event("t.count", Map.of("x", 1, "y", "a"))
                .event("t.count", Map.of("y", "a", "x", 1.0))
                .event("t.count", Map.of("x", 2, "y", "a"))
                .build());

        assertThat(calls).hasValue(2);
        assertThat(result.results().get(1).outcome()).isInstanceOfSatisfying(Deduplicated.class, d -> {
            assertThat(d.primaryEventId()).isEqualTo("e1");
            assertThat(d.primaryOutcome()).isEqualTo(result.results().get(0).outcome());
        });
        assertThat(result.results().get(2).outcome()).isInstanceOf(Succeeded.class);
    }

    @Test
    @DisplayName("a replay in the same turn executes nothing; the same event in another turn executes")
    void replayProtection() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        kernel = ReferenceKernel.builder().register(silent("t.count", invocation -> {
            calls.incrementAndGet();
            return HandlerResult.success(Map.of());
        }).build()).build();
        EventBatch first = batch("t1").event("t.count", Map.of("x", 1)).event("t.count", Map.of("x", 2)).build();
        kernel.execute(first);
        BatchResult replay = kernel.execute(first);
        assertThat(calls).hasValue(2);
        assertThat(replay.results()).extracting(EventResult::outcome)
                .allSatisfy(outcome -> assertThat(outcome).isInstanceOf(Replayed.class));

        kernel.execute(batch("t2").event("t.count", Map.of("x", 1)).event("t.count", Map.of("x", 2)).build());
        assertThat(calls).hasValue(4);
    }

    /** The clause this checks: {@code docs/design.md#batch-cancellation}. */
    @Test
    @DisplayName("cancelling a batch interrupts running handlers, starts nothing more, records no failure")
    void cancellation() throws Exception {
        kernel = ReferenceKernel.builder().limits(KernelLimits.defaults().withConcurrencyLimit(2))
                .register(silent("t.gate", gates.echo()).build()).build();
        EventBatch work = batch("t1")
                .event("t.gate", Map.of("n", 1)).event("t.gate", Map.of("n", 2)).event("t.gate", Map.of("n", 3))
                .build();
        BatchExecution execution = kernel.submit(work);
        gates.awaitStarted(2);
        execution.cancel();

        assertThatThrownBy(() -> execution.result().get(10, TimeUnit.SECONDS))
                .isInstanceOf(CancellationException.class);
        execution.quiescence().get(10, TimeUnit.SECONDS);
        assertThat(gates.log).contains("interrupted:e1", "interrupted:e2").doesNotContain("start:e3");

        // Nothing ran to completion, so a retransmission is not a replay: it executes.
        List.of("e1", "e2", "e3").forEach(gates::open);
        BatchResult again = await(kernel.submit(work));
        assertThat(statuses(again)).containsOnly("succeeded");
    }

    @Test
    @DisplayName("cancelling the result future cancels the batch")
    void cancellingTheFutureCancelsTheBatch() throws Exception {
        kernel = ReferenceKernel.builder().register(silent("t.gate", gates.echo()).build()).build();
        BatchExecution execution = kernel.submit(batch("t1").event("t.gate").build());
        gates.awaitStarted(1);
        execution.result().cancel(true);
        execution.quiescence().get(10, TimeUnit.SECONDS);
        assertThat(gates.log).contains("interrupted:e1");
    }

    @Test
    @DisplayName("a read-only event retries once on a transient failure; side effects and permanent failures never")
    void retries() throws Exception {
        AtomicInteger readCalls = new AtomicInteger();
        AtomicInteger writeCalls = new AtomicInteger();
        AtomicInteger permanentCalls = new AtomicInteger();
        kernel = ReferenceKernel.builder()
                .register(silent("t.read", invocation -> readCalls.incrementAndGet() == 1
                        ? HandlerResult.transientFailure("busy", "503")
                        : HandlerResult.success(Map.of("attempt", invocation.attempt())))
                        .concurrencyClass(ConcurrencyClass.READ_ONLY)
                        .retryPolicy(RetryPolicy.onceOnTransientFailure()).build())
                .register(silent("t.write", invocation -> {
                    writeCalls.incrementAndGet();
                    return HandlerResult.transientFailure("busy", "503");
                }).build())
                .register(silent("t.permanent", invocation -> {
                    permanentCalls.incrementAndGet();
                    return HandlerResult.failure("not_found", "404");
                }).concurrencyClass(ConcurrencyClass.READ_ONLY).retryPolicy(RetryPolicy.onceOnTransientFailure())
                        .build())
                .build();
        BatchResult result = kernel.execute(batch("t1").event("t.read").event("t.write").event("t.permanent").build());

        assertThat(result.results().get(0).outcome()).isEqualTo(new Succeeded(Map.of("attempt", 2), 2));
        assertThat(result.results().get(1).outcome()).isEqualTo(new Failed("busy", "503", true, 1));
        assertThat(result.results().get(2).outcome()).isEqualTo(new Failed("not_found", "404", false, 1));
        assertThat(writeCalls).hasValue(1);
        assertThat(permanentCalls).hasValue(1);
    }

    @Test
    @DisplayName("executed events carry dispatch and execution timings; events that never ran do not")
    void timings() throws Exception {
        kernel = ReferenceKernel.builder().register(silent("t.ok", ok()).build()).build();
        BatchResult result = kernel.execute(batch("t1").event("t.ok").event("t.unknown").build());

        EventResult executed = result.results().get(0);
        assertThat(executed.timings().dispatchOffset()).isPresent();
        assertThat(executed.timings().execution()).isPresent();
        assertThat(executed.timings().completion()).isGreaterThanOrEqualTo(executed.timings().dispatchOffset().get());
        assertThat(result.results().get(1).timings().dispatchOffset()).isEmpty();
        assertThat(result.wallTime()).isGreaterThanOrEqualTo(executed.timings().completion());
    }

    @Test
    @DisplayName("an empty batch completes at once with nothing to say")
    void emptyBatch() throws Exception {
        kernel = ReferenceKernel.builder().register(silent("t.ok", ok()).build()).build();
        BatchResult result = kernel.execute(batch("t1").build());
        assertThat(result.results()).isEmpty();
        assertThat(result.decision().kind()).isEqualTo("complete");
    }

    @Test
    @DisplayName("a closed kernel refuses new batches and cancels running ones")
    void closedKernel() throws Exception {
        kernel = ReferenceKernel.builder().register(silent("t.gate", gates.echo()).build()).build();
        BatchExecution running = kernel.submit(batch("t1").event("t.gate").build());
        gates.awaitStarted(1);
        kernel.close();

        assertThatThrownBy(() -> running.result().get(10, TimeUnit.SECONDS)).isInstanceOf(CancellationException.class);
        assertThatThrownBy(() -> kernel.submit(batch("t2").build()))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("closed");
    }

    @Test
    @DisplayName("an interrupt from outside the kernel cancels the batch instead of failing the event")
    void foreignInterruptIsCancellation() throws Exception {
        kernel = ReferenceKernel.builder().register(silent("t.self", invocation -> {
            throw new InterruptedException("someone else interrupted the port call");
        }).build()).build();
        BatchExecution execution = kernel.submit(batch("t1").event("t.self").build());
        assertThatThrownBy(() -> execution.result().get(10, TimeUnit.SECONDS))
                .isInstanceOfAny(CancellationException.class, ExecutionException.class);
        assertThat(execution.result()).isCancelled();
    }

    /** The largest number of handlers between their start and end at any point of the log. */
    static int maxOverlap(List<String> log) {
        int running = 0;
        int max = 0;
        for (String entry : log) {
            if (entry.startsWith("start:")) {
                max = Math.max(max, ++running);
            } else if (entry.startsWith("end:")) {
                running--;
            }
        }
        return max;
    }

    static EventOutcome outcomeOf(BatchResult result, String eventId) {
        return result.results().stream().filter(r -> r.eventId().equals(eventId)).findFirst().orElseThrow().outcome();
    }
}
