package io.agentlab.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClasspathResource;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClasspathRoots;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectDirectory;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectFile;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectUniqueId;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectUri;

import io.agentlab.engine.jarfixture.InJarProbe;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.jar.JarEntry;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Collectors;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.DiscoveryIssue;
import org.junit.platform.engine.DiscoverySelector;
import org.junit.platform.engine.discovery.FilePosition;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.testkit.engine.EngineDiscoveryResults;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;

/**
 * Selection the way IDEs, Surefire and the Console Launcher select (docs/engine.md#selecting-suites, issue 29):
 * unique ids of suites wherever they live (directory, classpath folder, jar) and of gates, lines of a file or
 * resource, {@code file:} and {@code classpath:} URIs; a selector that names nothing is a warning for that selector
 * alone; only suites are claimed; one suite reached twice is one suite; scanning a jar leaves it scannable by Jupiter.
 */
class SelectionTest {

    private static final String ENGINE = "[engine:agentlab-conformance]";

    @TempDir
    Path temp;

    private EngineTestKit.Builder kit(DiscoverySelector... selectors) {
        return EngineTestKit.engine(ConformanceTestEngine.ENGINE_ID).selectors(selectors)
                .configurationParameter(Constants.REPLAY_SPEED, "0")
                .configurationParameter(Constants.CONTROL_RUNS, "false")
                .outputDirectoryCreator(new TempOutputDirectories(temp.resolve("out")));
    }

    private static Path sample(String name) {
        try {
            return Path.of(SelectionTest.class.getResource("/sample-suites/" + name).toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Unique ids of the tests that ran. */
    private static List<String> ran(EngineExecutionResults results) {
        return results.testEvents().finished().stream()
                .map(event -> event.getTestDescriptor().getUniqueId().toString()).toList();
    }

    private static List<DiscoveryIssue> issues(EngineDiscoveryResults results, DiscoveryIssue.Severity severity) {
        return results.getDiscoveryIssues().stream().filter(issue -> issue.severity() == severity).toList();
    }

    /**
     * A jar like the shipped {@code agentlab-conformance-suites}: {@code jarsuites/jar-volume.suite.yaml} (named after
     * its id), {@code jarsuites/misnamed.suite.yaml} (id {@code jar-search}) and a Jupiter test class.
     */
    private Path jar() throws IOException {
        Path jar = temp.resolve("suites.jar");
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar), manifest)) {
            // directory entries, as Maven's jar plugin writes them
            for (String folder : List.of("jarsuites/", "io/", "io/agentlab/", "io/agentlab/engine/",
                    "io/agentlab/engine/jarfixture/")) {
                out.putNextEntry(new JarEntry(folder));
                out.closeEntry();
            }
            entry(out, "jarsuites/jar-volume.suite.yaml", Files.readString(sample("volume.suite.yaml"))
                    .replace("id: volume", "id: jar-volume").getBytes(StandardCharsets.UTF_8));
            entry(out, "jarsuites/misnamed.suite.yaml", Files.readString(sample("search.suite.yaml"))
                    .replace("id: search", "id: jar-search").getBytes(StandardCharsets.UTF_8));
            try (InputStream probe = InJarProbe.class.getResourceAsStream("InJarProbe.class")) {
                entry(out, "io/agentlab/engine/jarfixture/InJarProbe.class", probe.readAllBytes());
            }
        }
        return jar;
    }

    private static void entry(JarOutputStream out, String name, byte[] bytes) throws IOException {
        out.putNextEntry(new JarEntry(name));
        out.write(bytes);
        out.closeEntry();
    }

    /** Runs {@code body} with {@code jar} on the context class loader, as a test classpath would have it. */
    private static <T> T withJar(Path jar, Callable<T> body) throws Exception {
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        try (URLClassLoader loader = new URLClassLoader(new URL[] {jar.toUri().toURL()}, previous)) {
            thread.setContextClassLoader(loader);
            return body.call();
        } finally {
            thread.setContextClassLoader(previous);
        }
    }

    @Test
    @DisplayName("a unique id of one mode of a case inside a jar runs exactly that test")
    void uniqueIdInJar() throws Exception {
        Path jar = jar();
        String id = ENGINE + "/[suite:jar-volume]/[case:set-to-thirty]/[mode:dual_agent]";
        EngineExecutionResults results = withJar(jar, () -> kit(selectUniqueId(id)).execute());
        assertThat(ran(results)).containsExactly(id);
        results.testEvents().assertStatistics(stats -> stats.started(1).succeeded(1));
        // a suite whose file is not named after its id is found too (every candidate's head is read)
        String other = ENGINE + "/[suite:jar-search]/[case:weather-follow-up]/[parity:modes]";
        EngineExecutionResults search = withJar(jar, () -> kit(selectUniqueId(other)).execute());
        assertThat(ran(search)).containsExactly(
                ENGINE + "/[suite:jar-search]/[case:weather-follow-up]/[mode:dual_agent]",
                ENGINE + "/[suite:jar-search]/[case:weather-follow-up]/[mode:chat_agent_tools]", other);
    }

