package io.agentlab.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClasspathResource;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectFile;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectUniqueId;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.DiscoveryIssue;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.launcher.TagFilter;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A launch knows what it covered (docs/engine.md#partial-launches): a rerun of part of the suites keeps the whole
 * run's reports and judges no whole-run gate; "nothing ran" is decided the Platform's way; EngineTestKit's defaults
 * and names work.
 */
class PartialLaunchTest {

    private static final String VOLUME = "[engine:agentlab-conformance]/[suite:volume]";

    @TempDir
    Path temp;

    private EngineTestKit.Builder kit(Path report) {
        return EngineTestKit.engine(ConformanceTestEngine.ENGINE_ID)
                .configurationParameter(Constants.REPLAY_SPEED, "0")
                .configurationParameter(Constants.CONTROL_RUNS, "false")
                .configurationParameter(Constants.GATES_ENABLED, "true")
                .configurationParameter(Constants.REPORT_DIRECTORY, report.toString())
                .outputDirectoryCreator(new TempOutputDirectories(temp.resolve("out")));
    }

    private static JsonNode json(Path file) throws IOException {
        return JsonMapper.builder().build().readTree(Files.readString(file));
    }

    private static Event engineFinished(EngineExecutionResults results) {
        return results.containerEvents().finished().stream()
                .filter(event -> event.getTestDescriptor().getUniqueId().getSegments().size() == 1)
                .findFirst().orElseThrow();
    }

    @Test
    @DisplayName("one case rerun by unique id leaves the full run's reports intact and judges no gate, saying why")
    void rerunByUniqueId() throws IOException {
        Path report = temp.resolve("report");
        EngineExecutionResults full = kit(report).selectors(selectClasspathResource("sample-suites/volume.suite.yaml"))
                .execute();
        full.testEvents().assertStatistics(stats -> stats.failed(0));
        String metrics = Files.readString(report.resolve("metrics.json"));
        String markdown = Files.readString(report.resolve("report.md"));
        String html = Files.readString(report.resolve("index.html"));
        assertThat(json(report.resolve("metrics.json")).path("coverage").path("partial").asBoolean()).isFalse();

        EngineExecutionResults rerun = kit(report).selectors(selectUniqueId(VOLUME + "/[case:set-to-thirty]"))
                .execute();

        assertThat(rerun.testEvents().finished().map(event -> event.getTestDescriptor().getUniqueId().toString())
                .toList()).hasSize(3).allSatisfy(id -> assertThat(id).contains("[case:set-to-thirty]"));
        List<String> skipped = rerun.testEvents().skipped().map(event -> event.getPayload(String.class).orElse(""))
                .toList();
        assertThat(skipped).isNotEmpty().allSatisfy(reason -> assertThat(reason).contains("not evaluated",
                "partial launch: 1 of 3 case(s) (3 of 9 test(s))", "selected by unique id", Constants.GATES_ON_PARTIAL));
        assertThat(Files.readString(report.resolve("metrics.json"))).isEqualTo(metrics);
        assertThat(Files.readString(report.resolve("report.md"))).isEqualTo(markdown);
        assertThat(Files.readString(report.resolve("index.html"))).isEqualTo(html);
        JsonNode partial = json(report.resolve("partial/metrics.json"));
        assertThat(partial.path("coverage").path("partial").asBoolean()).isTrue();
        assertThat(partial.path("coverage").path("description").asString()).contains("1 of 3 case(s)");
        assertThat(Files.readString(report.resolve("partial/report.md"))).contains("| covered | partial launch: 1 of 3");
    }

    @Test
    @DisplayName("a Surefire-style rerun through the Launcher, by a unique id under @Suite: that case, no gate judged")
    void rerunUnderSuiteThroughLauncher() {
        String id = "[engine:junit-platform-suite]/[suite:" + SampleSuitesTest.class.getName() + "]/" + VOLUME
                + "/[case:set-to-thirty]";
        List<String> finished = new java.util.concurrent.CopyOnWriteArrayList<>();
        List<String> skipped = new java.util.concurrent.CopyOnWriteArrayList<>();
        org.junit.platform.launcher.LauncherDiscoveryRequest request = org.junit.platform.launcher.core
                .LauncherDiscoveryRequestBuilder.request().selectors(selectUniqueId(id))
                .configurationParameter(Constants.REPLAY_SPEED, "0")
                .configurationParameter(Constants.CONTROL_RUNS, "false")
                .configurationParameter(Constants.GATES_ENABLED, "true").build();
        org.junit.platform.launcher.core.LauncherFactory.create().execute(request,
                new org.junit.platform.launcher.TestExecutionListener() {
                    @Override
                    public void executionFinished(org.junit.platform.launcher.TestIdentifier test,
                                                  TestExecutionResult result) {
                        if (test.isTest()) {
                            finished.add(test.getDisplayName() + " " + result.getStatus());
                        }
                    }

                    @Override
                    public void executionSkipped(org.junit.platform.launcher.TestIdentifier test, String reason) {
                        skipped.add(reason);
                    }
                });
        assertThat(finished).containsExactlyInAnyOrder("volume/set-to-thirty [dual_agent] SUCCESSFUL",
                "volume/set-to-thirty [chat_agent_tools] SUCCESSFUL", "volume/set-to-thirty [parity] SUCCESSFUL");
        assertThat(skipped).isNotEmpty().allSatisfy(reason -> assertThat(reason).contains("not evaluated",
                "selected by unique id"));
    }

    @Test
    @DisplayName("agentlab.gates.on-partial=true judges the gates over what ran, as asked")
    void gatesOnPartial() {
        EngineExecutionResults rerun = kit(temp.resolve("report"))
                .configurationParameter(Constants.GATES_ON_PARTIAL, "true")
                .selectors(selectUniqueId(VOLUME + "/[case:set-to-thirty]")).execute();
        // a gate may still skip for its own reasons (too few samples, no threshold), never for the launch's coverage
        assertThat(rerun.testEvents().skipped().map(event -> event.getPayload(String.class).orElse("")).toList())
                .noneSatisfy(reason -> assertThat(reason).contains("not evaluated"));
        assertThat(rerun.testEvents().finished().filter(event -> event.getTestDescriptor().getUniqueId().toString()
                .contains("[gate:")).count()).isPositive();
    }

    @Test
    @DisplayName("a filter applied after discovery makes the launch partial too: gates left, the reason given")
    void filteredLaunch() {
        EngineExecutionResults results = kit(temp.resolve("report")).selectors(selectClasspathResource("sample-suites"))
                .filters(TagFilter.excludeTags("volume")).execute();
        List<String> skipped = results.testEvents().skipped().map(event -> event.getPayload(String.class).orElse(""))
                .toList();
        assertThat(skipped).isNotEmpty().allSatisfy(reason -> assertThat(reason).contains("filtered after discovery"));
        assertThat(temp.resolve("report/partial/metrics.json")).exists();
        assertThat(temp.resolve("report/metrics.json")).doesNotExist();
    }

    @Test
    @DisplayName("tag filters that leave no test pass: the client's own fail-if-no-tests decides, as under @Suite")
    void filtersExcludingEverythingPass() {
        EngineExecutionResults results = kit(temp.resolve("report")).selectors(selectClasspathResource("sample-suites"))
                .filters(TagFilter.includeTags("fast")).execute();
        results.testEvents().assertStatistics(stats -> stats.started(0));
        assertThat(engineFinished(results).getRequiredPayload(TestExecutionResult.class).getStatus())
                .isEqualTo(TestExecutionResult.Status.SUCCESSFUL);
    }

    @Test
    @DisplayName("suites selected that the engine turns into no test at all fail at discovery, under every client")
    void selectedButNothingDiscovered() throws IOException {
        Path file = Files.writeString(temp.resolve("zero.suite.yaml"), """
                id: zero
                title: Filtered out
                modes: [dual_agent]
                cases:
                  - id: only
                    clause: c1
                    turns:
                      - user: hi
                        reply: {visible: Hello.}
                """);
        EngineTestKit.Builder kit = kit(temp.resolve("report")).selectors(selectFile(file.toFile()))
                .configurationParameter(Constants.MODES, "chat_agent_tools");
        assertThat(kit.discover().getDiscoveryIssues()).anySatisfy(issue -> {
            assertThat(issue.severity()).isEqualTo(DiscoveryIssue.Severity.ERROR);
            assertThat(issue.message()).contains("no conformance test was discovered", "[zero]", "agentlab.modes");
        });
        TestExecutionResult engine = engineFinished(kit.execute()).getRequiredPayload(TestExecutionResult.class);
        assertThat(engine.getStatus()).isEqualTo(TestExecutionResult.Status.FAILED);
    }

    @Test
    @DisplayName("EngineTestKit's defaults (no output directory, no report folder): a green run stays green")
    void engineTestKitDefaults() {
        EngineExecutionResults results = EngineTestKit.engine(ConformanceTestEngine.ENGINE_ID)
                .selectors(selectClasspathResource("sample-suites/volume.suite.yaml"))
                .configurationParameter(Constants.REPLAY_SPEED, "0")
                .configurationParameter(Constants.CONTROL_RUNS, "false").execute();
        results.testEvents().assertStatistics(stats -> stats.started(9).succeeded(9));
        results.containerEvents().assertStatistics(stats -> stats.failed(0));
    }

    @Test
    @DisplayName("a key of the command line or the Maven goal is warned about under another client, naming it")
    void clientOnlyKeyWarned() {
        List<DiscoveryIssue> issues = kit(temp.resolve("report"))
                .selectors(selectClasspathResource("sample-suites/volume.suite.yaml"))
                .configurationParameter("agentlab.cases", "set-to-thirty").discover().getDiscoveryIssues();
        assertThat(issues).singleElement().satisfies(issue -> {
            assertThat(issue.severity()).isEqualTo(DiscoveryIssue.Severity.WARNING);
            assertThat(issue.message()).contains("'agentlab.cases' does nothing under this client",
                    "--select-unique-id");
        });
    }

    @Test
    @DisplayName("names: short at the root, long (with the suite) inside @Suite, as asked with agentlab.naming.strategy")
    void naming() throws IOException {
        Path other = Files.createDirectories(temp.resolve("other"));
        Files.writeString(other.resolve("again.suite.yaml"), Files.readString(Path.of(
                "src/test/resources/sample-suites/volume.suite.yaml")).replace("id: volume", "id: volume-again"));
        List<String> root = kit(temp.resolve("r1")).selectors(selectFile(other.resolve("again.suite.yaml").toFile()))
                .execute().testEvents().finished().map(event -> event.getTestDescriptor().getDisplayName()).toList();
        assertThat(root).contains("set-to-thirty [dual_agent]");
        List<String> longNames = kit(temp.resolve("r2"))
                .configurationParameter(Constants.NAMING_STRATEGY, "long")
                .selectors(selectFile(other.resolve("again.suite.yaml").toFile()),
                        selectClasspathResource("sample-suites/volume.suite.yaml"))
                .configurationParameter(Constants.GATES_ENABLED, "false")
                .execute().testEvents().finished().map(event -> event.getTestDescriptor().getDisplayName()).toList();
        assertThat(longNames).contains("volume/set-to-thirty [dual_agent]", "volume-again/set-to-thirty [dual_agent]")
                .doesNotHaveDuplicates();
        List<String> suite = EngineTestKit.engine("junit-platform-suite").selectors(selectClass(SampleSuitesTest.class))
                .configurationParameter(Constants.REPLAY_SPEED, "0")
                .configurationParameter(Constants.CONTROL_RUNS, "false")
                .outputDirectoryCreator(new TempOutputDirectories(temp.resolve("suite"))).execute()
                .testEvents().finished().map(event -> event.getTestDescriptor().getDisplayName()).toList();
        assertThat(suite).contains("volume/set-to-thirty [dual_agent]").allSatisfy(name -> assertThat(name)
                .matches("(volume|batch|search)/.+ \\[(dual_agent|chat_agent_tools|parity)]"));
    }
}
