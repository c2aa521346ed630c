package io.agentlab.contracts;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.agentlab.kernel.api.EventPlugin;
import java.util.List;
import java.util.Optional;
import org.apiguardian.api.API;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestReporter;

/**
 * Implemented by a {@link PluginContract} test class: supplies the plugin (and optionally examples and plugins wired
 * to failing or hanging ports) and inherits one test method per rule of {@link PluginContractRules#catalogue()}, named
 * by the rule in every client: {@code required_PC-06_resolver_deterministic_and_total} as the display name (IDEs, the
 * Console Launcher), {@code required_PC06_resolver_deterministic_and_total} as the method name (Surefire's XML).
 */
@API(status = EXPERIMENTAL, since = "0.1")
public interface PluginContractTests {

    /** A fresh plugin under test, with working (e.g. in-memory) ports. */
    EventPlugin plugin();

    /** Utterances and what the plugin must make of them; none means PC-11 is skipped. */
    default List<PluginExample> examples() {
        return List.of();
    }

    /** The plugin wired to a port that throws; empty means PC-09 is skipped. */
    default Optional<EventPlugin> pluginWithFailingPort() {
        return Optional.empty();
    }

    /** The plugin wired to a port that never answers; empty means PC-10 is skipped. */
    default Optional<EventPlugin> pluginWithHangingPort() {
        return Optional.empty();
    }

    /**
     * Keeps the test's reporter for the rule about to run, so the rules can publish what they measured (PC-02's
     * token costs) while the rule methods take no parameter: Surefire names a test without parameters by its method
     * name, {@code required_PC06_resolver_deterministic_and_total}, where a dynamic test was only
     * {@code pluginContract(TestReporter)[6]} (docs/plugin-contract.md#names).
     */
    @BeforeEach
    default void pluginContractReporter(TestReporter reporter) {
        PluginContractRules.REPORTER.set(reporter);
    }

    /** Forgets the reporter of the rule that ran. */
    @AfterEach
    default void pluginContractReporterDone() {
        PluginContractRules.REPORTER.remove();
    }

    /** PC-01: see {@code docs/plugin-contract.md}. */
    @Test
    @DisplayName("required_PC-01_definition_is_valid")
    default void required_PC01_definition_is_valid() throws Throwable {
        PluginContractRules.run(this, PluginContractRules.PC_01);
    }

    /** PC-02: see {@code docs/plugin-contract.md}. */
    @Test
    @DisplayName("required_PC-02_catalog_description_within_budget")
    default void required_PC02_catalog_description_within_budget() throws Throwable {
        PluginContractRules.run(this, PluginContractRules.PC_02);
    }

    /** PC-03: see {@code docs/plugin-contract.md}. */
    @Test
    @DisplayName("required_PC-03_terminal_event_terminates")
    default void required_PC03_terminal_event_terminates() throws Throwable {
        PluginContractRules.run(this, PluginContractRules.PC_03);
    }

    /** PC-04: see {@code docs/plugin-contract.md}. */
    @Test
    @DisplayName("required_PC-04_timeout_at_most_60s")
    default void required_PC04_timeout_at_most_60s() throws Throwable {
        PluginContractRules.run(this, PluginContractRules.PC_04);
    }

    /** PC-05: see {@code docs/plugin-contract.md}. */
    @Test
    @DisplayName("required_PC-05_schema_valid_and_provider_safe")
    default void required_PC05_schema_valid_and_provider_safe() throws Throwable {
        PluginContractRules.run(this, PluginContractRules.PC_05);
    }

    /** PC-06: see {@code docs/plugin-contract.md}. */
    @Test
    @DisplayName("required_PC-06_resolver_deterministic_and_total")
    default void required_PC06_resolver_deterministic_and_total() throws Throwable {
        PluginContractRules.run(this, PluginContractRules.PC_06);
    }

    /** PC-07: see {@code docs/plugin-contract.md}. */
    @Test
    @DisplayName("required_PC-07_validator_names_the_field_and_never_throws")
    default void required_PC07_validator_names_the_field_and_never_throws() throws Throwable {
        PluginContractRules.run(this, PluginContractRules.PC_07);
    }

    /** PC-08: see {@code docs/plugin-contract.md}. */
    @Test
    @DisplayName("required_PC-08_idempotency_keys_stable_and_distinct")
    default void required_PC08_idempotency_keys_stable_and_distinct() throws Throwable {
        PluginContractRules.run(this, PluginContractRules.PC_08);
    }

    /** PC-09: see {@code docs/plugin-contract.md}. */
    @Test
    @DisplayName("optional_PC-09_throwing_port_is_a_structured_failure")
    default void optional_PC09_throwing_port_is_a_structured_failure() throws Throwable {
        PluginContractRules.run(this, PluginContractRules.PC_09);
    }

    /** PC-10: see {@code docs/plugin-contract.md}. */
    @Test
    @DisplayName("optional_PC-10_hanging_port_times_out")
    default void optional_PC10_hanging_port_times_out() throws Throwable {
        PluginContractRules.run(this, PluginContractRules.PC_10);
    }

    /** PC-11: see {@code docs/plugin-contract.md}. */
    @Test
    @DisplayName("optional_PC-11_examples_identical_in_both_modes")
    default void optional_PC11_examples_identical_in_both_modes() throws Throwable {
        PluginContractRules.run(this, PluginContractRules.PC_11);
    }
}