    @Test
    @DisplayName("a unique id that names no suite is a warning for that selector; the other reruns still run")
    void unknownUniqueIdLosesNothing() {
        String known = ENGINE + "/[suite:volume]/[case:set-to-thirty]/[mode:chat_agent_tools]";
        EngineTestKit.Builder kit = kit(selectUniqueId(ENGINE + "/[suite:no-such-suite]/[case:x]"),
                selectUniqueId(ENGINE + "/[suite:volume]/[case:no-such-case]"), selectUniqueId(known));
        EngineDiscoveryResults discovery = kit.discover();
        assertThat(issues(discovery, DiscoveryIssue.Severity.ERROR)).isEmpty();
        assertThat(issues(discovery, DiscoveryIssue.Severity.WARNING)).extracting(DiscoveryIssue::message)
                .containsExactly("cannot select " + ENGINE + "/[suite:no-such-suite]/[case:x]: no suite with id "
                                + "'no-such-suite' was found in the selected files, the configured "
                                + "agentlab.suites.directories or anywhere on the classpath (directories and jars); a "
                                + "suite file outside them is found again by id (a rerun by an IDE or Surefire) only "
                                + "when its folder is in agentlab.suites.directories (docs/engine.md#clients)",
                        "cannot select " + ENGINE + "/[suite:volume]/[case:no-such-case]: suite 'volume' has no case "
                                + "with id 'no-such-case'");
        assertThat(ran(kit.execute())).containsExactly(known);
    }

    @Test
    @DisplayName("a gate is selected by its unique id and judges the cases selected with it, after them")
    void gateByUniqueId() {
        String testCase = ENGINE + "/[suite:volume]/[case:set-to-thirty]";
        String gate = ENGINE + "/[gates:run]/[gate:parity]";
        EngineExecutionResults results = kit(selectUniqueId(gate), selectUniqueId(testCase))
                .configurationParameter(Constants.GATES_ENABLED, "true").execute();
        assertThat(ran(results)).containsExactly(testCase + "/[mode:dual_agent]",
                testCase + "/[mode:chat_agent_tools]", testCase + "/[parity:modes]", gate);
        results.testEvents().assertStatistics(stats -> stats.failed(0));
        EngineDiscoveryResults all = kit(selectUniqueId(ENGINE + "/[gates:run]"), selectUniqueId(testCase))
                .configurationParameter(Constants.GATES_ENABLED, "true").discover();
        assertThat(all.getEngineDescriptor().getChildren()).last().satisfies(gates -> assertThat(gates.getChildren())
                .extracting(child -> child.getUniqueId().getLastSegment().getValue()).contains("parity",
                        "min-precision-dual_agent"));
        EngineDiscoveryResults off = kit(selectUniqueId(gate)).discover();
        assertThat(issues(off, DiscoveryIssue.Severity.WARNING)).extracting(DiscoveryIssue::message)
                .containsExactly("cannot select " + gate + ": gates are off; set agentlab.gates.enabled=true to run them");
        EngineDiscoveryResults unknown = kit(selectUniqueId(ENGINE + "/[gates:run]/[gate:speed]"))
                .configurationParameter(Constants.GATES_ENABLED, "true").discover();
        assertThat(issues(unknown, DiscoveryIssue.Severity.WARNING)).singleElement()
                .satisfies(issue -> assertThat(issue.message()).contains("no gate 'speed' is configured; the gates are "
                        + "[parity, "));
    }

