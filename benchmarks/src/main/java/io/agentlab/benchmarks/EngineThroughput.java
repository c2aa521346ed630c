package io.agentlab.benchmarks;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectFile;

import io.agentlab.engine.Constants;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;

/**
 * Engine throughput: a generated suite of {@code N} cases (default 1,000; each a volume turn in both modes plus parity)
 * run through the JUnit Launcher at replay speed 0 — cases per second, and the heap's peak usage over the run.
 */
public final class EngineThroughput {

    private EngineThroughput() {
    }

    /** Writes the figures to {@code args[0]}; {@code args[1]} is the case count. */
    public static void main(String[] args) throws Exception {
        int cases = args.length > 1 ? Integer.parseInt(args[1]) : 1000;
        Path directory = Files.createTempDirectory("agentlab-throughput");
        Path suite = directory.resolve("generated.suite.yaml");
        StringBuilder yaml = new StringBuilder("""
                id: generated
                title: Generated volume cases
                kernel: {events: [device.volume.adjust]}
                cases:
                """);
        for (int i = 0; i < cases; i++) {
            int level = i % 101;
            yaml.append("  - id: level-").append(i).append("\n    clause: generated\n    turns:\n")
                    .append("      - user: set the volume to ").append(level).append('\n')
                    .append("        reply: {visible: \"Volume ").append(level).append(".\", events: [{name: ")
                    .append("device.volume.adjust, arguments: {mode: absolute, value: ").append(level).append("}}]}\n")
                    .append("        expect: {events: [{name: device.volume.adjust, status: succeeded}]}\n");
        }
        Files.writeString(suite, yaml);
        LauncherDiscoveryRequest request = LauncherDiscoveryRequestBuilder.request().selectors(selectFile(suite.toFile()))
                .configurationParameter(Constants.REPLAY_SPEED, "0")
                .configurationParameter("junit.platform.reporting.output.dir", directory.resolve("out").toString())
                .build();
        System.gc();
        ManagementFactory.getMemoryPoolMXBeans().forEach(MemoryPoolMXBean::resetPeakUsage);
        SummaryGeneratingListener summary = new SummaryGeneratingListener();
        long start = System.nanoTime();
        LauncherFactory.create().execute(request, summary);
        double seconds = (System.nanoTime() - start) / 1e9;
        long peak = ManagementFactory.getMemoryPoolMXBeans().stream().filter(pool -> pool.getType() == MemoryType.HEAP)
                .mapToLong(pool -> pool.getPeakUsage().getUsed()).sum();
        new Figures()
                .put("engine_cases", cases)
                .put("engine_tests_succeeded", summary.getSummary().getTestsSucceededCount())
                .put("engine_tests_failed", summary.getSummary().getTestsFailedCount())
                .put("engine_seconds", Figures.round(seconds))
                .put("engine_cases_per_second", Figures.round(cases / seconds))
                .put("engine_heap_peak_mb", Figures.round(peak / 1024.0 / 1024.0))
                .put("engine_max_heap_mb", Runtime.getRuntime().maxMemory() / 1024 / 1024)
                .write(Path.of(args.length > 0 ? args[0] : "target/figures/engine.json"));
        System.exit(0); // idle HTTP client threads would keep the JVM alive for a minute
    }
}
