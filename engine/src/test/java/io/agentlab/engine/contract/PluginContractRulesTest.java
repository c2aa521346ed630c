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
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.platform.engine.TestExecutionResult;
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

    /**
     * Each rule's outcome for the contract test class {@code fixture}, by rule id: {@code passed}, or the status and
     * the message ({@code FAILED: …}, {@code ABORTED: …}); an error other than a failed assertion or an abort is
     * {@code ERROR: …}, the raw exception an author should never see.
     */
    private static java.util.Map<String, String> outcomes(Class<?> fixture) {
        java.util.Map<String, String> outcomes = new java.util.TreeMap<>();
        EngineTestKit.engine("junit-jupiter").selectors(selectClass(fixture)).execute().testEvents().finished()
                .stream().forEach(event -> {
                    String id = event.getTestDescriptor().getDisplayName().replaceAll("^[a-z]+_(PC-\\d+)_.*", "$1");
                    TestExecutionResult result = event.getPayload(TestExecutionResult.class).orElseThrow();
                    Throwable thrown = result.getThrowable().orElse(null);
                    String status = result.getStatus() == TestExecutionResult.Status.FAILED
                            && !(thrown instanceof AssertionError) ? "ERROR" : result.getStatus().name();
                    outcomes.put(id, thrown == null ? "passed" : status + ": " + thrown.getMessage());
                });
        assertThat(outcomes).hasSize(PluginContractRules.catalogue().size());
        assertThat(outcomes.values()).noneMatch(outcome -> outcome.startsWith("ERROR"));
        return outcomes;
    }

    @Test
    @DisplayName("a plugin that cannot be made (its definition built in its constructor) fails PC-01 alone; the rules "
            + "that call the author's methods abort pointing to it, none errs with the raw exception")
    void unbuildableInItsConstructor() {
        java.util.Map<String, String> outcomes = outcomes(AuthorMistakeFixtures.ConstructorThrows.class);
        assertThat(outcomes.get("PC-01")).startsWith("FAILED: required_PC-01").contains("the definition cannot be "
                + "built: ").contains("'Lights'");
        outcomes.remove("PC-01");
        // the one rule whose method the class does not override says so before it asks for the plugin
        assertThat(outcomes.remove("PC-10")).startsWith("ABORTED: PC-10 needs pluginWithHangingPort()");
        assertThat(outcomes.values()).allMatch(outcome -> outcome.startsWith("ABORTED: ")
                && outcome.contains("(see PC-01)"), "every other rule aborts pointing to PC-01");
    }

    @Test
    @DisplayName("examples() that throw fail the rules that use them, naming the method; the other rules still judge")
    void examplesThrow() {
        java.util.Map<String, String> outcomes = outcomes(AuthorMistakeFixtures.ExamplesThrow.class);
        for (String rule : List.of("PC-06", "PC-09", "PC-11")) {
            // the rule's own id and clause first, as every failure's
            assertThat(outcomes.get(rule)).as(rule).startsWith("FAILED: ").contains("_" + rule + "_", "(docs/design.md#",
                    "): the contract test's examples() threw IllegalArgumentException: ", "no-such-examples.yaml");
        }
        assertThat(outcomes).containsEntry("PC-01", "passed").containsEntry("PC-05", "passed")
                .containsEntry("PC-07", "passed").containsEntry("PC-08", "passed");
        assertThat(outcomes.get("PC-10")).startsWith("ABORTED: PC-10 needs pluginWithHangingPort()");
    }

    @Test
    @DisplayName("a null where the test class gives examples or a port fails the rules that use it, saying which")
    void nullsGiven() {
        java.util.Map<String, String> outcomes = outcomes(AuthorMistakeFixtures.NullsGiven.class);
        assertThat(outcomes.get("PC-06")).startsWith("FAILED: ").endsWith("the contract test's examples() gave null "
                + "as example 2");
        assertThat(outcomes.get("PC-09")).startsWith("FAILED: ").endsWith("the contract test's "
                + "pluginWithFailingPort() gave null; give Optional.empty() for none");
    }

    @Test
    @DisplayName("@PluginContract values that cannot work fail the rule that uses them: a budget below one, no seeds")
    void badAnnotation() {
        java.util.Map<String, String> outcomes = outcomes(AuthorMistakeFixtures.BadAnnotation.class);
        assertThat(outcomes.get("PC-02")).contains("@PluginContract(catalogTokenBudget = -5) must be a positive "
                + "number of tokens");
        assertThat(outcomes.get("PC-11")).startsWith("FAILED: ").contains("@PluginContract(seeds = {}) gives no seed");
    }

    @Test
    @DisplayName("a schema the kernel refuses fails PC-05 saying so; the rules that need it registered abort pointing "
            + "to PC-05")
    void schemaRefused() {
        java.util.Map<String, String> outcomes = outcomes(AuthorMistakeFixtures.SchemaRefused.class);
        assertThat(outcomes.get("PC-05")).startsWith("FAILED: ").contains("the kernel refuses the argument schema: ")
                .contains("\"type\": \"object\"").doesNotContain("not valid draft 2020-12");
        for (String rule : List.of("PC-07", "PC-09", "PC-11")) {
            assertThat(outcomes.get(rule)).as(rule).startsWith("ABORTED: the argument schema cannot be registered "
                    + "(see PC-05)");
        }
    }

    @Test
    @DisplayName("an example the plugin's own schema refuses fails PC-09 naming the example, not the port")
    void exampleBreaksSchema() {
        java.util.Map<String, String> outcomes = outcomes(AuthorMistakeFixtures.ExampleBreaksSchema.class);
        assertThat(outcomes.get("PC-09")).startsWith("FAILED: ").contains("example 1 \"set the volume to 30\" "
                + "expects arguments the plugin's own schema refuses (/value: ").contains("correct the example")
                .doesNotContain("with a throwing port");
    }

    @Test
    @DisplayName("port doubles that do not fail or hang as named: PC-09 and PC-10 say how the event ended, in words")
    void doublesSwapped() {
        java.util.Map<String, String> outcomes = outcomes(AuthorMistakeFixtures.DoublesSwapped.class);
        assertThat(outcomes.get("PC-09")).startsWith("FAILED: ")
                .contains("with a throwing port the event ended succeeded, not failed with a code");
        assertThat(outcomes.get("PC-10")).startsWith("FAILED: ").contains("with a hanging port the event ended "
                + "failed (device_offline: the speaker did not answer), not timed out");
        assertThat(outcomes.values()).noneMatch(message -> message.contains("[code=")
                || message.contains("Succeeded["));
    }

    @Test
    @DisplayName("a handler that swallows the timeout's interrupt fails PC-10: the event timed out, but the handler "
            + "never returned (it passed on the outcome alone)")
    void handlerIgnoresInterrupts() {
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        AuthorMistakeFixtures.release = release;
        try {
            assertThat(outcomes(AuthorMistakeFixtures.HandlerIgnoresInterrupts.class).get("PC-10"))
                    .startsWith("FAILED: ").contains("the event timed out, but its handler had not returned 10 s "
                            + "later: a handler must return when interrupted");
        } finally {
            release.countDown();
        }
    }

    @Test
    @DisplayName("an idempotency key that is not a function of its input fails PC-08 saying so, with both keys")
    void randomIdempotencyKey() {
        assertThat(outcomes(AuthorMistakeFixtures.RandomIdempotencyKey.class).get("PC-08")).startsWith("FAILED: ")
                .contains("the same scope, event and arguments gave two idempotency keys ('")
                .doesNotContain("key order");
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
