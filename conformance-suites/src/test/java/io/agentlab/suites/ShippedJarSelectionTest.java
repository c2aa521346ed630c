package io.agentlab.suites;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClasspathResource;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectUniqueId;

import io.agentlab.engine.ConformanceTestEngine;
import io.agentlab.engine.Constants;
import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.DiscoveryIssue;
import org.junit.platform.engine.DiscoverySelector;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.UniqueId;
import org.junit.platform.launcher.EngineFilter;
import org.junit.platform.launcher.LauncherConstants;
import org.junit.platform.launcher.LauncherDiscoveryListener;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/**
 * The rerun every IDE and Surefire does, against the shipped suites as users have them: inside the
 * {@code agentlab-conformance-suites} jar (issue 29). The jar is packed here from this module's own classes, and the
 * class path's copy of the suites is hidden, so the suite can only be found in the jar.
 */
class ShippedJarSelectionTest {

    private static final String SUITES = "agentlab/suites/";
    private static final String MODE = "[engine:agentlab-conformance]/[suite:batch-semantics]"
            + "/[case:results-in-input-order]/[mode:dual_agent]";

    @TempDir
    Path temp;

    /** The suites folder of this module's classes, packed as Maven packs it (manifest, directory entries). */
    private Path jar() throws IOException {
        Path classes = Path.of("target/classes");
        Path jar = temp.resolve("agentlab-conformance-suites.jar");
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar), manifest);
             Stream<Path> files = Files.walk(classes.resolve(SUITES))) {
            out.putNextEntry(new JarEntry("agentlab/"));
            out.putNextEntry(new JarEntry(SUITES));
            for (Path file : files.filter(Files::isRegularFile).sorted().toList()) {
                out.putNextEntry(new JarEntry(classes.relativize(file).toString().replace('\\', '/')));
                out.write(Files.readAllBytes(file));
                out.closeEntry();
            }
        }
        return jar;
    }

    /** Runs {@code body} with the jar on the context class loader and the directory copy of the suites hidden. */
    private static <T> T withJar(Path jar, Callable<T> body) throws Exception {
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        ClassLoader hiding = new ClassLoader(previous) {
            @Override
            public URL getResource(String name) {
                return name.startsWith(SUITES) ? null : super.getResource(name);
            }

            @Override
            public Enumeration<URL> getResources(String name) throws IOException {
                return name.startsWith(SUITES) ? Collections.emptyEnumeration() : super.getResources(name);
            }
        };
        try (URLClassLoader loader = new URLClassLoader(new URL[] {jar.toUri().toURL()}, hiding)) {
            thread.setContextClassLoader(loader);
            return body.call();
        } finally {
            thread.setContextClassLoader(previous);
        }
    }

    private LauncherDiscoveryRequest request(List<DiscoveryIssue> issues, DiscoverySelector... selectors) {
        return LauncherDiscoveryRequestBuilder.request().selectors(selectors)
                .filters(EngineFilter.includeEngines(ConformanceTestEngine.ENGINE_ID))
                .configurationParameter(Constants.REPLAY_SPEED, "0")
                .configurationParameter(Constants.CONTROL_RUNS, "false")
                .configurationParameter(Constants.REPORT_DIRECTORY, temp.resolve("reports").toString())
                .configurationParameter(LauncherConstants.DISCOVERY_ISSUE_FAILURE_PHASE_PROPERTY_NAME, "execution")
                .listeners(new LauncherDiscoveryListener() {
                    @Override
                    public void issueEncountered(UniqueId engineId, DiscoveryIssue issue) {
                        issues.add(issue);
                    }
                })
                .build();
    }

    @Test
    @DisplayName("a unique id of one mode of a shipped case, inside the suites jar, runs exactly that test")
    void rerunOneModeFromTheJar() throws Exception {
        Path jar = jar();
        List<DiscoveryIssue> issues = new ArrayList<>();
        List<String> ran = new ArrayList<>();
        List<TestExecutionResult> results = new ArrayList<>();
        withJar(jar, () -> {
            LauncherFactory.create().execute(request(issues, selectUniqueId(MODE),
                    selectUniqueId("[engine:agentlab-conformance]/[suite:no-such-suite]")), new TestExecutionListener() {
                @Override
                public void executionFinished(TestIdentifier test, TestExecutionResult result) {
                    if (test.isTest()) {
                        ran.add(test.getUniqueId());
                        results.add(result);
                    }
                }
            });
            return null;
        });
        assertThat(ran).containsExactly(MODE);
        assertThat(results).allSatisfy(result -> assertThat(result.getStatus())
                .isEqualTo(TestExecutionResult.Status.SUCCESSFUL));
        assertThat(issues).extracting(DiscoveryIssue::severity).containsOnly(DiscoveryIssue.Severity.WARNING);
    }

    @Test
    @DisplayName("the Console Launcher's --select-unique-id reruns one mode of a case in the suites jar, and only it")
    void consoleLauncherRerun() throws Exception {
        Path jar = jar();
        java.io.StringWriter out = new java.io.StringWriter();
        java.io.StringWriter err = new java.io.StringWriter();
        int exit = withJar(jar, () -> org.junit.platform.console.ConsoleLauncher.run(new java.io.PrintWriter(out),
                new java.io.PrintWriter(err), "execute", "--disable-banner", "--disable-ansi-colors",
                "--details=flat", "--class-path=" + jar, "--include-engine=" + ConformanceTestEngine.ENGINE_ID,
                "--select-unique-id=" + MODE,
                "--select-unique-id=[engine:agentlab-conformance]/[suite:batch-semantics]/[case:no-such-case]",
                "--config=" + Constants.REPLAY_SPEED + "=0",
                "--config=" + Constants.CONTROL_RUNS + "=false",
                "--config=" + Constants.REPORT_DIRECTORY + "=" + temp.resolve("console"),
                "--config=junit.platform.reporting.output.dir=" + temp.resolve("console-output"))
                .getExitCode());
        assertThat(exit).as(out + "\n" + err).isZero();
        // the unknown case is a warning (logged, not printed to the writers): the known one still runs, alone
        assertThat(out.toString()).contains("1 tests found", "1 tests successful", "0 tests failed",
                "Finished:    results-in-input-order [dual_agent] (" + MODE + ")");
    }

    @Test
    @DisplayName("finding a suite of the jar by its unique id costs about what selecting its resource does")
    void lookupByIdIsCheap() throws Exception {
        Path jar = jar();
        String suite = "[engine:agentlab-conformance]/[suite:batch-semantics]";
        long[] byResource = new long[5];
        long[] byId = new long[5];
        withJar(jar, () -> {
            for (int i = 0; i < 5; i++) {
                byResource[i] = discover(selectClasspathResource(SUITES + "batch-semantics.suite.yaml"));
                byId[i] = discover(selectUniqueId(suite));
            }
            return null;
        });
        java.util.Arrays.sort(byResource);
        java.util.Arrays.sort(byId);
        // the figures docs/engine.md#selecting-suites quotes; no bound is asserted (a loaded machine varies)
        System.out.printf("discovery of batch-semantics from the jar, median of 5: by resource %d ms, by unique id %d ms%n",
                byResource[2] / 1_000_000, byId[2] / 1_000_000);
    }

    private long discover(DiscoverySelector selector) {
        List<DiscoveryIssue> issues = new ArrayList<>();
        long start = System.nanoTime();
        TestPlan plan = LauncherFactory.create().discover(request(issues, selector));
        long took = System.nanoTime() - start;
        assertThat(plan.countTestIdentifiers(TestIdentifier::isTest)).isGreaterThan(10);
        assertThat(issues).isEmpty();
        return took;
    }
}
