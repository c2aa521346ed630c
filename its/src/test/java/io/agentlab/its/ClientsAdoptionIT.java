package io.agentlab.its;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * The engine under the JUnit Platform clients users have (issue 29, docs/engine.md#clients): one fresh Maven project
 * outside the repository, written from the docs' snippets (the properties, the BOM, the gate owner's dependencies and
 * Surefire, the {@code @Suite} class of docs/engine.md, the own suite of docs/gate-owners.md), built once by Surefire
 * with {@code rerunFailingTestsCount=1} — {@code @Suite} variants, a Jupiter class and an EngineTestKit test in one
 * JVM, one deliberately failing case — and then run by the JUnit Console Launcher 6.1.3 (junit-platform-console with
 * its classpath) once per selection.
 *
 * <p>What ran is read from what the clients write (Surefire's XML, the Launcher's legacy XML and exit code, the
 * engine's report folders) and from a {@code TestExecutionListener} the project registers, which appends the unique id
 * of every test the launcher starts: the one witness of "exactly that case, once", under any client.
 */
class ClientsAdoptionIT {

    private static final String ENGINE = "[engine:agentlab-conformance]";

    private static Path project;
    private static MavenBuild.Result build;
    private static String classpath;

    @BeforeAll
    static void buildTheFreshProject() throws IOException {
        project = project();
        build = MavenBuild.run(project, "org.apache.maven.plugins:maven-dependency-plugin:3.11.0:build-classpath",
                "-Dmdep.outputFile=classpath.txt", "-Dmdep.includeScope=test", "verify",
                "-Dsurefire.rerunFailingTestsCount=1", "-Dlaunched.tests=target/surefire-launched.txt");
        assertThat(project.resolve("classpath.txt")).as(build.log()).exists();
        classpath = project.resolve("target/test-classes") + File.pathSeparator
                + Files.readString(project.resolve("classpath.txt")).strip();
    }

    // ---- Surefire (3.6.1, the docs' version) -------------------------------------------------------------------

    @Test
    @DisplayName("Surefire's rerunFailingTestsCount=1 reruns the failed tests of a @Suite by unique id, once each, "
            + "and no passing sibling; the build stays red")
    void surefireRerunsExactlyTheFailedTests() throws IOException {
        assertThat(build.exitCode()).as("one case fails in both runs: " + build.log()).isNotZero();
        List<TestCase> cases = testcases(surefireXml("com.example.RerunTest"));
        assertThat(cases).extracting(TestCase::name).containsExactlyInAnyOrder(
                "rerun/quiet-and-goodnight [dual_agent]", "rerun/quiet-and-goodnight [chat_agent_tools]",
                "rerun/quiet-and-goodnight [parity]", "rerun/wrong-delta [dual_agent]",
                "rerun/wrong-delta [chat_agent_tools]", "rerun/wrong-delta [parity]");
        rerunOnceEach("com.example.RerunTest", "rerun");
        // the first launch covered the suite and wrote its reports; the rerun is a partial launch beside them
        assertThat(Files.readString(project.resolve("target/rerun-reports/metrics.json")))
                .containsPattern("\"partial\"\\s*:\\s*false");
        assertThat(Files.readString(project.resolve("target/rerun-reports/partial/metrics.json")))
                .containsPattern("\"partial\"\\s*:\\s*true").containsPattern("\"testsCovered\"\\s*:\\s*2\\b");
    }

    @Test
    @DisplayName("without agentlab.suites.directories, Surefire's rerun of a @SelectFile suite outside the class path "
            + "still reruns exactly the failed tests: the engine finds the suite among the working directory's files")
    void surefireRerunOfAFileSuiteOutsideTheClassPath() throws IOException {
        // docs/engine.md#clients: a rerun names no file; the engine's last place to look is the working tree
        assertThat(build.exitCode()).isNotZero();
        SuiteXml lost = suiteXml("com.example.RerunLostTest");
        assertThat(lost.errors()).as("no initializationError: the rerun found the suite").isZero();
        assertThat(lost.failures()).isEqualTo(2);
        rerunOnceEach("com.example.RerunLostTest", "lost");
    }

    /**
     * Of {@code suite} run by the {@code @Suite} class {@code suiteClass}: wrong-delta's two mode tests, and only
     * they, were rerun once and failed again (Surefire's XML), and the launcher started each of them twice and every
     * other test once (the listener's log).
     */
    private static void rerunOnceEach(String suiteClass, String suite) throws IOException {
        for (TestCase test : testcases(surefireXml(suiteClass))) {
            boolean broken = test.name().matches(suite + "/wrong-delta \\[(dual_agent|chat_agent_tools)]");
            assertThat(test.failures()).as(test.name()).isEqualTo(broken ? 1 : 0);
            assertThat(test.reruns()).as(test.name() + ": rerun once, failing again").isEqualTo(broken ? 1 : 0);
        }
        String prefix = "[engine:junit-platform-suite]/[suite:" + suiteClass + "]/" + ENGINE + "/[suite:" + suite + "]";
        Map<String, Long> started = new LinkedHashMap<>();
        counts(launched(project.resolve("target/surefire-launched.txt"))).forEach((id, n) -> {
            if (id.startsWith(prefix)) {
                started.put(id.substring(prefix.length()), n);
            }
        });
        assertThat(started).containsOnly(
                Map.entry("/[case:quiet-and-goodnight]/[mode:dual_agent]", 1L),
                Map.entry("/[case:quiet-and-goodnight]/[mode:chat_agent_tools]", 1L),
                Map.entry("/[case:quiet-and-goodnight]/[parity:modes]", 1L),
                Map.entry("/[case:wrong-delta]/[mode:dual_agent]", 2L),
                Map.entry("/[case:wrong-delta]/[mode:chat_agent_tools]", 2L),
                Map.entry("/[case:wrong-delta]/[parity:modes]", 1L));
    }

    @Test
    @DisplayName("@Suite variants in one Surefire run each discover their tests: the docs' @SelectClasspathResource "
            + "class, two @SelectPackages classes over the suites jar, @SelectFile; names carry the suite")
    void suiteVariantsEachDiscoverTheirTests() throws IOException {
        SuiteXml own = suiteXml("com.example.own.ConformanceTest");
        assertThat(own.tests()).isEqualTo(9);
        assertThat(own.failures() + own.errors()).isZero();
        // two suites with a case called quiet-and-goodnight, still nine distinct testcase names
        assertThat(own.cases()).extracting(TestCase::name).doesNotHaveDuplicates()
                .contains("my-twice/quiet-and-goodnight [dual_agent]", "my-evening/quiet-and-goodnight [dual_agent]");
        for (String suite : List.of("Session", "Fallback")) {
            SuiteXml packaged = suiteXml("com.example." + suite + "SuitesTest");
            assertThat(packaged.tests()).as(suite + ": a second @SelectPackages class still finds the jar's suites")
                    .isPositive();
            assertThat(packaged.failures() + packaged.errors()).as(suite).isZero();
        }
        assertThat(suiteXml("com.example.SessionSuitesTest").cases()).extracting(TestCase::name)
                .allMatch(name -> name.startsWith("session/"));
        assertThat(suiteXml("com.example.FallbackSuitesTest").cases()).extracting(TestCase::name)
                .allMatch(name -> name.startsWith("fallback-bound/"));
        assertThat(suiteXml("com.example.RerunTest").tests()).isEqualTo(6);
        assertThat(suiteXml("com.example.RerunLostTest").cases()).extracting(TestCase::name)
                .contains("lost/quiet-and-goodnight [dual_agent]");
    }

    @Test
    @DisplayName("a Jupiter class and the suites (from the jar and from folders) run in the same Surefire JVM, "
            + "each with its own count")
    void jupiterAndSuitesInOneJvm() throws IOException {
        // Surefire hands every engine the class selectors; the conformance engine at the root adds and fails nothing
        // (an engine failure there is reported apart, as TEST-Agent Lab conformance.xml)
        try (var reports = Files.list(project.resolve("target/surefire-reports"))) {
            assertThat(reports.map(file -> file.getFileName().toString()).filter(name -> name.endsWith(".xml")))
                    .containsExactlyInAnyOrder("TEST-com.example.JupiterTest.xml",
                            "TEST-com.example.EngineTestKitTest.xml", "TEST-com.example.own.ConformanceTest.xml",
                            "TEST-com.example.SessionSuitesTest.xml", "TEST-com.example.FallbackSuitesTest.xml",
                            "TEST-com.example.RerunTest.xml", "TEST-com.example.RerunLostTest.xml");
        }
        SuiteXml jupiter = suiteXml("com.example.JupiterTest");
        assertThat(jupiter.tests()).isEqualTo(2);
        assertThat(jupiter.failures() + jupiter.errors() + jupiter.skipped()).isZero();
        List<String[]> launched = launched(project.resolve("target/surefire-launched.txt"));
        assertThat(launched).extracting(line -> line[0]).as("one JVM").containsOnly(launched.get(0)[0]);
        assertThat(launched).extracting(line -> line[1])
                .anyMatch(id -> id.startsWith("[engine:junit-jupiter]/[class:com.example.JupiterTest]"))
                .anyMatch(id -> id.startsWith("[engine:junit-platform-suite]/[suite:com.example.SessionSuitesTest]/"
                        + ENGINE + "/[suite:session]/"))
                .anyMatch(id -> id.contains("/[suite:com.example.own.ConformanceTest]/" + ENGINE + "/[suite:my-twice]"));
        assertThat(project.resolve("target/test-classes/agentlab")).as("the shipped suites are only in the jar")
                .doesNotExist();
    }

    @Test
    @DisplayName("EngineTestKit with its defaults: green, and no report file written anywhere")
    void engineTestKitWithDefaults() throws IOException {
        // the checks are the project's own test (EngineTestKitTest): its second test shows a report directory is seen
        SuiteXml kit = suiteXml("com.example.EngineTestKitTest");
        assertThat(kit.tests()).isEqualTo(2);
        assertThat(kit.failures() + kit.errors() + kit.skipped()).as(kit.cases().toString()).isZero();
    }

    // ---- JUnit Console Launcher 6.1.3 ---------------------------------------------------------------------------

    @Test
    @DisplayName("Console Launcher --scan-classpath: Jupiter's tests and every suite on the test classpath")
    void consoleScansTheClasspath() throws IOException {
        Launch scan = console("scan", "--scan-classpath", "--exclude-engine=junit-platform-suite");
        assertThat(scan.exitCode()).as(scan.output()).isZero();
        assertThat(scan.engineXml().tests()).isEqualTo(12);
        assertThat(scan.engineXml().failures() + scan.engineXml().errors()).isZero();
        assertThat(scan.xml("junit-jupiter").tests()).isEqualTo(4);
        assertThat(scan.launched()).hasSize(16).doesNotHaveDuplicates()
                .anyMatch(id -> id.startsWith(ENGINE + "/[suite:my-bedtime]/"))
                .anyMatch(id -> id.startsWith(ENGINE + "/[suite:my-evening]/"))
                .noneMatch(id -> id.contains("[suite:rerun]"));
    }

    @Test
    @DisplayName("Console Launcher --include-tag: a suite tag selects that suite; a tag only Jupiter has runs no case "
            + "and passes; --fail-if-no-tests turns a launch that runs nothing red")
    void consoleSelectsByTag() {
        Launch evening = console("tag-evening", "--scan-classpath", "--exclude-engine=junit-platform-suite",
                "--include-tag=evening");
        assertThat(evening.exitCode()).as(evening.output()).isZero();
        assertThat(evening.launched()).containsExactlyInAnyOrder(ids("my-evening", "quiet-and-goodnight"));

        Launch fast = console("tag-fast", "--scan-classpath", "--exclude-engine=junit-platform-suite",
                "--include-tag=fast");
        assertThat(fast.exitCode()).as("the engine container must not fail: " + fast.output()).isZero();
        assertThat(fast.launched()).containsExactly("[engine:junit-jupiter]/[class:com.example.JupiterTest]/"
                + "[method:fast()]");

        Launch nothing = console("tag-none", "--scan-classpath", "--exclude-engine=junit-platform-suite",
                "--include-tag=no-such-tag", "--fail-if-no-tests");
        assertThat(nothing.exitCode()).as(nothing.output()).isEqualTo(2);
        assertThat(nothing.launched()).isEmpty();
    }

    @Test
    @DisplayName("Console Launcher --select-file: the suite; with ?line=N the case written at that line")
    void consoleSelectsByFileAndLine() throws IOException {
        Launch file = console("file", "--select-file=src/test/resources/my-suites/my-bedtime.suite.yaml");
        assertThat(file.exitCode()).as(file.output()).isZero();
        assertThat(file.launched()).containsExactlyInAnyOrder(ids("my-bedtime", "quiet-and-goodnight"));

        String twice = "src/test/resources/suites/my-twice.suite.yaml";
        List<String> lines = Files.readAllLines(project.resolve(twice));
        int second = lines.indexOf("  - id: quiet-again") + 1;
        assertThat(second).as("the second case's line").isGreaterThan(1);
        Launch line = console("line", "--select-file=" + twice + "?line=" + (second + 2));
        assertThat(line.exitCode()).as(line.output()).isZero();
        assertThat(line.launched()).containsExactlyInAnyOrder(ids("my-twice", "quiet-again"));
        assertThat(line.engineXml().tests()).isEqualTo(3);
    }

    @Test
    @DisplayName("Console Launcher --select-unique-id: one mode of one case, and nothing else")
    void consoleSelectsByUniqueId() {
        String mode = ENGINE + "/[suite:my-twice]/[case:quiet-again]/[mode:dual_agent]";
        Launch one = console("unique-id", "--select-unique-id=" + mode);
        assertThat(one.exitCode()).as(one.output()).isZero();
        assertThat(one.launched()).containsExactly(mode);
        assertThat(one.engineXml().tests()).isEqualTo(1);
    }

    @Test
    @DisplayName("Console Launcher: a shipped suite run from the suites jar, then one of its cases rerun by unique id "
            + "runs exactly that case, skips every gate and leaves the full run's reports as they were")
    void consoleRerunsOneCaseOfTheJar() throws IOException {
        List<String> gates = List.of("--config=agentlab.gates.enabled=true", "--config=agentlab.gates.max-ttft-ratio=100",
                "--config=agentlab.report.directory=target/console-reports");
        Launch full = console("jar-full", concat(gates, "--select-resource=agentlab/suites/batch-semantics.suite.yaml"));
        assertThat(full.exitCode()).as(full.output()).isZero();
        List<TestCase> fullCases = full.engineXml().cases();
        // a whole suite: the gates judge it (the cost gates skip themselves, having no limit configured)
        assertThat(fullCases).filteredOn(TestCase::gate).filteredOn(test -> !test.skipped())
                .extracting(TestCase::name).contains("gate parity");
        assertThat(full.launched()).hasSizeGreaterThan(3);
        Path reports = project.resolve("target/console-reports");
        Map<String, byte[]> before = reportFiles(reports);
        assertThat(before).containsOnlyKeys("metrics.json", "report.md", "index.html");

        Launch rerun = console("jar-rerun", concat(gates,
                "--select-unique-id=" + ENGINE + "/[suite:batch-semantics]/[case:results-in-input-order]"));
        assertThat(rerun.exitCode()).as(rerun.output()).isZero();
        assertThat(rerun.launched()).containsExactlyInAnyOrder(ids("batch-semantics", "results-in-input-order"));
        List<TestCase> cases = rerun.engineXml().cases();
        assertThat(cases).filteredOn(TestCase::gate).as("every gate is there, and skipped").isNotEmpty()
                .allMatch(TestCase::skipped).hasSameSizeAs(fullCases.stream().filter(TestCase::gate).toList());
        assertThat(cases).filteredOn(test -> !test.gate()).hasSize(3).noneMatch(TestCase::skipped)
                .allMatch(test -> test.failures() == 0);
        Map<String, byte[]> after = reportFiles(reports);
        assertThat(after.keySet()).isEqualTo(before.keySet());
        before.forEach((name, bytes) -> assertThat(after.get(name)).as(name + " of the full run").isEqualTo(bytes));
        assertThat(Files.readString(reports.resolve("partial/metrics.json")))
                .containsPattern("\"partial\"\\s*:\\s*true").containsPattern("\"testsCovered\"\\s*:\\s*3\\b");
    }

    // ---- the fresh project ---------------------------------------------------------------------------------------

    private static Path project() throws IOException {
        String setup = read("docs/your-project.md");
        String gateOwners = read("docs/gate-owners.md");
        String engine = read("docs/engine.md");
        Path project = MavenBuild.freshFolder("agentlab-clients-");
        // the clients themselves: Jupiter, EngineTestKit, the Console Launcher (versions from the kit's BOM)
        String clients = """
                  <dependency>
                    <groupId>org.junit.jupiter</groupId>
                    <artifactId>junit-jupiter</artifactId>
                    <scope>test</scope>
                  </dependency>
                  <dependency>
                    <groupId>org.junit.platform</groupId>
                    <artifactId>junit-platform-testkit</artifactId>
                    <scope>test</scope>
                  </dependency>
                  <dependency>
                    <groupId>org.junit.platform</groupId>
                    <artifactId>junit-platform-console</artifactId>
                    <scope>test</scope>
                  </dependency>
                </dependencies>
                """;
        String dependencies = DocsAdoptionIT.snippet(gateOwners, "gate-owner").replace("</dependencies>\n", clients);
        // the gate owner's compiler and Surefire; the agentlab:verify goal is DocsAdoptionIT's client, not this one's
        String build = DocsAdoptionIT.snippet(gateOwners, "gate-owner-build")
                .replaceFirst("(?s)\\s*<plugin>\\s*<groupId>io\\.agentlab</groupId>.*?</plugin>", "");
        assertThat(build).contains("maven-surefire-plugin", "<failIfNoTests>true</failIfNoTests>")
                .doesNotContain("io.agentlab");
        write(project, "pom.xml", """
                <?xml version="1.0" encoding="UTF-8"?>
                <project xmlns="http://maven.apache.org/POM/4.0.0">
                  <modelVersion>4.0.0</modelVersion>
                  <groupId>com.example</groupId>
                  <artifactId>fresh-for-the-clients</artifactId>
                  <version>1.0-SNAPSHOT</version>
                """ + DocsAdoptionIT.snippet(setup, "properties") + DocsAdoptionIT.snippet(setup, "bom") + dependencies
                + build + "</project>\n");

        // suites: the gate owner's own suite as the docs give it, and suites made from it
        String suite = DocsAdoptionIT.snippet(gateOwners, "own-suite");
        int split = suite.indexOf("cases:\n") + "cases:\n".length();
        String header = suite.substring(0, split);
        String body = suite.substring(split);
        assertThat(header).contains("id: my-bedtime", "tags: [product]");
        assertThat(body).startsWith("  - id: quiet-and-goodnight\n");
        int expectation = body.lastIndexOf("delta: -10");
        assertThat(expectation).as("the case expects delta -10").isPositive();
        write(project, "src/test/resources/my-suites/my-bedtime.suite.yaml", suite);
        write(project, "src/test/resources/suites/my-twice.suite.yaml", header.replace("id: my-bedtime", "id: my-twice")
                + body + body.replace("id: quiet-and-goodnight", "id: quiet-again"));
        write(project, "src/test/resources/suites/my-evening.suite.yaml", header.replace("id: my-bedtime",
                "id: my-evening").replace("tags: [product]", "tags: [evening]") + body);
        // outside the classpath, so that no scan finds its failing case; a rerun finds it through the directory
        write(project, "src/test/rerun/rerun.suite.yaml", header.replace("id: my-bedtime", "id: rerun") + body
                + (body.substring(0, expectation) + "delta: -20" + body.substring(expectation + "delta: -10".length()))
                .replace("id: quiet-and-goodnight", "id: wrong-delta"));
        write(project, "src/test/lost/lost.suite.yaml", header.replace("id: my-bedtime", "id: lost") + body
                + (body.substring(0, expectation) + "delta: -20" + body.substring(expectation + "delta: -10".length()))
                .replace("id: quiet-and-goodnight", "id: wrong-delta"));
        write(project, "src/test/resources/junit-platform.properties", "agentlab.replay.speed=0\n");

        // the @Suite class of docs/engine.md, as it is
        write(project, "src/test/java/com/example/own/ConformanceTest.java", "package com.example.own;\n\n"
                + suiteImports("SelectClasspathResource") + DocsAdoptionIT.snippet(engine, "suite-class"));
        for (String tag : List.of("Session", "Fallback")) {
            write(project, "src/test/java/com/example/" + tag + "SuitesTest.java", "package com.example;\n\n"
                    + suiteImports("SelectPackages", "IncludeTags") + """
                    @Suite
                    @IncludeEngines("agentlab-conformance")
                    @SelectPackages("agentlab.suites")
                    @IncludeTags("%s")
                    class %sSuitesTest {
                    }
                    """.formatted(tag.toLowerCase(java.util.Locale.ROOT), tag));
        }
        write(project, "src/test/java/com/example/RerunTest.java", "package com.example;\n\n"
                + suiteImports("SelectFile") + """
                @Suite
                @IncludeEngines("agentlab-conformance")
                @SelectFile("src/test/rerun/rerun.suite.yaml")
                @ConfigurationParameter(key = "agentlab.suites.directories", value = "src/test/rerun")
                @ConfigurationParameter(key = "agentlab.report.directory", value = "target/rerun-reports")
                class RerunTest {
                }
                """);
        write(project, "src/test/java/com/example/RerunLostTest.java", "package com.example;\n\n"
                + suiteImports("SelectFile") + """
                @Suite
                @IncludeEngines("agentlab-conformance")
                @SelectFile("src/test/lost/lost.suite.yaml")
                @ConfigurationParameter(key = "agentlab.report.directory", value = "target/lost-reports")
                class RerunLostTest {
                }
                """);
        write(project, "src/test/java/com/example/JupiterTest.java", """
                package com.example;

                import static org.junit.jupiter.api.Assertions.assertEquals;

                import org.junit.jupiter.api.Tag;
                import org.junit.jupiter.api.Test;

                class JupiterTest {

                    @Test
                    @Tag("fast")
                    void fast() {
                        assertEquals(4, 2 + 2);
                    }

                    @Test
                    void plain() {
                        assertEquals("ab", "a" + "b");
                    }
                }
                """);
        write(project, "src/test/java/com/example/EngineTestKitTest.java", """
                package com.example;

                import static org.junit.jupiter.api.Assertions.assertEquals;
                import static org.junit.jupiter.api.Assertions.assertTrue;
                import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClasspathResource;

                import java.io.IOException;
                import java.nio.file.Files;
                import java.nio.file.Path;
                import java.util.List;
                import java.util.Map;
                import java.util.stream.Collectors;
                import java.util.stream.Stream;
                import org.junit.jupiter.api.Test;
                import org.junit.jupiter.api.io.TempDir;
                import org.junit.platform.testkit.engine.EngineExecutionResults;
                import org.junit.platform.testkit.engine.EngineTestKit;

                class EngineTestKitTest {

                    private static final List<String> REPORTS = List.of("metrics.json", "report.md", "index.html");

                    /** Every report file under the project, with when it was last written. */
                    private static Map<Path, String> reports() throws IOException {
                        try (Stream<Path> files = Files.walk(Path.of("").toAbsolutePath())) {
                            return files.filter(f -> REPORTS.contains(f.getFileName().toString()))
                                    .collect(Collectors.toMap(f -> f, f -> {
                                        try {
                                            return Files.getLastModifiedTime(f) + " " + Files.size(f);
                                        } catch (IOException e) {
                                            throw new java.io.UncheckedIOException(e);
                                        }
                                    }));
                        }
                    }

                    @Test
                    void defaults() throws IOException {
                        Map<Path, String> before = reports();
                        EngineExecutionResults results = EngineTestKit.engine("agentlab-conformance")
                                .selectors(selectClasspathResource("my-suites/my-bedtime.suite.yaml"))
                                .execute();
                        results.testEvents().assertStatistics(s -> s.started(3).succeeded(3).failed(0).aborted(0));
                        results.containerEvents().assertStatistics(s -> s.failed(0).aborted(0));
                        assertEquals(before, reports(), "no report file is written or rewritten");
                    }

                    @Test
                    void withReportDirectory(@TempDir Path directory) throws IOException {
                        EngineTestKit.engine("agentlab-conformance")
                                .selectors(selectClasspathResource("my-suites/my-bedtime.suite.yaml"))
                                .configurationParameter("agentlab.report.directory", directory.toString())
                                .execute()
                                .testEvents().assertStatistics(s -> s.succeeded(3).failed(0));
                        assertTrue(Files.isRegularFile(directory.resolve("metrics.json")));
                    }
                }
                """);
        write(project, "src/test/java/com/example/LaunchedTests.java", """
                package com.example;

                import java.io.IOException;
                import java.io.UncheckedIOException;
                import java.nio.charset.StandardCharsets;
                import java.nio.file.Files;
                import java.nio.file.Path;
                import java.nio.file.StandardOpenOption;
                import org.junit.platform.launcher.TestExecutionListener;
                import org.junit.platform.launcher.TestIdentifier;

                /** Appends "pid unique-id" of every test the launcher starts to the file -Dlaunched.tests names. */
                public class LaunchedTests implements TestExecutionListener {

                    @Override
                    public void executionStarted(TestIdentifier test) {
                        String log = System.getProperty("launched.tests");
                        if (log == null || !test.isTest()) {
                            return;
                        }
                        String line = ProcessHandle.current().pid() + " " + test.getUniqueId() + "\\n";
                        synchronized (LaunchedTests.class) {
                            try {
                                Files.writeString(Path.of(log), line, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                                        StandardOpenOption.APPEND);
                            } catch (IOException e) {
                                throw new UncheckedIOException(e);
                            }
                        }
                    }
                }
                """);
        write(project, "src/test/resources/META-INF/services/org.junit.platform.launcher.TestExecutionListener",
                "com.example.LaunchedTests\n");
        return project;
    }

    private static String suiteImports(String... more) {
        List<String> names = new ArrayList<>(List.of("ConfigurationParameter", "IncludeEngines", "Suite"));
        names.addAll(List.of(more));
        return names.stream().sorted().map(name -> "import org.junit.platform.suite.api." + name + ";\n")
                .collect(Collectors.joining()) + "\n";
    }

    private static String read(String page) throws IOException {
        return Files.readString(MavenBuild.ROOT.resolve(page), StandardCharsets.UTF_8);
    }

    private static void write(Path project, String file, String text) throws IOException {
        Path path = project.resolve(file);
        Files.createDirectories(path.getParent());
        Files.writeString(path, text, StandardCharsets.UTF_8);
    }

    private static String[] concat(List<String> first, String... more) {
        List<String> all = new ArrayList<>(first);
        all.addAll(List.of(more));
        return all.toArray(String[]::new);
    }

    // ---- what the clients wrote ---------------------------------------------------------------------------------

    /** The unique ids of one case's three tests. */
    private static String[] ids(String suite, String testCase) {
        String prefix = ENGINE + "/[suite:" + suite + "]/[case:" + testCase + "]/";
        return new String[] {prefix + "[mode:dual_agent]", prefix + "[mode:chat_agent_tools]", prefix + "[parity:modes]"};
    }

    /**
     * One launch of the Console Launcher in the project, the JVM's class path being the test classes and the test
     * dependencies, as a user runs junit-platform-console.
     *
     * @param exitCode the Launcher's exit code
     * @param output   what it printed
     * @param reports  its {@code --reports-dir}
     * @param launched the unique ids of the tests it started, in order
     */
    private record Launch(int exitCode, String output, Path reports, List<String> launched) {

        SuiteXml xml(String engine) {
            try {
                return SuiteXml.read(reports.resolve("TEST-" + engine + ".xml"));
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }

        SuiteXml engineXml() {
            return xml("agentlab-conformance");
        }
    }

    private static Launch console(String name, String... arguments) {
        Path reports = project.resolve("target/console/" + name);
        Path log = project.resolve("target/console/" + name + "-launched.txt");
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Dlaunched.tests=" + log, "-cp", classpath, "org.junit.platform.console.ConsoleLauncher", "execute",
                "--disable-banner", "--disable-ansi-colors", "--details=summary", "--reports-dir=" + reports));
        command.addAll(List.of(arguments));
        MavenBuild.Result result = MavenBuild.exec(project, "console-" + name + "-", command);
        try {
            List<String> launched = Files.exists(log) ? launched(log).stream().map(line -> line[1]).toList() : List.of();
            return new Launch(result.exitCode(), result.log(), reports, launched);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** The lines {@code LaunchedTests} wrote: {pid, unique id}. */
    private static List<String[]> launched(Path log) throws IOException {
        return Files.readAllLines(log).stream().filter(line -> !line.isBlank()).map(line -> line.split(" ", 2)).toList();
    }

    private static Map<String, Long> counts(List<String[]> launched) {
        return launched.stream().collect(Collectors.groupingBy(line -> line[1], LinkedHashMap::new,
                Collectors.counting()));
    }

    private static Map<String, byte[]> reportFiles(Path directory) throws IOException {
        Map<String, byte[]> files = new LinkedHashMap<>();
        try (var list = Files.list(directory)) {
            for (Path file : list.filter(Files::isRegularFile).sorted().toList()) {
                files.put(file.getFileName().toString(), Files.readAllBytes(file));
            }
        }
        return files;
    }

    private static Path surefireXml(String testClass) {
        return project.resolve("target/surefire-reports/TEST-" + testClass + ".xml");
    }

    private static SuiteXml suiteXml(String testClass) throws IOException {
        return SuiteXml.read(surefireXml(testClass));
    }

    /**
     * A {@code <testcase>} of a JUnit XML report.
     *
     * @param name      its name
     * @param classname its class name ({@code gates} for the engine's gates in the Launcher's report)
     * @param failures  its {@code <failure>} and {@code <error>} elements
     * @param reruns    its {@code <rerunFailure>} and {@code <rerunError>} elements (Surefire's reruns that failed)
     * @param skipped   whether it was skipped
     */
    private record TestCase(String name, String classname, int failures, int reruns, boolean skipped) {

        boolean gate() {
            return "gates".equals(classname);
        }
    }

    /**
     * A {@code <testsuite>} of a JUnit XML report: its counts and its test cases.
     *
     * @param tests    its {@code tests} attribute
     * @param failures its {@code failures} attribute
     * @param errors   its {@code errors} attribute
     * @param skipped  its {@code skipped} attribute
     * @param cases    its test cases
     */
    private record SuiteXml(int tests, int failures, int errors, int skipped, List<TestCase> cases) {

        static SuiteXml read(Path file) throws IOException {
            assertThat(file).exists();
            try {
                Element suite = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(file.toFile())
                        .getDocumentElement();
                if (!"testsuite".equals(suite.getTagName())) { // the Launcher's: <testsuites><testsuite>
                    suite = (Element) suite.getElementsByTagName("testsuite").item(0);
                }
                List<TestCase> cases = new ArrayList<>();
                NodeList nodes = suite.getElementsByTagName("testcase");
                for (int i = 0; i < nodes.getLength(); i++) {
                    Element test = (Element) nodes.item(i);
                    cases.add(new TestCase(test.getAttribute("name"), test.getAttribute("classname"),
                            count(test, "failure") + count(test, "error"),
                            count(test, "rerunFailure") + count(test, "rerunError"), count(test, "skipped") > 0));
                }
                return new SuiteXml(number(suite, "tests"), number(suite, "failures"), number(suite, "errors"),
                        number(suite, "skipped"), cases);
            } catch (javax.xml.parsers.ParserConfigurationException | org.xml.sax.SAXException e) {
                throw new IOException(file + ": " + e, e);
            }
        }

        private static int count(Element test, String tag) {
            return test.getElementsByTagName(tag).getLength();
        }

        private static int number(Element suite, String attribute) {
            String value = suite.getAttribute(attribute);
            return value.isEmpty() ? 0 : Integer.parseInt(value);
        }
    }

    private static List<TestCase> testcases(Path xml) throws IOException {
        return SuiteXml.read(xml).cases();
    }
}
