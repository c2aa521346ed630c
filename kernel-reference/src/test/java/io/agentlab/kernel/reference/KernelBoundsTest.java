package io.agentlab.kernel.reference;

import static io.agentlab.kernel.reference.Definitions.ok;
import static io.agentlab.kernel.reference.Definitions.silent;
import static io.agentlab.kernel.reference.Turns.batch;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.agentlab.kernel.api.BatchExecution;
import io.agentlab.kernel.api.BatchResult;
import io.agentlab.kernel.api.ContinuationDecision;
import io.agentlab.kernel.api.EventBatch;
import io.agentlab.kernel.api.EventOutcome.Rejected;
import io.agentlab.kernel.api.EventOutcome.RejectionReason;
import io.agentlab.kernel.api.EventOutcome.TimedOut;
import io.agentlab.kernel.api.EventOutcome.TimeoutScope;
import io.agentlab.kernel.api.EventResult;
import io.agentlab.kernel.api.HandlerResult;
import io.agentlab.kernel.api.JsonValues;
import io.agentlab.kernel.api.KernelLimits;
import io.agentlab.kernel.api.Resolution;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The kernel's bounds under hostile input (docs/limits-and-safety.md#kernel): batch size, a caller that is never
 * blocked, the batch deadline for the largest batch accepted, argument nesting, and the follow-up summary's size.
 */
class KernelBoundsTest {

    private ReferenceKernel kernel;

    @AfterEach
    void close() {
        if (kernel != null) {
            kernel.close();
        }
    }

    @Test
    @DisplayName("a batch over the size limit is refused whole: every event rejected, no handler called")
    void oversizedBatchRefusedWhole() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        kernel = ReferenceKernel.builder().register(silent("t.any", invocation -> {
            calls.incrementAndGet();
            return HandlerResult.success(Map.of());
        }).build()).build();
        EventBatch.Builder builder = batch("t1");
        for (int i = 0; i < 5_000; i++) {
            builder.event("t.any", Map.of("n", i));
        }
        BatchExecution execution = kernel.submit(builder.build());
        assertThat(execution.result()).as("refused at submit, not after running anything").isDone();
        BatchResult result = execution.result().get();

