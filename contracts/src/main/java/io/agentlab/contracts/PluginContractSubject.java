package io.agentlab.contracts;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.agentlab.kernel.api.EventDefinition;
import io.agentlab.kernel.api.EventPlugin;
import io.agentlab.kernel.reference.ArgumentSchema;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.BiConsumer;
import java.util.function.Supplier;
import org.apiguardian.api.API;
import org.opentest4j.AssertionFailedError;

/**
 * What the rules check: the plugin (made fresh on demand), its examples and ports as the author's methods give them,
 * the configuration and a way to publish figures as report entries. The author's methods are called when a rule needs
 * what they give, never before: one that throws fails the rules that need it, naming the method, and leaves the others
 * to run (docs/plugin-contract.md#what-a-failure-says).
 *
 * @param plugins       makes the plugin under test
 * @param exampleSource the author's {@code examples()}
 * @param failingPorts  the author's {@code pluginWithFailingPort()}: the plugin wired to a port that throws, if any
 * @param hangingPorts  the author's {@code pluginWithHangingPort()}: the plugin wired to a port that never answers
 * @param configuration the class's {@link PluginContract}
 * @param report        publishes a figure (key, value) as a report entry
 */
@API(status = INTERNAL, since = "0.1")
public record PluginContractSubject(Supplier<EventPlugin> plugins, Supplier<List<PluginExample>> exampleSource,
                                    Supplier<Optional<EventPlugin>> failingPorts,
                                    Supplier<Optional<EventPlugin>> hangingPorts, PluginContract configuration,
                                    BiConsumer<String, String> report) {

    /**
     * A fresh definition of the plugin under test.
     *
     * @throws org.opentest4j.TestAbortedException when it cannot be built (PC-01 reports why)
     */
    public EventDefinition definition() {
        try {
            return plugins.get().definition();
        } catch (RuntimeException e) {
            throw new Requirement.PrerequisiteFailed("the definition cannot be built (see "
                    + PluginContractRules.PC_01.id() + "): " + e.getMessage());
        }
    }

    /**
     * The definition's argument schema, compiled as the kernel registers it.
     *
     * @throws org.opentest4j.TestAbortedException when the kernel would refuse it (PC-05 reports why)
     */
    public ArgumentSchema schema() {
        EventDefinition definition = definition();
        try {
            return ArgumentSchema.compile(definition.name(), definition.argumentsSchema());
        } catch (RuntimeException e) {
            throw new Requirement.PrerequisiteFailed("the argument schema cannot be registered (see "
                    + PluginContractRules.PC_05.id() + "): " + e.getMessage());
        }
    }

    /** The author's examples. */
    public List<PluginExample> examples() {
        return List.copyOf(authored("examples()", exampleSource));
    }

    /** The plugin wired to a port that throws, if the author supplies one. */
    public Optional<EventPlugin> failingPort() {
        return authored("pluginWithFailingPort()", failingPorts);
    }

    /** The plugin wired to a port that never answers, if the author supplies one. */
    public Optional<EventPlugin> hangingPort() {
        return authored("pluginWithHangingPort()", hangingPorts);
    }

    /** Publishes figures. */
    public void publish(Map<String, String> figures) {
        figures.forEach(report);
    }

    /**
     * What the author's {@code method} gives. When it throws because the plugin cannot be built (a definition made in
     * the constructor), PC-01 has said why and this rule aborts pointing there; otherwise the rule fails naming the
     * method and what it threw.
     */
    private <T> T authored(String method, Supplier<T> call) {
        try {
            return Objects.requireNonNull(call.get(), () -> method + " returned null");
        } catch (RuntimeException e) {
            definition();
            throw new AssertionFailedError("the contract test's " + method + " threw " + e.getClass().getSimpleName()
                    + ": " + e.getMessage() + "; the rule runs what it returns", e);
        }
    }
}