    @Test
    @DisplayName("a line of a file or resource selects the case written there; a header line the whole suite")
    void lineSelection() {
        Path volume = sample("volume.suite.yaml");
        String thirty = ENGINE + "/[suite:volume]/[case:set-to-thirty]";
        // line 39 is "  - id: set-to-thirty", 42 inside it, 54 the blank line before the next case
        for (int line : new int[] {39, 42, 54}) {
            assertThat(cases(kit(selectFile(volume.toString(), FilePosition.from(line))).discover()))
                    .as("line %d", line).containsExactly(thirty);
        }
        assertThat(cases(kit(selectClasspathResource("sample-suites/volume.suite.yaml", FilePosition.from(55)))
                .discover())).containsExactly(ENGINE + "/[suite:volume]/[case:quieter-then-goodbye]");
        assertThat(cases(kit(selectFile(volume.toString(), FilePosition.from(3))).discover())).hasSize(3);
        EngineDiscoveryResults past = kit(selectFile(volume.toString(), FilePosition.from(500))).discover();
        assertThat(past.getEngineDescriptor().getChildren()).isEmpty();
        assertThat(issues(past, DiscoveryIssue.Severity.WARNING)).extracting(DiscoveryIssue::message)
                .containsExactly("cannot select line 500 of " + volume + ": it has 79 lines");
        assertThat(ran(kit(selectFile(volume.toString(), FilePosition.from(42))).execute()))
                .containsExactly(thirty + "/[mode:dual_agent]", thirty + "/[mode:chat_agent_tools]",
                        thirty + "/[parity:modes]");
    }

    /** {@code @SelectClasspathResource} with a line, as a user writes it under {@code @Suite}. */
    @org.junit.platform.suite.api.Suite
    @org.junit.platform.suite.api.IncludeEngines(ConformanceTestEngine.ENGINE_ID)
    @org.junit.platform.suite.api.SelectClasspathResource(value = "sample-suites/volume.suite.yaml", line = 42)
    @org.junit.platform.suite.api.ConfigurationParameter(key = Constants.CONTROL_RUNS, value = "false")
    static class LineSuite {
    }

    @Test
    @DisplayName("@SelectClasspathResource(line = N) under @Suite runs the case at that line")
    void lineUnderSuite() {
        EngineExecutionResults results = EngineTestKit.engine("junit-platform-suite")
                .selectors(org.junit.platform.engine.discovery.DiscoverySelectors.selectClass(LineSuite.class))
                .configurationParameter(Constants.REPLAY_SPEED, "0")
                .outputDirectoryCreator(new TempOutputDirectories(temp.resolve("suite"))).execute();
        assertThat(ran(results)).allSatisfy(id -> assertThat(id).contains("/[engine:agentlab-conformance]"
                + "/[suite:volume]/[case:set-to-thirty]/")).hasSize(3);
    }

    @Test
    @DisplayName("a rerun by unique id under a @Suite class (Surefire's rerunFailingTestsCount, an IDE) runs that test")
    void rerunUnderSuiteClass() {
        String mode = "[engine:junit-platform-suite]/[suite:" + SampleSuitesTest.class.getName() + "]/" + ENGINE
                + "/[suite:volume]/[case:set-to-thirty]/[mode:dual_agent]";
        EngineExecutionResults results = EngineTestKit.engine("junit-platform-suite")
                .selectors(selectUniqueId(mode), selectUniqueId(mode.replace("set-to-thirty", "no-such-case")))
                .configurationParameter(Constants.REPLAY_SPEED, "0")
                .configurationParameter(Constants.CONTROL_RUNS, "false")
                .outputDirectoryCreator(new TempOutputDirectories(temp.resolve("rerun"))).execute();
        assertThat(ran(results)).containsExactly(mode);
        results.testEvents().assertStatistics(stats -> stats.succeeded(1).failed(0));
    }

    private static List<String> cases(EngineDiscoveryResults results) {
        return results.getEngineDescriptor().getDescendants().stream().filter(CaseDescriptor.class::isInstance)
                .map(descriptor -> descriptor.getUniqueId().toString()).toList();
    }

    @Test
    @DisplayName("file: and classpath: URIs are resolved, with ?line=N")
    void uris() {
        Path volume = sample("volume.suite.yaml");
        assertThat(cases(kit(selectUri(volume.toUri())).discover())).hasSize(3);
        assertThat(cases(kit(selectUri(volume.toUri() + "?line=42")).discover()))
                .containsExactly(ENGINE + "/[suite:volume]/[case:set-to-thirty]");
        assertThat(cases(kit(selectUri(volume.getParent().toUri())).discover())).hasSize(3 + 1 + 5);
        assertThat(cases(kit(selectUri("classpath:/sample-suites/volume.suite.yaml?line=12")).discover()))
                .containsExactly(ENGINE + "/[suite:volume]/[case:louder-a-bit]");
        assertThat(cases(kit(selectUri("classpath:sample-suites")).discover())).hasSize(3 + 1 + 5);
    }

