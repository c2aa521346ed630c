import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedObject;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingFile;

/**
 * Where an {@code agentlab run} spent its time, from a JFR recording ({@code profile.sh} makes one). Run with the
 * JDK's source launcher: {@code java ProfilePhases.java recording.jfr}.
 *
 * <p>The main thread's samples (on CPU and in native code or parked) say which phase the run was in at each moment:
 * the outermost phase marker on its stack wins, checked in the order of {@link #PHASES}. Every other thread's
 * samples are charged to the phase the main thread was in at that moment, so WireMock's serving threads count
 * towards the cases or the control matrix that called them. Within a phase, each on-CPU sample is charged to one
 * activity: the first of {@link #ACTIVITIES} found anywhere on its stack, or else the library of the innermost frame
 * that is not the JDK's (the kit's own code, the JUnit Platform, picocli), or else the JDK.
 */
public final class ProfilePhases {

    /** Phase markers: a frame's class (and optionally method) prefix, in the order they are checked. */
    private static final List<String[]> PHASES = List.of(
            new String[] {"end of run: control matrix", "io.agentlab.report.controls.ControlMatrix.run"},
            new String[] {"end of run: capability growth", "io.agentlab.report.controls.CapabilityGrowth.measure"},
            new String[] {"end of run: metrics and reports", "io.agentlab.engine.ConformanceEngineDescriptor.after"},
            new String[] {"WireMock start", "io.agentlab.providers.recorded.TimedReplay.start"},
            new String[] {"cases", "io.agentlab.engine.execution.CaseRunner",
                    "io.agentlab.engine.CaseTestDescriptor", "io.agentlab.engine.ModeDescriptor",
                    "io.agentlab.engine.ParityDescriptor", "io.agentlab.engine.SuiteDescriptor"},
            new String[] {"discovery (suite YAML, suite schema)",
                    "org.junit.platform.launcher.core.EngineDiscoveryOrchestrator",
                    "org.junit.platform.launcher.core.DefaultLauncher.discover"},
            new String[] {"launcher set-up", "org.junit.platform.launcher.core.LauncherFactory"},
            new String[] {"execution outside the cases (JUnit, engine set-up)",
                    "org.junit.platform.launcher.core.DefaultLauncher.execute"},
            new String[] {"CLI start", "picocli.", "io.agentlab.cli."});

    /** Activity markers: a frame's class (and optionally method) prefix, in the order they are checked. */
    private static final List<String[]> ACTIVITIES = List.of(
            new String[] {"class loading, linking, lambdas", "java.lang.ClassLoader.loadClass",
                    "java.lang.ClassLoader.defineClass", "jdk.internal.loader.", "java.lang.invoke.",
                    "java.lang.Class.forName", "java.util.ServiceLoader"},
            new String[] {"JSON Schema compile", "com.networknt.schema.SchemaRegistry.",
                    "io.agentlab.kernel.reference.ArgumentSchema.compile", "com.networknt.schema.Schema.<init>"},
            new String[] {"JSON Schema validate", "com.networknt.schema."},
            new String[] {"token counting (jtokkit)", "com.knuddels.jtokkit."},
            new String[] {"Jackson (JSON, YAML)", "tools.jackson.", "com.fasterxml.jackson.", "org.snakeyaml.",
                    "org.yaml.snakeyaml."},
            new String[] {"WireMock and Jetty", "com.github.tomakehurst.wiremock.", "wiremock.", "org.eclipse.jetty."},
            new String[] {"OkHttp", "okhttp3.", "okio."},
            new String[] {"logging", "org.slf4j.", "java.util.logging."});

    private record Sample(Instant time, String thread, boolean onCpu, RecordedStackTrace stack) {
    }

    private ProfilePhases() {
    }

