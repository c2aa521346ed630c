import io.agentlab.agui.AguiProfile;
import io.agentlab.agui.AguiSseCodec;
import io.agentlab.agui.AguiStreamChecker;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * How long the AG-UI 1.0 checker takes over audit streams, JMH-free (docs/runtime.md#schemas). Every {@code .sse} file
 * under a folder is decoded once, its folder being one thread (files in name order); every thread is then checked
 * {@code rounds} times; it prints the CPU time of the checking thread for the first round (cold: class loading and the
 * schema's compilation) and the median of the second half of the rounds, per frame. With a third argument it also
 * writes every violation, one per line, so two versions of the checker can be compared line by line. Run with the
 * runtime's classes and dependencies on the class path:
 *
 * <pre>
 * mvn -B -o -q -pl runtime dependency:build-classpath -Dmdep.outputFile=/tmp/cp.txt
 * java -cp runtime/target/classes:$(cat /tmp/cp.txt) benchmarks/side-by-side/AguiCheckerTime.java \
 *     conformance-suites/target/agentlab-audit/agui-1.0 40 [violations.txt]
 * </pre>
 */
public final class AguiCheckerTime {

    public static void main(String[] args) throws Exception {
        Path root = Path.of(args[0]);
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 40;
        Map<Path, List<List<AguiSseCodec.Frame>>> threads = new TreeMap<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path file : files.filter(p -> p.toString().endsWith(".sse")).sorted().toList()) {
                threads.computeIfAbsent(file.getParent(), k -> new ArrayList<>())
                        .add(AguiSseCodec.decode(Files.readString(file)));
            }
        }
        long frames = threads.values().stream().flatMap(List::stream).mapToLong(List::size).sum();
        long streams = threads.values().stream().mapToLong(List::size).sum();
        ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
        long[] times = new long[rounds];
        List<String> violations = new ArrayList<>();
        for (int round = 0; round < rounds; round++) {
            violations.clear();
            long start = cpu.getCurrentThreadCpuTime();
            for (Map.Entry<Path, List<List<AguiSseCodec.Frame>>> thread : threads.entrySet()) {
                AguiStreamChecker.ThreadCheck check = AguiStreamChecker.thread(AguiProfile.AGUI_1_0);
                int number = 0;
                for (List<AguiSseCodec.Frame> stream : thread.getValue()) {
                    AguiStreamChecker.StreamCheck streamCheck = check.stream(null);
                    stream.forEach(streamCheck::frame);
                    number++;
                    for (AguiStreamChecker.Violation violation : streamCheck.finish()) {
                        violations.add(root.relativize(thread.getKey()) + "#" + number + " " + violation);
                    }
                }
            }
            times[round] = cpu.getCurrentThreadCpuTime() - start;
        }
        long[] warm = Arrays.copyOfRange(times, rounds / 2, rounds);
        Arrays.sort(warm);
        long median = warm[warm.length / 2];
        System.out.printf("%d threads, %d streams, %d frames, %d violations%n", threads.size(), streams, frames,
                violations.size());
        System.out.printf("CPU: first round %.1f ms (cold); median of rounds %d to %d %.2f ms, %.2f us per frame%n",
                times[0] / 1e6, rounds / 2 + 1, rounds, median / 1e6, median / 1e3 / frames);
        if (args.length > 2) {
            Files.write(Path.of(args[2]), violations);
        }
    }
}
