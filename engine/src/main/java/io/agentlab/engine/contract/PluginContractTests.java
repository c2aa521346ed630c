package io.agentlab.engine.contract;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.agentlab.kernel.api.EventPlugin;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.apiguardian.api.API;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.TestReporter;

/**
 * Implemented by a {@link PluginContract} test class: supplies the plugin (and optionally examples and plugins wired
 * to failing or hanging ports) and inherits one dynamic test per rule of {@link PluginContractRules#catalogue()}.
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

    /** One test per rule, named like {@code required_PC-02_catalog_description_within_budget}. */
    @TestFactory
    default Stream<DynamicTest> pluginContract(TestReporter reporter) {
        PluginContract configuration = Optional.ofNullable(getClass().getAnnotation(PluginContract.class))
                .orElseThrow(() -> new IllegalStateException(getClass().getName()
                        + " implements PluginContractTests but is not annotated @PluginContract"));
        PluginContractSubject subject = new PluginContractSubject(this::plugin, examples(),
                pluginWithFailingPort().isPresent() ? Optional.of(() -> pluginWithFailingPort().orElseThrow())
                        : Optional.empty(),
                pluginWithHangingPort().isPresent() ? Optional.of(() -> pluginWithHangingPort().orElseThrow())
                        : Optional.empty(),
                configuration, (key, value) -> reporter.publishEntry(Map.of(key, value)));
        return PluginContractRules.catalogue().stream().map(rule -> DynamicTest.dynamicTest(rule.displayName(),
                () -> Requirement.of(rule.required()).run(rule.displayName(), () -> rule.check().run(subject))));
    }
}