    /** Prints the summary of the recording {@code args[0]} as Markdown. */
    public static void main(String[] args) {
        if (args.length != 1) {
            System.err.println("usage: java ProfilePhases.java <recording.jfr>");
            System.exit(2);
        }
        List<Sample> samples = new ArrayList<>();
        Instant jvmStart = null;
        Instant first = null;
        Instant last = null;
        long gcCount = 0;
        Duration gcTotal = Duration.ZERO;
        Duration gcLongest = Duration.ZERO;
        long heapUsedPeak = 0;
        long heapCommittedPeak = 0;
        long heapAfterGcPeak = 0;
        long heapAfterGcLast = 0;
        Instant heapAfterGcLastTime = Instant.MIN;
        long classesLoaded = 0;
        long compileMillis = 0;
        long compilations = 0;
        long peakThreads = 0;
        Map<String, Long> gcNames = new TreeMap<>();
        List<RecordedEvent> events;
        try {
            events = RecordingFile.readAllEvents(Path.of(args[0]));
        } catch (IOException e) {
            System.err.println("ProfilePhases: cannot read " + args[0] + ": " + e.getMessage());
            System.exit(1);
            return;
        }
        for (RecordedEvent event : events) {
            String type = event.getEventType().getName();
            Instant time = event.getStartTime();
            first = first == null || time.isBefore(first) ? time : first;
            last = last == null || event.getEndTime().isAfter(last) ? event.getEndTime() : last;
            switch (type) {
                case "jdk.ExecutionSample", "jdk.NativeMethodSample" -> {
                    RecordedThread thread = event.getThread("sampledThread");
                    if (event.getStackTrace() != null) {
                        samples.add(new Sample(time, thread == null ? "?" : thread.getJavaName(),
                                type.equals("jdk.ExecutionSample"), event.getStackTrace()));
                    }
                }
                case "jdk.JVMInformation" -> jvmStart = event.getInstant("jvmStartTime");
                case "jdk.GarbageCollection" -> {
                    gcCount++;
                    gcTotal = gcTotal.plus(event.getDuration("sumOfPauses"));
                    Duration longest = event.getDuration("longestPause");
                    gcLongest = longest.compareTo(gcLongest) > 0 ? longest : gcLongest;
                    gcNames.merge(event.getString("name") + " (" + event.getString("cause") + ")", 1L, Long::sum);
                }
                case "jdk.GCHeapSummary" -> {
                    heapUsedPeak = Math.max(heapUsedPeak, event.getLong("heapUsed"));
                    if ("After GC".equals(event.getString("when"))) {
                        heapAfterGcPeak = Math.max(heapAfterGcPeak, event.getLong("heapUsed"));
                        if (time.isAfter(heapAfterGcLastTime)) {
                            heapAfterGcLast = event.getLong("heapUsed");
                            heapAfterGcLastTime = time;
                        }
                    }
                    Object heapSpace = event.getValue("heapSpace");
                    if (heapSpace instanceof RecordedObject object) {
                        heapCommittedPeak = Math.max(heapCommittedPeak, object.getLong("committedSize"));
                    }
                }
                case "jdk.ClassLoadingStatistics" -> classesLoaded = Math.max(classesLoaded,
                        event.getLong("loadedClassCount"));
                case "jdk.CompilerStatistics" -> {
                    compileMillis = Math.max(compileMillis, event.getDuration("totalTimeSpent").toMillis());
                    compilations = Math.max(compilations, event.getInt("compileCount"));
                }
                case "jdk.JavaThreadStatistics" -> peakThreads = Math.max(peakThreads, event.getLong("peakCount"));
                default -> {
                }
            }
        }
        if (samples.stream().noneMatch(sample -> sample.thread().equals("main"))) {
            System.err.println("ProfilePhases: no sample of the main thread in " + args[0]
                    + " (record with -XX:StartFlightRecording=...,settings=profile)");
            System.exit(1);
        }
        samples.sort(Comparator.comparing(Sample::time));
        Instant origin = jvmStart != null ? jvmStart : first;

        // The main thread's timeline: which phase it was in, sample by sample.
        TreeMap<Instant, String> timeline = new TreeMap<>();
        for (Sample sample : samples) {
            if (sample.thread().equals("main")) {
                timeline.put(sample.time(), phase(sample.stack()));
            }
        }
        Map<String, Instant[]> spans = new LinkedHashMap<>();
        Map<String, Map<String, Integer>> cpu = new LinkedHashMap<>();
        Map<String, Integer> threads = new TreeMap<>();
        int onCpu = 0;
        for (Sample sample : samples) {
            Map.Entry<Instant, String> at = timeline.floorEntry(sample.time());
            String phase = at == null ? "before the main thread's first sample" : at.getValue();
            if (sample.thread().equals("main")) {
                spans.computeIfAbsent(phase, p -> new Instant[] {sample.time(), sample.time()})[1] = sample.time();
            }
            if (sample.onCpu()) {
                onCpu++;
                cpu.computeIfAbsent(phase, p -> new LinkedHashMap<>()).merge(activity(sample.stack()), 1, Integer::sum);
                threads.merge(sample.thread().replaceAll("[-#]?\\d+", "-N"), 1, Integer::sum);
            }
        }

        int allOnCpu = onCpu;
        System.out.printf("recording %s: JVM start to last event %.2f s (JFR started %.2f s after the JVM)%n", args[0],
                seconds(origin, last), seconds(origin, first));
        System.out.println();
        // Wall time by phase: each interval between two main-thread samples goes to the later sample's phase (in a gap
        // the thread was doing unsampled VM work, class loading mostly, for what it is seen doing next).
        Map<String, Double> wall = new LinkedHashMap<>();
        Instant previous = timeline.firstKey();
        wall.put("JVM start, JFR start (before the main thread's first sample)", seconds(origin, previous));
        for (Map.Entry<Instant, String> at : timeline.entrySet()) {
            wall.merge(at.getValue(), seconds(previous, at.getKey()), Double::sum);
            previous = at.getKey();
        }
        double runSeconds = seconds(origin, last);
        wall.merge("after the main thread's last sample (exit)", seconds(previous, last), Double::sum);
        System.out.println("| main-thread phase | first sample (s after JVM start) | last sample | wall attributed |");
        System.out.println("| --- | --- | --- | --- |");
        for (Map.Entry<String, Double> phase : wall.entrySet()) {
            Instant[] span = spans.get(phase.getKey());
            System.out.printf("| %s | %s | %s | %.2f s (%.0f %%) |%n", phase.getKey(),
                    span == null ? "" : String.format("%.2f", seconds(origin, span[0])),
                    span == null ? "" : String.format("%.2f", seconds(origin, span[1])), phase.getValue(),
                    100 * phase.getValue() / runSeconds);
        }
        System.out.println();
        System.out.printf("On-CPU samples (jdk.ExecutionSample, all Java threads): %d. Share by phase, then activity:%n%n",
                onCpu);
        System.out.println("| phase | share | top activities (share of all samples) |");
        System.out.println("| --- | --- | --- |");
        for (Map.Entry<String, Map<String, Integer>> phase : cpu.entrySet()) {
            int total = phase.getValue().values().stream().mapToInt(Integer::intValue).sum();
            StringBuilder top = new StringBuilder();
            phase.getValue().entrySet().stream().sorted(Map.Entry.<String, Integer>comparingByValue().reversed())
                    .limit(5).forEach(e -> top.append(top.length() == 0 ? "" : "; ").append(e.getKey()).append(' ')
                            .append(percent(e.getValue(), allOnCpu)));
            System.out.printf("| %s | %s | %s |%n", phase.getKey(), percent(total, onCpu), top);
        }
        System.out.println();
        Map<String, Integer> activities = new LinkedHashMap<>();
        cpu.values().forEach(m -> m.forEach((k, v) -> activities.merge(k, v, Integer::sum)));
        System.out.println("| activity, whole run | share |");
        System.out.println("| --- | --- |");
        activities.entrySet().stream().sorted(Map.Entry.<String, Integer>comparingByValue().reversed())
                .forEach(e -> System.out.printf("| %s | %s |%n", e.getKey(), percent(e.getValue(), allOnCpu)));
        System.out.println();
        System.out.println("| thread (numbers folded) | on-CPU share |");
        System.out.println("| --- | --- |");
        threads.entrySet().stream().sorted(Map.Entry.<String, Integer>comparingByValue().reversed()).limit(8)
                .forEach(e -> System.out.printf("| %s | %s |%n", e.getKey(), percent(e.getValue(), allOnCpu)));
        System.out.println();
        System.out.printf("GC: %d collections %s, pauses %d ms in total, longest %.1f ms; heap used at most %.0f MiB"
                        + " (after a collection at most %.0f MiB, after the last %.0f MiB), committed at most %.0f MiB%n",
                gcCount, gcNames, gcTotal.toMillis(), gcLongest.toNanos() / 1e6, heapUsedPeak / 1048576.0,
                heapAfterGcPeak / 1048576.0, heapAfterGcLast / 1048576.0, heapCommittedPeak / 1048576.0);
        System.out.printf("JIT: %d compilations, %d ms compiling; classes loaded: %d; peak Java threads: %d%n",
                compilations, compileMillis, classesLoaded, peakThreads);
    }

