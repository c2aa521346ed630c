package io.agentlab.kernel.reference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;

import io.agentlab.kernel.api.BatchExecution;
import io.agentlab.kernel.api.BatchResult;
import io.agentlab.kernel.api.EventDefinition;
import io.agentlab.kernel.api.KernelLimits;
import io.agentlab.kernel.reference.BatchPropertiesTest.BatchSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.quicktheories.QuickTheory;
import org.quicktheories.core.Gen;

/**
 * Soak: generated batches — failures, hangs, exact duplicates, conflict keys, terminal events — submitted in waves of
 * {@value #WAVE} that overlap on shared kernels, the way a busy service's turns do. No batch may deadlock, no side
 * effect may run twice. (The kernels share their threads: what closing one does to them is KernelExecutorTest's.)
 * {@code -Dagentlab-build.soak.batches=N} (default 10,000); QuickTheories prints the seed of a failure,
 * {@code -Dagentlab-build.properties.seed=N} replays it.
 */
class ExecutorSoakTest {

    private static final int BATCHES = Integer.getInteger("agentlab-build.soak.batches", 10_000);
    private static final int WAVE = 16;
    private static final AtomicLong TURNS = new AtomicLong();

    @Test
    @DisplayName("10,000 generated batches in overlapping waves: no deadlock, no duplicate side effect")
    void soak() throws InterruptedException {
        Probes probes = new Probes();
        Map<Integer, ReferenceKernel> kernels = new ConcurrentHashMap<>();
        AtomicInteger batches = new AtomicInteger();
        AtomicInteger events = new AtomicInteger();
        Gen<List<BatchSpec>> waves = random -> {
            List<BatchSpec> wave = new ArrayList<>();
            for (int i = 0; i < WAVE; i++) {
                wave.add(BatchPropertiesTest.batches().generate(random));
            }
            return wave;
        };
        Long seed = Long.getLong("agentlab-build.properties.seed");
        QuickTheory theory = qt().withExamples(Math.max(1, BATCHES / WAVE)).withShrinkCycles(0);
        try {
            (seed == null ? theory : theory.withFixedSeed(seed)).forAll(waves).checkAssert(wave -> {
                List<String> turns = new ArrayList<>();
                List<BatchExecution> running = new ArrayList<>();
                for (BatchSpec spec : wave) {
                    String turnId = "soak-" + TURNS.incrementAndGet();
                    ReferenceKernel kernel = kernels.computeIfAbsent(spec.limit(), limit -> ReferenceKernel.builder()
                            .limits(KernelLimits.defaults().withConcurrencyLimit(limit))
                            .register(probes.definitions().toArray(EventDefinition[]::new)).build());
                    turns.add(turnId);
                    running.add(kernel.submit(BatchPropertiesTest.batch(turnId, spec.events())));
                }
                for (int i = 0; i < running.size(); i++) {
                    BatchSpec spec = wave.get(i);
                    Probes.Log log = probes.log(turns.get(i));
                    BatchResult result;
                    try {
                        result = running.get(i).result().get(30, TimeUnit.SECONDS);
                        // a timed-out handler may not have reached its first line when the result completes: only
                        // quiescence says every handler has returned, so the log is read after it (docs/kernel.md)
                        running.get(i).quiescence().get(30, TimeUnit.SECONDS);
                    } catch (TimeoutException e) {
                        throw new AssertionError("batch " + turns.get(i) + " did not complete in 30 s: " + spec, e);
                    } catch (Exception e) {
                        throw new AssertionError("batch " + turns.get(i) + " failed: " + e, e);
                    }
                    assertThat(result.results()).as(turns.get(i)).hasSize(spec.events().size());
                    log.invocations.forEach((identity, count) -> assertThat(count.get())
                            .as("side effect %s ran more than once", identity).isEqualTo(1));
                    assertThat(log.invocations.keySet()).as(turns.get(i)).isEqualTo(spec.distinct());
                    assertThat(log.maxRunning.get()).as(turns.get(i)).isLessThanOrEqualTo(spec.limit());
                    batches.incrementAndGet();
                    events.addAndGet(spec.events().size());
                    probes.forget(turns.get(i));
                }
            });
        } finally {
            kernels.values().forEach(ReferenceKernel::close);
        }
        System.out.printf("ExecutorSoakTest: %d batches, %d events on %d kernels%n", batches.get(), events.get(),
                kernels.size());
        assertThat(batches.get()).isGreaterThanOrEqualTo(BATCHES / WAVE * WAVE);
    }
}
