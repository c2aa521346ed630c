package io.agentlab.its.mutation;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * One run of the shipped suites in a forked JVM through the runner's entry point ({@code io.agentlab.runner.RunnerMain},
 * the one the Maven goal forks), with an optional class folder first on the classpath: a mutant's recompiled class
 * there shadows the original in the kernel's jar. Replay at speed 0, both modes, gates off; the verdict per test comes
 * from the run's results.json (docs/cli.md's report folder).
 *
 * <p>The subject is the in-process kernel, or, {@link Subject#OVER_THE_WIRE}, the reference runtime service
 * (runtime-service's jar) that the run starts by command (docs/wire.md#start-up): then the class folder goes first on
 * the service's classpath, not the runner's, so the kit judging the run is the unmutated one
 * (docs/mutation-matrix.md#over-the-wire).
 */
final class SuiteRun {

    /** What the suites run against. */
    enum Subject {
        /** The kernel inside the runner's JVM (agentlab.kernel.factory's default). */
        IN_PROCESS,
        /** The reference runtime service, started by the run from a command, reached over HTTP. */
        OVER_THE_WIRE
    }

    /** The reference runtime service's entry point in runtime-service's jar. */
    static final String SERVICE_MAIN = "io.agentlab.runtime.service.RuntimeService";

    /** How one forked run ended. */
    sealed interface Outcome {
        /** The run finished and wrote results.json; {@code failed} are its failed or aborted tests. */
        record Finished(int tests, List<String> failed, Duration took) implements Outcome {
        }

        /** The run did not finish within its bound and was killed. */
        record Killed(Duration bound) implements Outcome {
        }

        /** The run ended without a readable results.json. */
        record Broken(int exitCode, String logTail) implements Outcome {
        }
    }

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final List<Path> classpath;
    private final Duration bound;
    private final Optional<Path> service;

    /**
     * @param service runtime-service's runnable jar, needed for runs {@link Subject#OVER_THE_WIRE}
     */
    SuiteRun(List<Path> classpath, Duration bound, Optional<Path> service) {
        this.classpath = List.copyOf(classpath);
        this.bound = bound;
        this.service = service;
    }

    /**
     * Runs the suites.
     *
     * @param subject      in-process, or the reference service over the wire (then cases run one at a time)
     * @param shadow       a class folder put first on the subject's classpath, or empty for the unmutated kit
     * @param report       the report folder (results.json, the run's log)
     * @param rerunFailed  a previous results.json whose failed tests alone run again, or empty for every test
     * @param cases        the cases to run ({@code suite/case}), or empty for every case
     * @param casesAtOnce  cases run at once inside the run (1 = one after another)
     */
    Outcome run(Subject subject, Optional<Path> shadow, Path report, Optional<Path> rerunFailed, List<String> cases, int casesAtOnce)
            throws IOException, InterruptedException {
        Files.createDirectories(report);
        Path spec = report.resolve("spec.properties");
        List<String> lines = new ArrayList<>(List.of(
                "suites=",
                "report=" + escape(report.toAbsolutePath().toString()),
                "config.agentlab.modes=dual_agent,chat_agent_tools",
                "config.agentlab.provider=recorded",
                "config.agentlab.replay.speed=0.0",
                "config.agentlab.gates.enabled=false",
                "config.agentlab.execution.parallel.enabled=" + (casesAtOnce > 1)));
        if (casesAtOnce > 1) {
            lines.add("config.agentlab.execution.parallel.config.strategy=fixed");
            lines.add("config.agentlab.execution.parallel.config.fixed.parallelism=" + casesAtOnce);
        }
        if (subject == Subject.OVER_THE_WIRE) {
            lines.add("config.agentlab.runtime.command=" + escape(serviceCommand(shadow)));
        }
        rerunFailed.ifPresent(path -> lines.add("rerun-failed=" + escape(path.toAbsolutePath().toString())));
        if (!cases.isEmpty()) {
            lines.add("cases=" + String.join(",", cases));
        }
        Files.write(spec, lines);
        List<String> entries = new ArrayList<>();
        if (subject == Subject.IN_PROCESS) {
            shadow.ifPresent(folder -> entries.add(folder.toAbsolutePath().toString()));
        }
        classpath.forEach(path -> entries.add(path.toString()));
        Path log = report.resolve("run.log");
        // C1 and the serial collector, as the build's own test JVMs (pom.xml argLine): a run lives seconds
        ProcessBuilder builder = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx512m",
                "-cp", String.join(File.pathSeparator, entries), "io.agentlab.runner.RunnerMain", spec.toString())
                .redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().remove("AGENTLAB_API_KEY"); // replayed providers only: no live key reaches a mutant
        long start = System.nanoTime();
        Process process = builder.start();
        if (!process.waitFor(bound.toMillis(), TimeUnit.MILLISECONDS)) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
            process.waitFor();
            return new Outcome.Killed(bound);
        }
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        Path results = report.resolve("results.json");
        if (!Files.isRegularFile(results) || process.exitValue() > 1) {
            return new Outcome.Broken(process.exitValue(), tail(log));
        }
        JsonNode root = JSON.readTree(results.toFile());
        List<String> failed = new ArrayList<>();
        int tests = 0;
        int skipped = 0;
        for (JsonNode test : root.path("tests")) {
            tests++;
            String status = test.path("status").asString();
            if (status.equals("failed") || status.equals("aborted")) {
                failed.add(name(test));
            } else if (status.equals("skipped")) {
                skipped++;
            }
        }
        // every test skipped (over the wire: nothing they expect is observable) fails the run, yet no test caught
        // anything: the mutant was not seen, which is what the verdict must say
        if (process.exitValue() == 1 && failed.isEmpty() && !(tests > 0 && skipped == tests)) {
            return new Outcome.Broken(1, tail(log)); // a gate, a container or an empty run: not one test's verdict
        }
        return new Outcome.Finished(tests, List.copyOf(failed), took);
    }

    /**
     * The command that starts the reference service (docs/wire.md#reference-service) with {@code shadow} first on its
     * classpath, before runtime-service's jar: C1, the serial collector and a small heap, as the runs themselves.
     */
    private String serviceCommand(Optional<Path> shadow) {
        Path jar = service.orElseThrow(() -> new IllegalStateException("a run over the wire needs runtime-service's "
                + "jar (runtime-service/target/agentlab-runtime-service.jar): build that module first"));
        List<String> entries = new ArrayList<>();
        shadow.ifPresent(folder -> entries.add(folder.toAbsolutePath().toString()));
        entries.add(jar.toAbsolutePath().toString());
        return quote(Path.of(System.getProperty("java.home"), "bin", "java").toString())
                + " -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Xmx256m -cp "
                + quote(String.join(File.pathSeparator, entries)) + " " + SERVICE_MAIN;
    }

    private static String quote(String value) {
        return "\"" + value + "\"";
    }

    /** A test as the matrix names it: {@code suite/case [mode]}, the mode being dual_agent, chat_agent_tools or parity. */
    static String name(JsonNode test) {
        String kind = test.path("kind").asString();
        String mode = kind.equals("mode") ? test.path("mode").asString() : kind;
        return test.path("suite").asString() + "/" + test.path("case").asString() + " [" + mode + "]";
    }

    private static String escape(String value) {
        return value.replace("\\", "\\\\");
    }

    private static String tail(Path log) throws IOException {
        if (!Files.isRegularFile(log)) {
            return "";
        }
        List<String> all = Files.readAllLines(log);
        return String.join("\n", all.subList(Math.max(0, all.size() - 20), all.size()));
    }
}
