package io.agentlab.runner;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentlab.engine.Constants;
import io.agentlab.engine.RunInParts;
import io.agentlab.report.TestOutcome;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A selection too large for one test plan runs as consecutive Launcher executions over groups of suite files, and is
 * still one run: the same tests, verdicts, figures and gates as one execution, one report folder, JUnit XML per part
 * (docs/engine.md#runs-in-parts). Three suite files of 1, 2 and 2 cases, run in parts of one case.
 */
class RunInPartsTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @TempDir
    Path temp;

    private RunSpec spec(String report, String... cases) {
        return RunSpec.builder().suites(List.of(ConformanceRunnerTest.suites("parts")))
                .reportDirectory(temp.resolve(report)).configuration(Constants.REPLAY_SPEED, "0")
                .configuration(Constants.CONTROL_RUNS, "false").configuration(Constants.GATES_ENABLED, "true")
                .cases(List.of(cases)).build();
    }

    private static Set<String> verdicts(RunResult result) {
        return result.results().tests().stream().map(test -> test.id() + " " + test.status())
                .collect(Collectors.toCollection(java.util.TreeSet::new));
    }

    /** The figures of metrics.json that do not depend on the machine's pace: all but the timings. */
    private static Map<String, String> counted(Path report) throws Exception {
        JsonNode modes = JSON.readTree(Files.readString(report.resolve("metrics.json"))).path("modes");
        Map<String, String> figures = new java.util.TreeMap<>();
        modes.properties().forEach(mode -> mode.getValue().properties().forEach(figure -> {
            if (!figure.getKey().endsWith("Ms")) {
                figures.put(mode.getKey() + "." + figure.getKey(), figure.getValue().toString());
            }
        }));
        return figures;
    }

    @Test
    @DisplayName("in three parts: the tests, verdicts, counted figures and gates of one execution; one report")
    void partsAreOneRun() throws Exception {
        assertThat(ConformanceRunner.groups(spec("x"), 1)).as("a, then b, then c").hasSize(3);
        StringWriter oneOut = new StringWriter();
        StringWriter partsOut = new StringWriter();
        RunResult one = ConformanceRunner.run(spec("one"), new PrintWriter(oneOut, true), false, 1_000);
        RunResult parts = ConformanceRunner.run(spec("parts"), new PrintWriter(partsOut, true), false, 1);

        assertThat(verdicts(parts)).isEqualTo(verdicts(one)).hasSize(5 * 3 + 10);
        assertThat(parts.exitCode()).isEqualTo(one.exitCode()).isEqualTo(1);
        assertThat(parts.results().broken()).extracting(TestOutcome::name)
                .containsExactlyInAnyOrder("wrong-level [dual_agent]", "wrong-level [chat_agent_tools]");
        assertThat(parts.results().tests()).filteredOn(test -> test.kind().equals("gate"))
                .as("the gates judged once, over every part's cases").hasSize(10)
                .anySatisfy(gate -> assertThat(gate.mode() + " " + gate.status()).isEqualTo("parity PASSED"));
        assertThat(JSON.readTree(Files.readString(temp.resolve("parts/metrics.json"))).path("parity"))
                .as("every part's parity verdicts").hasSize(5);
        assertThat(counted(temp.resolve("parts"))).isEqualTo(counted(temp.resolve("one")));
        assertThat(JSON.readTree(Files.readString(temp.resolve("parts/metrics.json"))).path("turns")).hasSize(10);
        assertThat(parts.notes()).as("what the whole run covered, said once")
                .containsExactly("covered: whole suites: 3 suite(s), 5 case(s), 15 test(s)");
        assertThat(partsOut.toString().lines().filter(line -> line.matches("  (ok|FAIL|skip) .*")))
                .as("a line per test, as one execution prints").hasSize(25).containsExactlyInAnyOrderElementsOf(
                        oneOut.toString().lines().filter(line -> line.matches("  (ok|FAIL|skip) .*")).toList());
    }

    @Test
    @DisplayName("a run in parts discovers each file twice and validates its text against the suite schema once")
    void eachTextValidatedOnce() throws Exception {
        // texts no earlier test read, so what this JVM remembered before plays no part
        Path suites = Files.createDirectories(temp.resolve("fresh"));
        String mark = "# " + java.util.UUID.randomUUID() + "\n";
        try (var files = Files.list(Path.of(ConformanceRunnerTest.suites("parts")))) {
            for (Path file : files.toList()) {
                Files.writeString(suites.resolve(file.getFileName()), mark + Files.readString(file));
            }
        }
        RunSpec spec = RunSpec.builder().suites(List.of(suites.toString())).reportDirectory(temp.resolve("parts"))
                .configuration(Constants.REPLAY_SPEED, "0").configuration(Constants.CONTROL_RUNS, "false").build();
        assertThat(ConformanceRunner.groups(spec, 1)).hasSize(3);

        // discovery runs on the thread that runs the runner (docs/performance.md#schema-passes)
        long before = RunInParts.schemaValidationsOnThisThread();
        RunResult parts = ConformanceRunner.run(spec, new PrintWriter(new StringWriter(), true), false, 1);
        assertThat(RunInParts.schemaValidationsOnThisThread() - before).as("three files, each read twice").isEqualTo(3);
        assertThat(parts.results().tests()).hasSize(5 * 3);
    }

    @Test
    @DisplayName("a part the filters leave without a test still runs as a part: the run is one, reported once")
    void emptyPartsStillOneRun() throws Exception {
        // --case selects a case of parts-b only: the first and the last part hold no test once filtered
        RunResult one = ConformanceRunner.run(spec("one", "parts-b/wrong-level"), new PrintWriter(new StringWriter(),
                true), false, 1_000);
        RunResult parts = ConformanceRunner.run(spec("parts", "parts-b/wrong-level"), new PrintWriter(
                new StringWriter(), true), false, 1);

        assertThat(verdicts(parts)).isEqualTo(verdicts(one)).hasSize(3);
        assertThat(parts.results().broken()).extracting(TestOutcome::kind).containsOnly("mode");
        assertThat(parts.exitCode()).isEqualTo(one.exitCode()).isEqualTo(1);
        assertThat(parts.notes()).isEqualTo(one.notes().stream().map(note -> note.replace(
                temp.resolve("one").toString(), temp.resolve("parts").toString())).toList());
        assertThat(temp.resolve("parts/partial/metrics.json")).as("a filtered run is partial, reported once")
                .exists();
        assertThat(counted(temp.resolve("parts/partial"))).isEqualTo(counted(temp.resolve("one/partial")));
    }

    @Test
    @DisplayName("a part whose only case runs in no configured mode fails nothing when another part has tests")
    void partWithoutModesIsNoProblem() throws Exception {
        Path suites = Files.createDirectories(temp.resolve("suites"));
        String b = Files.readString(Path.of(ConformanceRunnerTest.suites("parts"), "parts-b.suite.yaml"));
        Files.writeString(suites.resolve("parts-b.suite.yaml"), b);
        // a second file with one case that runs in dual_agent only: no test of it in chat_agent_tools
        Files.writeString(suites.resolve("parts-d.suite.yaml"), b.replace("id: parts-b", "id: parts-d")
                .replace("  - id: wrong-level", "  - id: wrong-level\n    modes: [dual_agent]")
                .replaceFirst("(?s)  - id: set-to-thirty.*?(?=  - id: wrong-level)", ""));
        java.util.function.Function<String, RunSpec> spec = report -> RunSpec.builder().suites(List.of(
                        suites.toString())).reportDirectory(temp.resolve(report))
                .configuration(Constants.REPLAY_SPEED, "0").configuration(Constants.CONTROL_RUNS, "false")
                .configuration(Constants.MODES, "chat_agent_tools").build();
        assertThat(ConformanceRunner.groups(spec.apply("x"), 1)).as("b, then d").hasSize(2);
        RunResult one = ConformanceRunner.run(spec.apply("one"), new PrintWriter(new StringWriter(), true), false,
                1_000);
        RunResult parts = ConformanceRunner.run(spec.apply("parts"), new PrintWriter(new StringWriter(), true),
                false, 1);

        assertThat(verdicts(parts)).isEqualTo(verdicts(one)).hasSize(2);
        assertThat(parts.results().broken()).extracting(TestOutcome::kind).containsOnly("mode");
        assertThat(counted(temp.resolve("parts"))).isEqualTo(counted(temp.resolve("one")));
    }

    @Test
    @DisplayName("each part's execution holds its own group's plan only, and writes its JUnit XML in a folder of its own")
    void eachPartItsOwnPlan() throws Exception {
        ConformanceRunner.run(spec("parts"), new PrintWriter(new StringWriter(), true), false, 1);
        Path junit = temp.resolve("parts").resolve(ConformanceRunner.JUNIT_FOLDER);
        assertThat(junit.resolve("TEST-agentlab-conformance.xml")).doesNotExist();
        // parts-a holds one case (two modes and parity); the last part also runs the gates
        assertThat(tests(junit.resolve("part-001"))).isEqualTo(3);
        assertThat(tests(junit.resolve("part-002"))).isEqualTo(6);
        assertThat(tests(junit.resolve("part-003"))).isEqualTo(6 + 10);
        assertThat(junit.resolve("part-002/open-test-report.xml")).exists();
    }

    private static int tests(Path folder) throws Exception {
        return Integer.parseInt(DocumentBuilderFactory.newInstance().newDocumentBuilder()
                .parse(folder.resolve("TEST-agentlab-conformance.xml").toFile()).getDocumentElement()
                .getAttribute("tests"));
    }
}
