package io.agentlab.contracts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.testkit.engine.EventConditions.displayName;
import static org.junit.platform.testkit.engine.EventConditions.event;
import static org.junit.platform.testkit.engine.EventConditions.finishedWithFailure;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.message;

import io.agentlab.kernel.api.rule.Rule;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;

/** What a plugin author sees when rules break, and the catalogue's documentation kept equal to the code. */
class PluginContractRulesTest {

    @Test
    @DisplayName("a broken plugin: each broken rule fails naming the rule, the clause and what to check")
    void brokenPlugin() {
        EngineExecutionResults results = EngineTestKit.engine("junit-jupiter")
                .selectors(selectClass(BrokenPluginContractFixture.class)).execute();
        results.testEvents().assertStatistics(stats -> stats.started(PluginContractRules.catalogue().size()));
        results.testEvents().assertThatEvents()
                .haveExactly(1, event(displayName("required_PC-02_catalog_description_within_budget"),
                        finishedWithFailure(message(m -> m.startsWith(
                                "required_PC-02_catalog_description_within_budget "
                                        + "(docs/design.md#plugin-catalog-budget): the catalog line costs ")
                                && m.contains("over the budget of 20")))))
                .haveExactly(1, event(displayName("required_PC-05_schema_valid_and_provider_safe"),
                        finishedWithFailure(message(m -> m.contains("keywords outside the provider-safe subset: "
                                + "[/properties/level/oneOf]")))))
                .haveExactly(1, event(displayName("required_PC-06_resolver_deterministic_and_total"),
                        finishedWithFailure(message(m -> m.contains("the resolver gave two results for")))))
                .haveExactly(1, event(displayName("required_PC-03_terminal_event_terminates"),
                        finishedWithFailure(message(m -> m.contains("a terminal event with policy silent_success")))))
                .haveExactly(1, event(displayName("required_PC-04_timeout_at_most_60s"),
                        finishedWithFailure(message(m -> m.contains("timeout PT5M is over PT1M")))));
        results.testEvents().assertStatistics(stats -> stats.succeeded(3).failed(5).aborted(3));
        assertThat(results.testEvents().aborted().stream().map(e -> e.getPayload(
                org.junit.platform.engine.TestExecutionResult.class).orElseThrow().getThrowable().orElseThrow().getMessage()))
                .containsExactlyInAnyOrder(
                        "PC-09 needs pluginWithFailingPort(): the plugin wired to a port that throws",
                        "PC-10 needs pluginWithHangingPort(): the plugin wired to a port that never answers",
                        "PC-11 needs examples(): utterances with their expected arguments");
    }

    @Test
    @DisplayName("a definition that cannot be built fails PC-01 with the construction rule; the rest abort, saying why")
    void unbuildableDefinition() {
        EngineExecutionResults results = EngineTestKit.engine("junit-jupiter")
                .selectors(selectClass(UnbuildablePluginContractFixture.class)).execute();
        results.testEvents().assertThatEvents().haveExactly(1, event(displayName("required_PC-01_definition_is_valid"),
                finishedWithFailure(message(m -> m.contains("a side-effecting event must never be retried")))));
        results.testEvents().assertStatistics(stats -> stats.failed(1).succeeded(0));
    }

    @Test
    @DisplayName("a wrong example fails PC-11: the words resolve otherwise in dual_agent, and the modes then disagree")
    void wrongExample() {
        EngineExecutionResults results = EngineTestKit.engine("junit-jupiter")
                .selectors(selectClass(WrongExamplePluginContractFixture.class)).execute();
        results.testEvents().assertThatEvents().haveExactly(1, event(
                displayName("optional_PC-11_examples_identical_in_both_modes"), finishedWithFailure(message(m ->
                        m.contains("example 1 \"set the volume to 30\" (dual_agent): ")
                                && m.contains("expected arguments exactly {\"mode\":\"absolute\",\"value\":40}; "
                                + "arguments were {\"mode\":\"absolute\",\"value\":30}")
                                && m.contains("[every seed]")
                                // said once for the three seeds, not once per seed
                                && m.split("\\(dual_agent\\): ", -1).length == 2
                                && m.split("the modes disagree", -1).length == 2))));
    }

    @Test
    @DisplayName("every rule is a test method named by its id: the display name as the catalogue, the method name "
            + "without the dash (what Surefire's XML shows), and nothing else")
    void ruleMethods() {
        java.util.Map<String, String> methods = new java.util.TreeMap<>();
        for (java.lang.reflect.Method method : PluginContractTests.class.getMethods()) {
            if (method.isAnnotationPresent(org.junit.jupiter.api.Test.class)) {
                methods.put(method.getName(), method.getAnnotation(DisplayName.class).value());
                assertThat(method.getParameterCount()).as(method.getName()).isZero();
            }
        }
        java.util.Map<String, String> expected = new java.util.TreeMap<>();
        PluginContractRules.catalogue().forEach(rule -> expected.put(rule.displayName().replace("-", ""),
                rule.displayName()));
        assertThat(methods).isEqualTo(expected);
        EngineExecutionResults results = EngineTestKit.engine("junit-jupiter")
                .selectors(selectClass(VolumePluginContractTest.class)).execute();
        assertThat(results.testEvents().started().map(event -> event.getTestDescriptor().getLegacyReportingName())
                .toList()).contains("required_PC06_resolver_deterministic_and_total()");
    }

    @Test
    @DisplayName("docs/plugin-contract.md lists every rule with its id, name, kind and clause")
    void catalogueDocumented() throws IOException {
        String doc = Files.readString(Path.of("../docs/plugin-contract.md"));
        for (Rule rule : PluginContractRules.catalogue()) {
            assertThat(doc).as(rule.id()).contains("| `" + rule.displayName() + "` | " + clauseLink(rule.clause())
                    + " | " + rule.description() + " |");
        }
        assertThat(doc.lines().filter(line -> line.startsWith("| `required_") || line.startsWith("| `optional_")))
                .hasSize(PluginContractRules.catalogue().size());
    }

    /** The clause as a link from {@code docs/}: {@code [docs/design.md#<anchor>](design.md#<anchor>)}. */
    private static String clauseLink(String clause) {
        assertThat(clause).startsWith("docs/design.md#");
        return "[" + clause + "](" + clause.substring("docs/".length()) + ")";
    }
}
