package io.agentlab.benchmarks;

import io.agentlab.kernel.api.EventDefinition;
import io.agentlab.kernel.api.HandlerResult;
import io.agentlab.kernel.api.KernelLimits;
import io.agentlab.kernel.api.Resolution;
import io.agentlab.kernel.api.ResultPolicy;
import io.agentlab.kernel.reference.ReferenceKernel;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Batch wall time against the ideal: 16 events whose handlers each take 50 ms (a simulated port), at concurrency
 * limit 16 (ideal 50 ms) and 4 (ideal 200 ms). The report divides by the ideal.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = BatchWallBenchmark.WARM_UP)
@Measurement(iterations = BatchWallBenchmark.MEASURED)
public class BatchWallBenchmark {

    /** Handler time of every event. */
    public static final long HANDLER_MS = 50;
    /** Events per batch. */
    public static final int EVENTS = 16;
    /**
     * Batches before the measured ones: each is one single shot, and the kernel's paths (resolution, schema
     * validation, dispatch) need a few thousand events before the JIT has compiled them (docs/performance.md#batch-wall).
     */
    public static final int WARM_UP = 200;
    /** Batches measured. */
    public static final int MEASURED = 40;

    @Param({"16", "4"})
    public int limit;

    private final AtomicLong turns = new AtomicLong();
    private ReferenceKernel kernel;

    @Setup(Level.Trial)
    public void start() {
        kernel = ReferenceKernel.builder().limits(KernelLimits.defaults().withConcurrencyLimit(limit))
                .register(EventDefinition.builder("bench.port.call").schemaVersion("1.0.0").description("A port call.")
                        .argumentsSchema("{\"type\":\"object\",\"properties\":{\"tag\":{\"type\":\"integer\"}}}")
                        .resolver(input -> Resolution.of(Map.of()))
                        .handler(invocation -> {
                            Thread.sleep(HANDLER_MS); // the simulated port's latency
                            return HandlerResult.success(Map.of());
                        })
                        .resultPolicy(ResultPolicy.SILENT_SUCCESS).build()).build();
    }

    @TearDown(Level.Trial)
    public void stop() {
        kernel.close();
    }

    @Benchmark
    public Object batch() {
        return kernel.execute(Batches.of("t" + turns.incrementAndGet(), "", "bench.port.call", EVENTS));
    }
}