        assertThat(result.results()).hasSize(5_000).allSatisfy(event -> {
            assertThat(event.outcome()).isInstanceOf(Rejected.class);
            assertThat(((Rejected) event.outcome()).reason()).isEqualTo(RejectionReason.BATCH_TOO_LARGE);
        });
        assertThat(((Rejected) result.results().get(0).outcome()).message())
                .contains("5000 events").contains("at most 64");
        assertThat(calls).hasValue(0);
        assertThat(execution.quiescence()).isDone();
        FollowUpSize.assertWithin(result.decision(), 4_000);
    }

    @Test
    @DisplayName("submit returns while resolution is still blocked: the caller never waits for the batch")
    void submitNeverWaitsForResolution() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        kernel = ReferenceKernel.builder().limits(KernelLimits.defaults().withMaxBatchSize(1024))
                .register(silent("t.slow", ok()).resolver(input -> {
                    try {
                        release.await(); // a resolver stuck until the test says so
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    return Resolution.empty();
                }).build()).build();
        EventBatch.Builder builder = batch("t1");
        for (int i = 0; i < 1024; i++) {
            builder.event("t.slow", Map.of("n", i % 7)); // many equal events: the duplicate check must stay linear
        }
        BatchExecution execution = kernel.submit(builder.build()); // returns although no event has resolved yet
        assertThat(execution.result()).isNotDone();
        release.countDown();
        BatchResult result = execution.result().get(30, TimeUnit.SECONDS);

        assertThat(result.results()).extracting(EventResult::status)
                .filteredOn("succeeded"::equals).hasSize(7);
        assertThat(result.results()).extracting(EventResult::status)
                .filteredOn("deduplicated"::equals).hasSize(1024 - 7);
    }

    @Test
    @DisplayName("the batch deadline ends the largest accepted batch: unfinished events time out, nothing is lost")
    void deadlineHoldsForTheLargestBatch() throws Exception {
        ManualKernelScheduler clock = new ManualKernelScheduler();
        CountDownLatch never = new CountDownLatch(1);
        AtomicInteger started = new AtomicInteger();
        CountDownLatch slotsTaken = new CountDownLatch(4);
        kernel = ReferenceKernel.builder().scheduler(clock)
                .limits(new KernelLimits(4, Duration.ofSeconds(15), KernelLimits.MAX_BATCH_SIZE))
                .register(silent("t.stuck", invocation -> {
                    started.incrementAndGet();
                    slotsTaken.countDown();
                    never.await(); // until the deadline interrupts it
                    return HandlerResult.success(Map.of());
                }).timeout(Duration.ofMinutes(1)).build()).build();
        EventBatch.Builder builder = batch("t1");
        for (int i = 0; i < KernelLimits.MAX_BATCH_SIZE; i++) {
            builder.event("t.stuck", Map.of("n", i));
        }
        BatchExecution execution = kernel.submit(builder.build());
        assertThat(slotsTaken.await(30, TimeUnit.SECONDS)).as("four handlers hold the four slots").isTrue();
        clock.advance(Duration.ofSeconds(15));
        BatchResult result = execution.result().get(30, TimeUnit.SECONDS);

        assertThat(result.results()).hasSize(KernelLimits.MAX_BATCH_SIZE)
                .allSatisfy(event -> assertThat(event.outcome()).isInstanceOf(TimedOut.class));
        assertThat(result.results().stream().map(event -> (TimedOut) event.outcome()))
                .allSatisfy(timedOut -> assertThat(timedOut.scope()).isEqualTo(TimeoutScope.BATCH))
                .filteredOn(TimedOut::started).hasSize(4);
        execution.quiescence().get(30, TimeUnit.SECONDS);
        assertThat(started).as("no event started after the deadline").hasValue(4);
    }

    @Test
    @DisplayName("arguments nested deeper than the limit are refused at the boundary, not with a stack overflow")
    void deepArgumentsRefused() {
        Map<String, Object> deep = new HashMap<>();
        Map<String, Object> inner = deep;
        for (int i = 0; i < 5_000; i++) {
            Map<String, Object> next = new HashMap<>();
            inner.put("a", next);
            inner = next;
        }
        assertThatThrownBy(() -> batch("t1").event("t.any", deep))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("nested deeper than " + JsonValues.MAX_DEPTH + " levels");
        Map<String, Object> fine = new HashMap<>();
        inner = fine;
        for (int i = 0; i < JsonValues.MAX_DEPTH - 1; i++) {
            Map<String, Object> next = new HashMap<>();
            inner.put("a", next);
            inner = next;
        }
        assertThat(batch("t1").event("t.any", fine).build().requests()).hasSize(1);
    }

    @Test
    @DisplayName("the follow-up summary stays within its limit when failures carry long messages")
    void summaryBoundedForFailures() throws Exception {
        String longMessage = "x".repeat(10_000);
        kernel = ReferenceKernel.builder().limits(KernelLimits.defaults().withConcurrencyLimit(16))
                .register(silent("t.fail", invocation -> HandlerResult.failure("port_down", longMessage)).build())
                .build();
        EventBatch.Builder builder = batch("t1");
        for (int i = 0; i < 16; i++) {
            builder.event("t.fail", Map.of("n", i));
        }
        BatchResult result = kernel.submit(builder.build()).result().get(30, TimeUnit.SECONDS);

        String json = FollowUpSize.assertWithin(result.decision(), PolicyAggregator.DEFAULT_SUMMARY_LIMIT_CHARS);
        assertThat(json).contains("\"code\":\"port_down\"").contains("truncated: 10000 chars");
        assertThat(json).as("every failure is still named").contains("\"id\":\"e1\"").contains("\"id\":\"e16\"");
    }

    @Test
    @DisplayName("when even the status lines do not fit, the last items fold into one omitted count")
    void summaryFoldsItemsAsLastResort() throws Exception {
        kernel = ReferenceKernel.builder().limits(KernelLimits.defaults().withMaxBatchSize(1024))
                .summaryLimitChars(300)
                .register(silent("t.fail", invocation -> HandlerResult.failure("down", "no")).build()).build();
        EventBatch.Builder builder = batch("t1");
        for (int i = 0; i < 200; i++) {
            builder.event("t.fail", Map.of("n", i));
        }
        BatchResult result = kernel.submit(builder.build()).result().get(30, TimeUnit.SECONDS);

        String json = FollowUpSize.assertWithin(result.decision(), 300);
        assertThat(json).contains("\"omitted\":").contains("over the summary limit");
    }

    /** Reads a decision's follow-up summary and checks its size. */
    static final class FollowUpSize {
        static String assertWithin(ContinuationDecision decision, int limit) {
            assertThat(decision).isInstanceOf(ContinuationDecision.FollowUp.class);
            String json = ((ContinuationDecision.FollowUp) decision).summary().json();
            assertThat(json.length()).as("summary length").isLessThanOrEqualTo(limit);
            return json;
        }
    }
}