    private static String phase(RecordedStackTrace stack) {
        for (String[] phase : PHASES) {
            if (matches(stack, phase)) {
                return phase[0];
            }
        }
        return "other (main thread)";
    }

    private static String activity(RecordedStackTrace stack) {
        for (String[] activity : ACTIVITIES) {
            if (matches(stack, activity)) {
                return activity[0];
            }
        }
        for (RecordedFrame frame : stack.getFrames()) { // innermost first
            if (frame.isJavaFrame() && frame.getMethod() != null) {
                String type = frame.getMethod().getType().getName();
                if (type.startsWith("io.agentlab.")) {
                    return "kit code (" + type.split("\\.")[2] + ")";
                }
                if (!type.startsWith("java.") && !type.startsWith("javax.") && !type.startsWith("jdk.")
                        && !type.startsWith("sun.") && !type.startsWith("com.sun.")) {
                    String[] packages = type.substring(0, Math.max(0, type.lastIndexOf('.'))).split("\\.");
                    return String.join(".", Arrays.copyOf(packages, Math.min(3, packages.length)));
                }
            }
        }
        return "JDK";
    }

    private static boolean matches(RecordedStackTrace stack, String[] marker) {
        for (RecordedFrame frame : stack.getFrames()) {
            if (!frame.isJavaFrame() || frame.getMethod() == null) {
                continue;
            }
            String name = frame.getMethod().getType().getName() + "." + frame.getMethod().getName();
            for (int i = 1; i < marker.length; i++) {
                if (name.startsWith(marker[i])) {
                    return true;
                }
            }
        }
        return false;
    }

    private static double seconds(Instant from, Instant to) {
        return Duration.between(from, to).toNanos() / 1e9;
    }

    private static String percent(int part, int whole) {
        return String.format("%.1f %%", 100.0 * part / whole);
    }
}
