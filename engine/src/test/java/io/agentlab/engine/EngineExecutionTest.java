package io.agentlab.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClasspathResource;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClasspathRoots;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectDirectory;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectFile;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectPackage;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectUniqueId;
import static org.junit.platform.testkit.engine.EventConditions.displayName;
import static org.junit.platform.testkit.engine.EventConditions.event;
import static org.junit.platform.testkit.engine.EventConditions.finishedWithFailure;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.message;

import io.agentlab.kernel.api.InvocationMode;
import io.agentlab.providers.recorded.Recording;
import io.agentlab.providers.recorded.TimedReplay;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.CancellationToken;
import org.junit.platform.engine.DiscoverySelector;
import org.junit.platform.engine.TestDescriptor;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.UniqueId;
import org.junit.platform.engine.reporting.ReportEntry;
import org.junit.platform.engine.support.descriptor.ClasspathResourceSource;
import org.junit.platform.engine.support.descriptor.FileSource;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherExecutionRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;
import org.junit.platform.testkit.engine.EventType;

/** The engine end to end through EngineTestKit and the Launcher: selectors, counts, failures, skips, reruns. */
class EngineExecutionTest {

    private static final UniqueId ENGINE = UniqueId.forEngine(ConformanceTestEngine.ENGINE_ID);
    /** Sample folder: 9 cases × (2 modes + parity). */
    private static final int SAMPLE_TESTS = 27;

    @TempDir
    Path temp;

    private EngineTestKit.Builder kit(DiscoverySelector... selectors) {
        return EngineTestKit.engine(ConformanceTestEngine.ENGINE_ID).selectors(selectors)
                .configurationParameter(Constants.REPLAY_SPEED, "0")
                .configurationParameter(Constants.CONTROL_RUNS, "false") // MetricsReportTest covers them
                .outputDirectoryCreator(new TempOutputDirectories(temp.resolve("out")));
    }

