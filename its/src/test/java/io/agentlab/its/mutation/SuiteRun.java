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
 */
final class SuiteRun {

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

    SuiteRun(List<Path> classpath, Duration bound) {
        this.classpath = List.copyOf(classpath);
        this.bound = bound;
    }

    /**
     * Runs the suites.
     *
     * @param shadow       a class folder put first on the classpath, or empty for the unmutated kit
     * @param report       the report folder (results.json, the run's log)
     * @param rerunFailed  a previous results.json whose failed tests alone run again, or empty for every test
     * @param cases        the cases to run ({@code suite/case}), or empty for every case
     * @param casesAtOnce  cases run at once inside the run (1 = one after another)
     */
    Outcome run(Optional<Path> shadow, Path report, Optional<Path> rerunFailed, List<String> cases, int casesAtOnce)
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
        rerunFailed.ifPresent(path -> lines.add("rerun-failed=" + escape(path.toAbsolutePath().toString())));
        if (!cases.isEmpty()) {
            lines.add("cases=" + String.join(",", cases));
        }
        Files.write(spec, lines);
        List<String> entries = new ArrayList<>();
        shadow.ifPresent(folder -> entries.add(folder.toAbsolutePath().toString()));
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
        for (JsonNode test : root.path("tests")) {
            tests++;
            String status = test.path("status").asString();
            if (status.equals("failed") || status.equals("aborted")) {
                failed.add(name(test));
            }
        }
        if (process.exitValue() == 1 && failed.isEmpty()) {
            return new Outcome.Broken(1, tail(log)); // a gate, a container or an empty run: not one test's verdict
        }
        return new Outcome.Finished(tests, List.copyOf(failed), took);
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