    @Test
    @DisplayName("a missing or empty selected folder or resource is a warning naming it, never silence")
    void missingAndEmpty() throws IOException {
        Path empty = Files.createDirectories(temp.resolve("empty"));
        Files.writeString(empty.resolve("notes.txt"), "no suite here");
        Path missing = temp.resolve("missing");
        EngineDiscoveryResults results = kit(selectDirectory(missing.toString()), selectDirectory(empty.toFile()),
                selectFile(temp.resolve("gone.suite.yaml").toString()), selectClasspathResource("no-such-folder"),
                selectClasspathResource("META-INF/services"), selectClasspathResource("typo/volume.suite.yaml"),
                selectClasspathResource("sample-suites")).discover();
        assertThat(issues(results, DiscoveryIssue.Severity.WARNING)).extracting(DiscoveryIssue::message)
                .containsExactly("the selected directory " + missing + " does not exist",
                        "the selected directory " + empty + " holds no suite (*.suite.yaml or *.suite.yml)",
                        "the selected file " + temp.resolve("gone.suite.yaml") + " does not exist",
                        "no classpath folder or resource 'no-such-folder' exists",
                        "the selected classpath folder 'META-INF/services' holds no suite (*.suite.yaml or *.suite.yml)",
                        "the selected classpath resource typo/volume.suite.yaml does not exist");
        assertThat(issues(results, DiscoveryIssue.Severity.ERROR)).isEmpty();
        assertThat(cases(results)).hasSize(3 + 1 + 5);
    }

    @Test
    @DisplayName("only suites are claimed: an application.yml selected by name is left alone, a *.yaml suite is read")
    void onlySuitesClaimed() throws IOException {
        Path application = Files.writeString(temp.resolve("application.yml"), """
                server:
                  port: 8080
                spring:
                  application: {name: demo}
                """);
        Path noCases = Files.writeString(temp.resolve("config.yaml"), "id: not-a-suite\nname: x\n");
        EngineDiscoveryResults results = kit(selectFile(application.toFile()), selectFile(noCases.toFile()),
                selectFile(Path.of("src/test/resources/report-suites/report-fixture.yaml").toFile())).discover();
        assertThat(issues(results, DiscoveryIssue.Severity.ERROR)).isEmpty();
        assertThat(issues(results, DiscoveryIssue.Severity.INFO)).extracting(DiscoveryIssue::message).containsExactly(
                application + " is not taken for a suite: it is not named *.suite.yaml or *.suite.yml and its top "
                        + "level has no 'id' and 'cases' keys",
                noCases + " is not taken for a suite: it is not named *.suite.yaml or *.suite.yml and its top "
                        + "level has no 'id' and 'cases' keys");
        assertThat(results.getEngineDescriptor().getChildren()).extracting(child -> child.getUniqueId().toString())
                .containsExactly(ENGINE + "/[suite:report]");
    }

    @Test
    @DisplayName("one suite reached as a file, as a classpath resource and by its id is one suite, not a duplicate")
    void sameSuiteTwice() {
        Path volume = sample("volume.suite.yaml");
        EngineDiscoveryResults results = kit(selectFile(volume.toFile()),
                selectFile(volume.getParent().resolve("../sample-suites/./volume.suite.yaml").toFile()),
                selectClasspathResource("sample-suites/volume.suite.yaml"), selectClasspathResource("sample-suites"),
                selectUniqueId(ENGINE + "/[suite:volume]")).discover();
        assertThat(results.getDiscoveryIssues()).isEmpty();
        assertThat(results.getEngineDescriptor().getChildren()).extracting(child -> child.getUniqueId().toString())
                .containsExactlyInAnyOrder(ENGINE + "/[suite:volume]", ENGINE + "/[suite:batch]",
                        ENGINE + "/[suite:search]");
    }

    @Test
    @DisplayName("after the engine scanned a jar, Jupiter still discovers the tests in that jar (no leaked FileSystem)")
    void jarStaysScannable() throws Exception {
        Path jar = jar();
        Set<String> jupiter = withJar(jar, () -> {
            EngineDiscoveryResults ours = kit(selectClasspathResource("jarsuites")).discover();
            assertThat(ours.getEngineDescriptor().getChildren()).hasSize(2);
            LauncherDiscoveryRequest request = LauncherDiscoveryRequestBuilder.request()
                    .selectors(selectClasspathRoots(Set.of(jar)))
                    .filters(org.junit.platform.launcher.EngineFilter.includeEngines("junit-jupiter"))
                    .build();
            TestPlan plan = LauncherFactory.create().discover(request);
            return plan.getRoots().stream().flatMap(root -> plan.getDescendants(root).stream())
                    .filter(TestIdentifier::isTest).map(TestIdentifier::getDisplayName).collect(Collectors.toSet());
        });
        assertThat(jupiter).containsExactly("found()");
    }
}