    private static Path testClasses() {
        try {
            return Path.of(EngineExecutionTest.class.getResource("/sample-suites").toURI()).getParent();
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    @DisplayName("classpath folder: every case in both modes plus parity, all passing, with readable names")
    void classpathFolder() {
        EngineExecutionResults results = kit(selectClasspathResource("sample-suites")).execute();
        results.testEvents().assertStatistics(stats -> stats.started(SAMPLE_TESTS).succeeded(SAMPLE_TESTS).failed(0));
        assertThat(results.testEvents().started().stream().map(e -> e.getTestDescriptor().getDisplayName()))
                .contains("louder-a-bit [dual_agent]", "louder-a-bit [chat_agent_tools]", "louder-a-bit [parity]");
        assertThat(results.containerEvents().started().stream().map(Event::getTestDescriptor)
                .filter(d -> d.getUniqueId().getLastSegment().getType().equals("suite")).map(TestDescriptor::getDisplayName))
                .containsExactlyInAnyOrder("Device volume", "Batch semantics", "Web search with a second answer");
    }

    @Test
    @DisplayName("a finished case lets its runs go: memory kept per case is its turn records, not its requests and "
            + "streams (docs/performance.md#memory-per-case)")
    void finishedCasesLetTheirRunsGo() {
        EngineExecutionResults results = kit(selectClasspathResource("sample-suites")).execute();
        List<CaseDescriptor> cases = results.containerEvents().finished().stream().map(Event::getTestDescriptor)
                .filter(CaseDescriptor.class::isInstance).map(CaseDescriptor.class::cast).toList();
        assertThat(cases).hasSize(SAMPLE_TESTS / 3);
        assertThat(cases).allSatisfy(node -> assertThat(InvocationMode.values())
                .allSatisfy(mode -> assertThat(node.run(mode)).as("%s %s", node.getDisplayName(), mode).isEmpty()));
        // the parity nodes saw both runs before they went: every parity test passed on what the modes did
        results.testEvents().assertStatistics(stats -> stats.succeeded(SAMPLE_TESTS).failed(0));
    }

    @Test
    @DisplayName("each selector kind: file, directory, classpath resource, package, classpath root")
    void selectorKinds() {
        Path volume = testClasses().resolve("sample-suites/volume.suite.yaml");
        assertThat(discoverTests(selectFile(volume.toFile()))).hasSize(9);
        assertThat(discoverTests(selectDirectory(volume.getParent().toFile()))).hasSize(SAMPLE_TESTS);
        assertThat(discoverTests(selectClasspathResource("sample-suites/batch.suite.yaml"))).hasSize(15);
        assertThat(discoverTests(selectPackage("io.agentlab.engine.samples"))).hasSize(3);
        assertThat(discoverTests(selectClasspathRoots(Set.of(testClasses())).toArray(DiscoverySelector[]::new)))
                .hasSize(SAMPLE_TESTS + 3);
    }

    @Test
    @DisplayName("sources: files carry FileSource, classpath resources ClasspathResourceSource, both with line:column")
    void sources() {
        Path volume = testClasses().resolve("sample-suites/volume.suite.yaml");
        TestDescriptor fromFile = kit(selectFile(volume.toFile())).discover().getEngineDescriptor()
                .getChildren().iterator().next().getChildren().iterator().next();
        assertThat(fromFile.getSource()).get().isInstanceOfSatisfying(FileSource.class, source -> {
            assertThat(source.getFile()).isEqualTo(volume.toFile());
            assertThat(source.getPosition().orElseThrow().getLine()).isEqualTo(12);
            assertThat(source.getPosition().orElseThrow().getColumn()).contains(5);
        });
        TestDescriptor suite = kit(selectClasspathResource("sample-suites/volume.suite.yaml")).discover()
                .getEngineDescriptor().getChildren().iterator().next();
        assertThat(suite.getSource()).get().isInstanceOfSatisfying(ClasspathResourceSource.class, source -> {
            assertThat(source.getClasspathResourceName()).isEqualTo("sample-suites/volume.suite.yaml");
            assertThat(source.getPosition().orElseThrow().getLine()).isEqualTo(2);
        });
        assertThat(suite.getTags()).extracting(Object::toString).contains("plugin", "volume");
        assertThat(suite.getChildren().iterator().next().getTags()).extracting(Object::toString).contains("smoke");
    }

    @Test
    @DisplayName("unique ids come from id fields: suite, case, mode and parity select exactly their nodes")
    void uniqueIds() {
        UniqueId suite = ENGINE.append("suite", "volume");
        UniqueId testCase = suite.append("case", "set-to-thirty");
        assertThat(discoverTests(selectUniqueId(suite))).hasSize(9);
        assertThat(discoverTests(selectUniqueId(testCase))).containsExactly(
                testCase.append("mode", "dual_agent"), testCase.append("mode", "chat_agent_tools"),
                testCase.append("parity", "modes"));
        assertThat(discoverTests(selectUniqueId(testCase.append("mode", "chat_agent_tools"))))
                .containsExactly(testCase.append("mode", "chat_agent_tools"));
        assertThat(discoverTests(selectUniqueId(testCase.append("parity", "modes"))))
                .as("parity needs both runs, so selecting it brings the modes, ahead of it")
                .containsExactly(testCase.append("mode", "dual_agent"), testCase.append("mode", "chat_agent_tools"),
                        testCase.append("parity", "modes"));
    }

    @Test
    @DisplayName("a single case reruns by its unique id through the Launcher API")
    void rerunThroughLauncher() {
        UniqueId testCase = ENGINE.append("suite", "batch").append("case", "conflict-keys-serialize");
        LauncherDiscoveryRequest request = LauncherDiscoveryRequestBuilder.request()
                .selectors(selectUniqueId(testCase))
                .configurationParameter(Constants.REPLAY_SPEED, "0")
                .configurationParameter("junit.platform.reporting.output.dir", temp.resolve("launcher").toString())
                .build();
        Launcher launcher = LauncherFactory.create();
        SummaryGeneratingListener summary = new SummaryGeneratingListener();
        launcher.execute(request, summary);
        TestExecutionSummary result = summary.getSummary();
        assertThat(result.getTestsFoundCount()).isEqualTo(3);
        assertThat(result.getTestsSucceededCount()).isEqualTo(3);
        assertThat(result.getFailures()).isEmpty();
    }

    @Test
    @DisplayName("the annotated @Suite class runs the sample folder through the suite engine")
    void annotatedSuiteClass() {
        EngineExecutionResults results = EngineTestKit.engine("junit-platform-suite")
                .selectors(selectClass(SampleSuitesTest.class))
                .configurationParameter(Constants.REPLAY_SPEED, "0")
                .outputDirectoryCreator(new TempOutputDirectories(temp.resolve("suite"))).execute();
        results.testEvents().assertStatistics(stats -> stats.started(SAMPLE_TESTS).succeeded(SAMPLE_TESTS));
    }

    @Test
    @DisplayName("an expectation failure says expected vs actual and cites the case's clause and line")
    void failureMessage() throws IOException {
        Path file = Files.writeString(temp.resolve("wrong.suite.yaml"), """
                id: wrong
                title: Wrong expectations
                kernel: {events: [device.volume.adjust]}
                cases:
                  - id: off-by-ten
                    clause: docs/design.md#plugin-volume-modes absolute level
                    turns:
                      - user: set the volume to 30
                        reply:
                          visible: Thirty it is.
                          events: [{name: device.volume.adjust, arguments: {mode: absolute, value: 30}}]
                        expect:
                          events: [{name: device.volume.adjust, arguments: {value: 40}}]
                          calls: {followUp: 1}
                """);
        EngineExecutionResults results = kit(selectFile(file.toFile())).execute();
        results.testEvents().assertStatistics(stats -> stats.started(3).failed(2).succeeded(1));
        results.testEvents().assertThatEvents().haveExactly(1, event(displayName("off-by-ten [dual_agent]"),
                finishedWithFailure(message(m -> m.startsWith("[docs/design.md#plugin-volume-modes absolute level] "
                        + "wrong/off-by-ten (dual_agent, " + file + ":5:5): 2 expectation(s) failed")
                        && m.contains("event 1 (device.volume.adjust): expected argument 'value' = 40 but was 30")
                        && m.contains("expected 1 follow_up call(s) but there were 0")))));
    }

    @Test
    @DisplayName("a parity break fails the parity node with a readable diff")
    void parityBreak() throws IOException {
        Path file = Files.writeString(temp.resolve("parity.suite.yaml"), """
                id: drift
                title: Modes drift apart
                kernel: {events: [device.volume.adjust]}
                cases:
                  - id: different-levels
                    clause: docs/design.md#modes-parity
                    turns:
                      - user: set the volume to 30
                        replyByMode:
                          dual_agent: {visible: ok, events: [{name: device.volume.adjust}]}
                          chat_agent_tools:
                            visible: ok
                            events: [{name: device.volume.adjust, arguments: {mode: absolute, value: 35}}]
                """);
        EngineExecutionResults results = kit(selectFile(file.toFile())).execute();
        results.testEvents().assertStatistics(stats -> stats.started(3).succeeded(2).failed(1));
        results.testEvents().assertThatEvents().haveExactly(1, event(displayName("different-levels [parity]"),
                finishedWithFailure(message(m -> m.contains("[docs/design.md#modes-parity]")
                        && m.contains("- dual_agent: event 0: device.volume.adjust {\"mode\":\"absolute\",\"value\":30}")
                        && m.contains("+ chat_agent_tools: event 0: device.volume.adjust {\"mode\":\"absolute\",\"value\":35}")))));
    }

    @Test
    @DisplayName("a kernel that lets a terminal event start first fails the case that names the clause")
    void brokenKernelIsCaught() {
        EngineExecutionResults results = kit(selectUniqueId(ENGINE.append("suite", "batch")
                .append("case", "terminal-runs-last")))
                .configurationParameter(Constants.KERNEL_FACTORY, BrokenTerminalKernelFactory.class.getName())
                .execute();
        results.testEvents().assertThatEvents().haveExactly(2, event(finishedWithFailure(message(m -> m.startsWith(
                "[docs/design.md#batch-terminal-last a terminal event starts only after every sibling settled] "
                        + "batch/terminal-runs-last")
                && m.contains("expected probe.finish to start after probe.slow returned, but it started while "
                + "probe.slow was still running")))));
    }

    @Test
    @DisplayName("recordings answer a case in both modes; provider=synthesized skips it, saying why")
    void recordedCaseAndSynthesizedSkip() {
        kit(selectPackage("io.agentlab.engine.samples")).execute().testEvents()
                .assertStatistics(stats -> stats.started(3).succeeded(3));
        EngineExecutionResults skipped = kit(selectPackage("io.agentlab.engine.samples"))
                .configurationParameter(Constants.PROVIDER, "synthesized").execute();
        skipped.testEvents().assertStatistics(stats -> stats.started(0));
        assertThat(skipped.containerEvents().skipped().stream().map(e -> e.getPayload(String.class).orElse("")))
                .containsExactly("agentlab.provider=synthesized, and this case is answered by recordings");
    }

    @Test
    @DisplayName("provider=live sends every call to the configured provider (a WireMock stand-in here)")
    void liveProvider() throws IOException {
        List<Recording> answers = List.of(
                io.agentlab.providers.recorded.Recordings.loadDirectory(RecordedFixturesTest.DIRECTORY).toArray(
                        Recording[]::new));
        try (TimedReplay provider = TimedReplay.start(answers, 0)) {
            kit(selectPackage("io.agentlab.engine.samples"))
                    .configurationParameter(Constants.PROVIDER, "live")
                    .configurationParameter(Constants.LIVE_BASE_URL, provider.baseUrl()).execute()
                    .testEvents().assertStatistics(stats -> stats.started(3).succeeded(3));
            assertThat(provider.mismatches()).isEmpty();
        }
    }

    @Test
    @DisplayName("agentlab.modes=dual_agent runs one mode and no parity node")
    void oneMode() {
        List<UniqueId> tests = kit(selectUniqueId(ENGINE.append("suite", "volume")))
                .configurationParameter(Constants.MODES, "dual_agent").discover().getEngineDescriptor()
                .getDescendants().stream().filter(TestDescriptor::isTest).map(TestDescriptor::getUniqueId).toList();
        assertThat(tests).hasSize(3).allSatisfy(id -> assertThat(id.getLastSegment().getValue()).isEqualTo("dual_agent"));
    }

    @Test
    @DisplayName("a cancelled request starts no case")
    void cancellation() {
        CancellationToken token = CancellationToken.create();
        token.cancel();
        EngineExecutionResults results = kit(selectClasspathResource("sample-suites")).cancellationToken(token).execute();
        results.testEvents().assertStatistics(stats -> stats.started(0));
        assertThat(results.allEvents().skipped().count()).isPositive();
    }

    @Test
    @DisplayName("cancelling mid-run: the running case finishes, the rest are skipped, nothing fails")
    void cancellationMidRun() {
        CancellationToken token = CancellationToken.create();
        SummaryGeneratingListener summary = new SummaryGeneratingListener();
        TestExecutionListener cancelAfterFirst = new TestExecutionListener() {
            @Override
            public void executionFinished(TestIdentifier identifier, TestExecutionResult result) {
                if (identifier.isTest()) {
                    token.cancel();
                }
            }
        };
        LauncherDiscoveryRequest discovery = LauncherDiscoveryRequestBuilder.request()
                .selectors(selectClasspathResource("sample-suites"))
                .configurationParameter(Constants.REPLAY_SPEED, "0")
                .configurationParameter("junit.platform.reporting.output.dir", temp.resolve("cancel").toString())
                .build();
        LauncherFactory.create().execute(LauncherExecutionRequestBuilder.request(discovery).cancellationToken(token)
                .listeners(cancelAfterFirst, summary).build());
        TestExecutionSummary result = summary.getSummary();
        assertThat(result.getTestsSucceededCount()).isEqualTo(1);
        assertThat(result.getTestsFailedCount()).isZero();
        assertThat(result.getTestsSkippedCount() + result.getContainersSkippedCount()).isPositive();
        assertThat(result.getTestsStartedCount()).isLessThan(SAMPLE_TESTS);
    }

    @Test
    @DisplayName("parallel execution gives the same results as serial")
    void parallelEqualsSerial() {
        Map<String, String> serial = outcomes(kit(selectClasspathResource("sample-suites")).execute());
        Map<String, String> parallel = outcomes(kit(selectClasspathResource("sample-suites"))
                .configurationParameter(Constants.PARALLEL, "true")
                .configurationParameter(Constants.PARALLEL_CONFIG_PREFIX + "strategy", "fixed")
                .configurationParameter(Constants.PARALLEL_CONFIG_PREFIX + "fixed.parallelism", "4")
                .execute());
        assertThat(serial).hasSize(SAMPLE_TESTS);
        assertThat(parallel).isEqualTo(serial);
    }

    @Test
    @DisplayName("in parallel, suites run beside each other and the gates start only after every suite finished "
            + "(red: the gates ran on the engine's thread while the suites were still running)")
    void gatesAfterEverySuiteInParallel() {
        List<Event> events = kit(selectClasspathResource("sample-suites"))
                .configurationParameter(Constants.GATES_ENABLED, "true")
                .configurationParameter(Constants.PARALLEL, "true")
                .configurationParameter(Constants.PARALLEL_CONFIG_PREFIX + "strategy", "fixed")
                .configurationParameter(Constants.PARALLEL_CONFIG_PREFIX + "fixed.parallelism", "4")
                // ignored: the engine keeps the fork-join executor, whose order the gates rely on
                .configurationParameter(Constants.PARALLEL_CONFIG_PREFIX + "executor-service", "worker_thread_pool")
                .execute().allEvents().list();
        List<Integer> suitesFinished = new ArrayList<>();
        int gatesStarted = -1;
        for (int i = 0; i < events.size(); i++) {
            Event event = events.get(i);
            String kind = event.getTestDescriptor().getUniqueId().getLastSegment().getType();
            if (kind.equals(SuiteDescriptor.SEGMENT) && event.getType() == EventType.FINISHED) {
                suitesFinished.add(i);
            } else if (kind.equals(GatesDescriptor.SEGMENT) && event.getType() == EventType.STARTED) {
                gatesStarted = i;
            }
        }
        assertThat(suitesFinished).as("the sample suites finished").hasSize(3);
        assertThat(gatesStarted).as("the gates started, after the last suite finished (events %s)", events)
                .isGreaterThan(suitesFinished.get(2));
    }

    /** Per test: its status and the deterministic figures of its report entries (timings left out). */
    private static Map<String, String> outcomes(EngineExecutionResults results) {
        Map<String, String> outcomes = new TreeMap<>();
        results.testEvents().finished().stream().forEach(event -> outcomes.put(
                event.getTestDescriptor().getUniqueId().toString(),
                event.getRequiredPayload(TestExecutionResult.class).getStatus().toString()));
        results.testEvents().stream().filter(event -> event.getType() == EventType.REPORTING_ENTRY_PUBLISHED)
                .forEach(event -> {
                    Map<String, String> entry = event.getRequiredPayload(ReportEntry.class).getKeyValuePairs();
                    outcomes.merge(event.getTestDescriptor().getUniqueId().toString(), " turn " + entry.get("turn")
                            + ": events=" + entry.get("events") + " calls=" + entry.get("llmCalls") + " prompt="
                            + entry.get("chatPromptTokens"), String::concat);
                });
        return outcomes;
    }

    private List<UniqueId> discoverTests(DiscoverySelector... selectors) {
        var results = kit(selectors).discover();
        assertThat(results.getDiscoveryIssues()).isEmpty();
        return results.getEngineDescriptor().getDescendants().stream().filter(TestDescriptor::isTest)
                .map(TestDescriptor::getUniqueId).collect(Collectors.toList());
    }
}
