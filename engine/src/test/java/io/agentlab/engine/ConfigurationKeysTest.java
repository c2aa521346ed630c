package io.agentlab.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClasspathResource;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.DiscoveryIssue;
import org.junit.platform.launcher.TagFilter;
import org.junit.platform.testkit.engine.EngineTestKit;

/** Mistyped keys are reported with the closest known key; tags reach the tests, so tag filters select cases. */
class ConfigurationKeysTest {

    @TempDir
    Path temp;

    @Test
    @DisplayName("every declared key is known; a typo names the closest key; other namespaces are left alone")
    void closestKey() throws Exception {
        assertThat(ConfigurationReferenceTest.constants().values()).allSatisfy(key -> assertThat(
                ConfigurationKeys.isKnown(key.replace("*", "strategy"))
                        || ConfigurationKeys.clientOnly(key).isPresent()).as(key).isTrue());
        assertThat(ConfigurationKeys.problem("agentlab.replay.sped")).contains("unknown configuration key "
                + "'agentlab.replay.sped'; did you mean 'agentlab.replay.speed'? (the keys are listed in "
                + "docs/configuration.md)");
        assertThat(ConfigurationKeys.problem("agentlab.gate.min-recal")).get().asString()
                .contains("did you mean '" + Constants.GATES_MIN_RECALL + "'");
        assertThat(ConfigurationKeys.problem("agentlab.execution.parallel.config.fixed.parallelism")).isEmpty();
        assertThat(ConfigurationKeys.problem("junit.platform.anything")).isEmpty();
        // the build's own switches are outside the namespace (Surefire passes every -D on): never reported
        assertThat(ConfigurationKeys.problem("agentlab-build.agui-oracle")).isEmpty();
        assertThat(ConfigurationKeys.problem("agentlab-build.its.root")).isEmpty();
        assertThat(ConfigurationKeys.problem("agentlab.contract.resolver-examples")).isEmpty();
        assertThat(ConfigurationKeys.problem("agentlab.agui-orcale")).isPresent();
        assertThat(ConfigurationKeys.problem("agentlab.suites", List.of("agentlab.suites"))).isEmpty();
    }

    @Test
    @DisplayName("the closest name is the fewest edits away, the first of equals, and none past the bound")
    void closestName() {
        List<String> names = List.of("--recordings", "--report", "--rerun-failed", "--speed", "--seed");
        assertThat(ConfigurationKeys.closest("--repport", names, 2)).contains("--report");
        assertThat(ConfigurationKeys.closest("--sped", names, 1)).contains("--speed");
        assertThat(ConfigurationKeys.closest("--sed", names, 1)).contains("--seed");
        assertThat(ConfigurationKeys.closest("--ab", List.of("--abc", "--abd"), 1)).contains("--abc"); // both one
        assertThat(ConfigurationKeys.closest("--zzzzzz", names, 2)).isEmpty();
        assertThat(ConfigurationKeys.closest("rnu", List.of("run", "record", "resolve"), 1)).contains("run");
        assertThat(ConfigurationKeys.closest("--rport", names, 0)).isEmpty();
        assertThat(ConfigurationKeys.closest("--rport", List.of(), 9)).isEmpty();
    }

    @Test
    @DisplayName("the engine reports an unknown agentlab.* key as a discovery warning and still runs")
    void unknownKeyWarning() {
        EngineTestKit.Builder kit = EngineTestKit.engine(ConformanceTestEngine.ENGINE_ID)
                .selectors(selectClasspathResource("sample-suites/volume.suite.yaml"))
                .configurationParameter(Constants.REPLAY_SPEED, "0")
                .configurationParameter(Constants.CONTROL_RUNS, "false")
                .configurationParameter("agentlab.report.contrl", "false")
                .outputDirectoryCreator(new TempOutputDirectories(temp));
        List<DiscoveryIssue> issues = kit.discover().getDiscoveryIssues();
        assertThat(issues).singleElement().satisfies(issue -> {
            assertThat(issue.severity()).isEqualTo(DiscoveryIssue.Severity.WARNING);
            assertThat(issue.message()).contains("'agentlab.report.contrl'", "did you mean 'agentlab.report.control'");
        });
        assertThat(kit.execute().testEvents().succeeded().count()).isPositive();
    }

    @Test
    @DisplayName("mode and parity tests carry their suite's and case's tags, so a tag filter keeps whole cases")
    void tagsOnTests() {
        var results = EngineTestKit.engine(ConformanceTestEngine.ENGINE_ID)
                .selectors(selectClasspathResource("sample-suites"))
                .filters(TagFilter.includeTags("smoke"))
                .configurationParameter(Constants.REPLAY_SPEED, "0")
                .configurationParameter(Constants.CONTROL_RUNS, "false")
                .outputDirectoryCreator(new TempOutputDirectories(temp))
                .execute();
        List<String> names = results.testEvents().finished().map(event -> event.getTestDescriptor().getDisplayName())
                .toList();
        assertThat(names).isNotEmpty().allSatisfy(name -> assertThat(name).matches(".+ \\[(dual_agent|chat_agent_tools|parity)]"));
        assertThat(results.testEvents().finished().map(event -> event.getTestDescriptor().getTags())
                .toList()).allSatisfy(tags -> assertThat(tags.stream().map(Object::toString).toList()).contains("smoke"));
        assertThat(Set.copyOf(names).size()).isEqualTo(names.size());
    }
}
