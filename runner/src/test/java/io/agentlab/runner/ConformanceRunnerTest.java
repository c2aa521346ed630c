package io.agentlab.runner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.agentlab.engine.Constants;
import io.agentlab.report.TestOutcome;
import io.agentlab.report.gates.Gates;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;

/** Runs through the Launcher as the command line and the Maven goal do: reports, filters, reruns, bad input. */
class ConformanceRunnerTest {

    @TempDir
    Path temp;

    private final StringWriter console = new StringWriter();

    static String suites(String folder) {
        return Path.of("src/test/resources/runner-suites", folder).toAbsolutePath().toString();
    }

    private RunSpec.Builder spec(String... suites) {
        return RunSpec.builder().suites(List.of(suites)).reportDirectory(temp.resolve("report"))
                .configuration(Constants.REPLAY_SPEED, "0")
                .configuration(Constants.CONTROL_RUNS, "false");
    }

    private RunResult run(RunSpec.Builder spec) {
        return ConformanceRunner.run(spec.build(), new PrintWriter(console, true), false);
    }

    private static Set<String> cases(RunResult result) {
        return result.results().tests().stream().map(test -> test.suite().orElse("") + "/" + test.caseId().orElse(""))
                .collect(Collectors.toCollection(java.util.TreeSet::new));
    }

    @Test
    @DisplayName("results.json lists every test with id, suite, case, mode, status, duration and message; "
            + "JUnit's listeners write the legacy XML and the Open Test Reporting events")
    void reports() throws Exception {
        RunResult result = run(spec(suites("mixed")));
        assertThat(result.exitCode()).isEqualTo(1);
        RunResults written = RunResults.read(temp.resolve("report"));
        assertThat(written).isEqualTo(result.results());
        assertThat(written.tests()).hasSize(6).allSatisfy(test -> {
            assertThat(test.id()).startsWith("[engine:agentlab-conformance]/[suite:runner-volume]/[case:");
            assertThat(test.suite()).contains("runner-volume");
            assertThat(test.durationMs()).isPositive();
        });
        assertThat(written.broken()).extracting(TestOutcome::mode).containsExactly("dual_agent", "chat_agent_tools");
        assertThat(written.broken()).allSatisfy(test -> {
            assertThat(test.name()).startsWith("wrong-level [");
            assertThat(test.message()).get().asString().contains("expected argument 'value' = 40 but was 30");
        });
        assertThat(written.tests()).filteredOn(test -> test.name().equals("wrong-level [parity]")).singleElement()
                .satisfies(test -> assertThat(test.status()).isEqualTo(TestOutcome.Status.PASSED));
        Path junit = temp.resolve("report").resolve(ConformanceRunner.JUNIT_FOLDER);
        Document legacy = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(
                junit.resolve("TEST-agentlab-conformance.xml").toFile());
        assertThat(legacy.getDocumentElement().getAttribute("tests")).isEqualTo("6");
        assertThat(legacy.getDocumentElement().getAttribute("failures")).isEqualTo("2");
        DocumentBuilderFactory namespaces = DocumentBuilderFactory.newInstance();
        namespaces.setNamespaceAware(true);
        Document open = namespaces.newDocumentBuilder().parse(junit.resolve("open-test-report.xml").toFile());
        assertThat(open.getDocumentElement().getLocalName()).isEqualTo("events");
        assertThat(Files.readString(junit.resolve("open-test-report.xml"))).contains("wrong-level [dual_agent]");
        assertThat(temp.resolve("report/metrics.json")).exists();
        assertThat(console.toString()).contains("  ok    set-to-thirty [dual_agent]", "  FAIL  wrong-level [dual_agent]");
    }

    @Test
    @DisplayName("junit.platform.reporting.open.xml.enabled=false leaves the Open Test Reporting log out, and only it "
            + "(red: the runner's own 'true' overriding the run's)")
    void openTestReportCanBeTurnedOff() {
        run(spec(suites("mixed")).configuration("junit.platform.reporting.open.xml.enabled", "false"));
        Path junit = temp.resolve("report").resolve(ConformanceRunner.JUNIT_FOLDER);
        assertThat(junit.resolve("open-test-report.xml")).doesNotExist();
        assertThat(junit.resolve("TEST-agentlab-conformance.xml")).exists();
        assertThat(temp.resolve("report/results.json")).exists();
    }

