package io.agentlab.engine.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import io.agentlab.engine.wire.ShippedSuites.Status;
import io.agentlab.engine.wire.ShippedSuites.Verdict;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * Proof 2 of issue 31 (docs/wire.md#a-second-runtime): the second, independent runtime (runtimes/python, Python
 * standard library only) runs every shipped suite over the wire, started by the kit from its command line. Its results
 * per suite go to {@code target/python-runtime/RESULTS.md} and must equal the committed
 * {@code runtimes/python/RESULTS.md}; every test it fails must be listed in {@code runtimes/python/known-deviations.yaml}
 * with the deviation of that runtime that explains it, and every listed one must still fail, so the list cannot go
 * stale. Without {@code python3} on the PATH the test is skipped, except where the build requires it
 * ({@code CI=true}, as {@code .ci/run} runs, or {@value #REQUIRED}{@code =true}): there it fails.
 */
@WireProof
class PythonRuntimeTest {

    /** Fail instead of skipping when python3 is missing. */
    static final String REQUIRED = "agentlab-build.python.required";
    /** Rewrite the committed {@code RESULTS.md} instead of comparing it. */
    static final String UPDATE = "agentlab-build.python.update";

    static final Path RUNTIME = Path.of("../runtimes/python");
    static final Path DEVIATIONS = RUNTIME.resolve("known-deviations.yaml");
    static final Path RESULTS = RUNTIME.resolve("RESULTS.md");
    static final Path OUT = Path.of("target/python-runtime");

    /** A listed deviation: a test of the shipped suites the Python runtime fails, and why. */
    record Deviation(String suite, String caseId, String mode, String deviation) {
        String key() {
            return suite + "/" + caseId + " [" + mode + "]";
        }
    }

    /** The committed list of the Python runtime's known deviations, by {@link Deviation#key()}. */
    static Map<String, Deviation> deviations() throws IOException {
        JsonNode root = new YAMLMapper().readTree(DEVIATIONS.toFile());
        Map<String, Deviation> listed = new LinkedHashMap<>();
        for (JsonNode entry : root.path("deviations")) {
            Deviation deviation = new Deviation(entry.path("suite").asString(), entry.path("case").asString(),
                    entry.path("mode").asString(), entry.path("deviation").asString());
            if (deviation.suite().isBlank() || deviation.caseId().isBlank() || deviation.mode().isBlank()
                    || deviation.deviation().isBlank()) {
                fail(DEVIATIONS + ": every entry needs suite, case, mode and deviation (the runtime's deviation "
                        + "that explains the failure), got " + entry);
            }
            if (listed.put(deviation.key(), deviation) != null) {
                fail(DEVIATIONS + ": " + deviation.key() + " is listed twice");
            }
        }
        return listed;
    }

    private static boolean python() {
        try {
            Process process = new ProcessBuilder("python3", "--version").redirectErrorStream(true).start();
            process.getInputStream().readAllBytes();
            return process.waitFor(30, TimeUnit.SECONDS) && process.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static boolean required() {
        return Boolean.getBoolean(REQUIRED) || "true".equalsIgnoreCase(System.getenv("CI"));
    }

    /** The command the kit starts the runtime with ({@code -B}: no byte code written into the source tree). */
    static String command() {
        return "python3 -B \"" + RUNTIME.resolve("agentlab_runtime.py").toAbsolutePath().normalize() + "\"";
    }

    @Test
    @DisplayName("the Python runtime over the wire: every failure is a listed deviation of that runtime, every listed "
            + "deviation still fails, and its per-suite results are the committed RESULTS.md (red: a failure not "
            + "listed)")
    void everyFailureIsAKnownDeviation() throws IOException {
        if (!python()) {
            if (required()) {
                fail("python3 is not on the PATH; this build requires the Python runtime's run (CI="
                        + System.getenv("CI") + ", -D" + REQUIRED + "=" + System.getProperty(REQUIRED) + ")");
            }
            Assumptions.abort("python3 is not on the PATH (.ci/run installs it; -D" + REQUIRED + "=true fails)");
        }
        Map<String, Deviation> listed = deviations();
        Map<String, Verdict> verdicts = ShippedSuites.run(OUT.resolve("report").toAbsolutePath(),
                Optional.of(command()), Map.of());
        assertThat(verdicts).as("the shipped suites' tests over the wire").hasSizeGreaterThan(100);

        String results = results(verdicts, listed);
        Files.createDirectories(OUT);
        Files.writeString(OUT.resolve("RESULTS.md"), results);

        List<String> unlisted = new ArrayList<>();
        for (Verdict verdict : verdicts.values()) {
            if (broken(verdict) && !listed.containsKey(verdict.key())) {
                unlisted.add(verdict.key() + " " + verdict.status().label + ": "
                        + ShippedSuites.brief(verdict.detail()));
            }
        }
        List<String> stale = new ArrayList<>();
        for (Deviation deviation : listed.values()) {
            Verdict verdict = verdicts.get(deviation.key());
            if (verdict == null || !broken(verdict)) {
                stale.add(deviation.key() + " is " + (verdict == null ? "not a test of the shipped suites"
                        : verdict.status().label) + " (listed: " + deviation.deviation() + ")");
            }
        }
        List<String> problems = new ArrayList<>();
        unlisted.forEach(line -> problems.add("a failure " + DEVIATIONS + " does not list with the runtime's "
                + "deviation behind it: " + line));
        stale.forEach(line -> problems.add("a listed deviation that no longer fails (remove it): " + line));
        assertThat(problems).as("the Python runtime's failures against %s (results: %s)", DEVIATIONS,
                OUT.resolve("RESULTS.md").toAbsolutePath()).isEmpty();
        if (Boolean.getBoolean(UPDATE)) {
            Files.writeString(RESULTS, results);
        } else {
            assertThat(Files.exists(RESULTS) ? Files.readString(RESULTS) : "").as("%s against this run's %s; if the "
                            + "change is meant, rewrite it with -D%s=true (or copy the file) and commit it", RESULTS,
                    OUT.resolve("RESULTS.md").toAbsolutePath(), UPDATE).isEqualTo(results);
        }
    }

    private static boolean broken(Verdict verdict) {
        return verdict.status() == Status.FAILED || verdict.status() == Status.ABORTED;
    }

    /** The results page: per suite the counts, then each failure with its listed deviation. */
    static String results(Map<String, Verdict> verdicts, Map<String, Deviation> listed) {
        Map<String, Map<Status, Integer>> perSuite = new TreeMap<>();
        Map<Status, Integer> total = new EnumMap<>(Status.class);
        for (Verdict verdict : verdicts.values()) {
            perSuite.computeIfAbsent(verdict.suite(), suite -> new EnumMap<>(Status.class))
                    .merge(verdict.status(), 1, Integer::sum);
            total.merge(verdict.status(), 1, Integer::sum);
        }
        StringBuilder out = new StringBuilder("# The Python runtime under the shipped suites\n\n")
                .append("<!-- written by PythonRuntimeTest (module engine); do not edit: rewrite with -D")
                .append(UPDATE).append("=true -Pits -->\n\n")
                .append("Every shipped suite over the wire ([docs/wire.md](../../docs/wire.md#a-second-runtime)) ")
                .append("against `python3 runtimes/python/agentlab_runtime.py`, started by the kit, replay speed 0. ")
                .append("A test is one case in one mode, or the case's parity test. *Not observable*: skipped, since ")
                .append("nothing it expects can be judged over the wire ([observability](../../docs/wire.md#observability)). ")
                .append("Every failure is a deviation of this runtime listed in ")
                .append("[known-deviations.yaml](known-deviations.yaml) ([README](README.md#deviations-it-knowingly-has)).")
                .append("\n\n| suite | tests | passed | failed | not observable | other skipped |\n")
                .append("| --- | ---: | ---: | ---: | ---: | ---: |\n");
        perSuite.forEach((suite, counts) -> out.append(row(suite, counts)));
        out.append(row("**all**", total));
        List<Verdict> failures = verdicts.values().stream().filter(PythonRuntimeTest::broken)
                .sorted(ShippedSuites.order()).toList();
        out.append("\n## Failures and the deviations behind them\n\n");
        if (failures.isEmpty()) {
            out.append("None.\n");
        } else {
            out.append("| suite | case | mode | deviation |\n| --- | --- | --- | --- |\n");
            for (Verdict failure : failures) {
                Deviation deviation = listed.get(failure.key());
                out.append("| ").append(failure.suite()).append(" | ").append(failure.caseId()).append(" | ")
                        .append(failure.mode()).append(" | ").append(deviation == null ? "**not listed**"
                                : ShippedSuites.cell(deviation.deviation())).append(" |\n");
            }
        }
        return out.toString();
    }

    private static String row(String suite, Map<Status, Integer> counts) {
        int tests = counts.values().stream().mapToInt(Integer::intValue).sum();
        return String.format(Locale.ROOT, "| %s | %d | %d | %d | %d | %d |%n", suite, tests,
                counts.getOrDefault(Status.PASSED, 0),
                counts.getOrDefault(Status.FAILED, 0) + counts.getOrDefault(Status.ABORTED, 0),
                counts.getOrDefault(Status.NOT_OBSERVABLE, 0), counts.getOrDefault(Status.SKIPPED, 0));
    }
}
