package io.agentlab.benchmarks;

import io.agentlab.kernel.api.EventDefinition;
import io.agentlab.kernel.api.HandlerResult;
import io.agentlab.kernel.api.Resolution;
import io.agentlab.kernel.api.ResultPolicy;
import io.agentlab.kernel.reference.ReferenceKernel;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Kernel overhead per event: resolve (deterministic resolver), normalize, validate against the JSON Schema, derive
 * keys, schedule on the executor and aggregate — with a handler that returns at once, so the time is the kernel's.
 * Sampled, so the report can take the median; {@code events} per batch divides it per event.
 */
@State(Scope.Benchmark)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class KernelOverheadBenchmark {

    @Param({"1", "16"})
    public int events;

    /**
     * Idle time before each batch: 0 is back to back (a suite's next case, a turn's follow-up batch), 1,000 µs an
     * isolated batch, by which time the kernel's threads have stopped spinning and parked
     * (docs/performance.md#kernel-overhead).
     */
    @Param({"0", "1000"})
    public int idleMicros;

    private final AtomicLong turns = new AtomicLong();
    private ReferenceKernel kernel;

    @Setup(Level.Trial)
    public void start() {
        kernel = ReferenceKernel.builder().register(EventDefinition.builder("bench.level.set").schemaVersion("1.0.0")
                .description("Set a level.")
                .argumentsSchema("{\"type\":\"object\",\"properties\":{\"level\":{\"type\":\"integer\",\"minimum\":0,"
                        + "\"maximum\":100},\"tag\":{\"type\":\"integer\"}},\"required\":[\"level\"]}")
                .resolver(input -> Resolution.of(Map.of("level", 30)))
                .handler(invocation -> HandlerResult.success(Map.of("ok", true)))
                .resultPolicy(ResultPolicy.SILENT_SUCCESS).build()).build();
    }

    @Setup(Level.Invocation)
    public void idle() throws InterruptedException {
        if (idleMicros > 0) {
            TimeUnit.MICROSECONDS.sleep(idleMicros); // outside the measured call
        }
    }

    @TearDown(Level.Trial)
    public void stop() {
        kernel.close();
    }

    @Benchmark
    public Object batch() {
        return kernel.execute(Batches.of("t" + turns.incrementAndGet(), "set it to 30", "bench.level.set", events));
    }
}