    @Test
    @DisplayName("--tag and --exclude-tag select whole cases by their suite's and case's tags")
    void tags() {
        assertThat(cases(run(spec(RunSpec.SHIPPED_SUITES).includeTags(List.of("smoke"))))).containsExactly(
                "calendar/tomorrow-at-nine-en", "multi-event/all-four-with-terminate", "search/weather-en",
                "volume/up-a-bit-en");
        assertThat(cases(run(spec(suites("mixed")).excludeTags(List.of("smoke"))))).containsExactly(
                "runner-volume/wrong-level");
    }

    @Test
    @DisplayName("--case takes a case id, suite/case or a unique id; a name that matches nothing is a usage error")
    void caseFilter() {
        assertThat(cases(run(spec(suites("mixed")).cases(List.of("set-to-thirty"))))).containsExactly(
                "runner-volume/set-to-thirty");
        assertThat(cases(run(spec(suites("mixed")).cases(List.of("runner-volume/wrong-level"))))).containsExactly(
                "runner-volume/wrong-level");
        RunResult one = run(spec(suites("mixed")).cases(List.of(
                "[engine:agentlab-conformance]/[suite:runner-volume]/[case:wrong-level]/[mode:chat_agent_tools]")));
        assertThat(one.results().tests()).extracting(TestOutcome::name).containsExactly("wrong-level [chat_agent_tools]");
        assertThatThrownBy(() -> run(spec(suites("mixed")).cases(List.of("no-such-case"))))
                .isInstanceOf(UsageException.class).hasMessageContaining("--case: 'no-such-case' names no case");
    }

    @Test
    @DisplayName("--rerun-failed runs the cases that failed last time, whole; after a green run there is nothing to do")
    void rerunFailed() {
        run(spec(suites("mixed")));
        Path last = temp.resolve("last.json");
        copy(temp.resolve("report/results.json"), last);
        RunResult rerun = run(spec(suites("mixed")).rerunFailed(last));
        assertThat(cases(rerun)).containsExactly("runner-volume/wrong-level");
        assertThat(rerun.results().tests()).hasSize(3);
        RunResult green = run(spec(suites("mixed")).cases(List.of("set-to-thirty")));
        assertThat(green.exitCode()).isZero();
        copy(temp.resolve("report/results.json"), last);
        RunResult nothing = run(spec(suites("mixed")).rerunFailed(last));
        assertThat(nothing.nothingToDo()).isTrue();
        assertThat(nothing.exitCode()).isZero();
        assertThat(nothing.notes()).singleElement().asString().contains("nothing failed in the last run");
    }

    private static void copy(Path from, Path to) {
        try {
            Files.copy(from, to, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    @DisplayName("bad input is a usage error, one line each: missing folder, no suites, broken suite, bad tag, bad key")
    void badInput() {
        assertThatThrownBy(() -> spec("/no/such/folder").build()).isInstanceOf(UsageException.class)
                .hasMessage("--suites: no such folder or file: /no/such/folder");
        assertThatThrownBy(() -> run(spec(suites("empty")))).isInstanceOf(UsageException.class)
                .hasMessageStartingWith("nothing to run: ").hasMessageContaining("hold no suite file");
        assertThatThrownBy(() -> run(spec("classpath:no/such/folder"))).isInstanceOf(UsageException.class)
                .hasMessage("--suites: no classpath folder or file 'no/such/folder'");
        assertThatThrownBy(() -> run(spec(suites("broken")))).isInstanceOf(UsageException.class)
                .hasMessageContaining("bad.suite.yaml").satisfies(e -> assertThat(e.getMessage().lines()
                        .allMatch(line -> !line.startsWith("\tat "))).isTrue());
        assertThatThrownBy(() -> run(spec(suites("mixed")).includeTags(List.of("smoke &")))).isInstanceOf(
                UsageException.class).hasMessageStartingWith("--tag/--exclude-tag: ");
        assertThatThrownBy(() -> spec(suites("mixed")).configuration("agentlab.gate.min-precison", "1"))
                .isInstanceOf(UsageException.class).hasMessageContaining("did you mean '" + Constants.GATES_MIN_PRECISION + "'");
        assertThatThrownBy(() -> run(spec(suites("mixed")).configuration(Constants.MODES, "dual")))
                .isInstanceOf(UsageException.class).hasMessageContaining("agentlab.modes: cannot use 'dual'");
    }

    @Test
    @DisplayName("a report folder the run cannot write is a usage error before anything runs, one line")
    void reportFolderCheckedFirst() throws java.io.IOException {
        java.nio.file.Path file = java.nio.file.Files.writeString(temp.resolve("a-file"), "x");
        assertThatThrownBy(() -> spec(suites("mixed")).reportDirectory(file).build())
                .isInstanceOf(UsageException.class).hasMessage("--report: '" + file + "' is a file; give a folder for "
                        + "the report");
        assertThatThrownBy(() -> spec(suites("mixed")).reportDirectory(file.resolve("report")).build())
                .isInstanceOf(UsageException.class).hasMessage("--report: cannot make '" + file.resolve("report")
                        + "': '" + file + "' is a file");
        assertThat(spec(suites("mixed")).reportDirectory(temp.resolve("new/deeper/report")).build().reportDirectory())
                .as("a folder the run will make is fine").isEqualTo(temp.resolve("new/deeper/report"));
    }

    @Test
    @DisplayName("a run whose every case was skipped executed nothing, and fails")
    void zeroExecuted() {
        RunResult result = run(spec(suites("recorded-only")).configuration(Constants.PROVIDER, "synthesized"));
        assertThat(result.results().count(TestOutcome.Status.SKIPPED)).isPositive();
        assertThat(result.results().executedCaseTests()).isZero();
        assertThat(result.exitCode()).isEqualTo(1);
        StringWriter printed = new StringWriter();
        result.print(new PrintWriter(printed, true));
        assertThat(printed.toString()).contains("no case executed");
    }

    @Test
    @DisplayName("a cause many tests share is printed once; every broken test is still named")
    void sharedCausePrintedOnce() {
        String cause = "the runtime at http://127.0.0.1:9 was not ready within 1 s (agentlab.runtime.ready-timeout): "
                + "connection refused";
        List<TestOutcome> tests = List.of(broken("a [dual_agent]", cause), broken("b [dual_agent]", "its own cause"),
                broken("c [dual_agent]", cause), broken("d [dual_agent]", null), broken("e [dual_agent]", null));
        RunResult result = new RunResult(new RunResults(Optional.empty(), Map.of(), tests), temp, List.of());
        StringWriter printed = new StringWriter();
        result.print(new PrintWriter(printed, true));
        assertThat(printed.toString()).containsOnlyOnce(cause).contains("FAILED a [dual_agent]\n" + cause,
                "FAILED b [dual_agent]\nits own cause", "FAILED c [dual_agent]\n(the same message as s/a [dual_agent], "
                        + "above)", "FAILED d [dual_agent]\n(no message)", "FAILED e [dual_agent]\n(no message)");
    }

    private static TestOutcome broken(String name, String message) {
        return new TestOutcome("[engine:e]/[suite:s]/[case:" + name.charAt(0) + "]/[mode:dual_agent]", "mode",
                Optional.of("s"), Optional.of(name.substring(0, 1)), "dual_agent", name, List.of(),
                TestOutcome.Status.FAILED, 1, Optional.ofNullable(message));
    }

    @Test
    @DisplayName("validate discovers without running: counts, and each problem as one line")
    void validate() {
        ConformanceRunner.Validation ok = ConformanceRunner.validate(spec(suites("mixed")).build());
        assertThat(ok.problems()).isEmpty();
        assertThat(ok.suites()).isEqualTo(1);
        assertThat(ok.cases()).isEqualTo(2);
        assertThat(ok.tests()).isEqualTo(6);
        ConformanceRunner.Validation broken = ConformanceRunner.validate(spec(suites("broken")).build());
        assertThat(broken.problems()).isNotEmpty().allSatisfy(problem -> assertThat(problem)
                .as("file:line:col first, once; no source's toString()").matches("^\\S*bad\\.suite\\.yaml:\\d+:\\d+: .*")
                .doesNotContain("FileSource").doesNotContain("filePosition"));
        assertThat(temp.resolve("report")).doesNotExist();
    }
}
