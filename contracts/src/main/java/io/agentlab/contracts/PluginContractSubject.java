package io.agentlab.contracts;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.agentlab.kernel.api.EventDefinition;
import io.agentlab.kernel.api.EventPlugin;
import io.agentlab.kernel.reference.ArgumentSchema;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiConsumer;
import java.util.function.Supplier;
import org.apiguardian.api.API;

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
        List<PluginExample> examples = authored("examples()", exampleSource, "List.of()");
        for (int i = 0; i < examples.size(); i++) {
            if (examples.get(i) == null) {
                throw new TestClassMistake("the contract test's examples() gave null as example " + (i + 1), null);
            }
        }
        return List.copyOf(examples);
    }

    /** The plugin wired to a port that throws, if the author supplies one. */
    public Optional<EventPlugin> failingPort() {
        return authored("pluginWithFailingPort()", failingPorts, "Optional.empty()");
    }

    /** The plugin wired to a port that never answers, if the author supplies one. */
    public Optional<EventPlugin> hangingPort() {
        return authored("pluginWithHangingPort()", hangingPorts, "Optional.empty()");
    }

    /** Publishes figures. */
    public void publish(Map<String, String> figures) {
        figures.forEach(report);
    }

    /**
     * What the author's {@code method} gives. When it throws because the plugin cannot be made (a definition built in
     * the constructor), PC-01 has said why and the rule aborts pointing there, the method's own exception attached;
     * otherwise the rule fails naming the method and what it threw, or that it gave null.
     */
    private <T> T authored(String method, Supplier<T> call, String none) {
        T given;
        try {
            given = call.get();
        } catch (RuntimeException e) {
            try {
                definition();
            } catch (Requirement.PrerequisiteFailed unbuildable) {
                unbuildable.addSuppressed(e);
                throw unbuildable;
            }
            String message = e.getMessage() == null ? "" : ": " + e.getMessage().lines().findFirst().orElse("");
            throw new TestClassMistake("the contract test's " + method + " threw " + e.getClass().getSimpleName()
                    + message, e);
        }
        if (given == null) {
            throw new TestClassMistake("the contract test's " + method + " gave null; give " + none + " for none", null);
        }
        return given;
    }

    /**
     * A mistake in the contract test class rather than the plugin: the rule that met it fails with its own id and
     * clause before the message (PluginContractRules#run).
     */
    static final class TestClassMistake extends RuntimeException {
        private static final long serialVersionUID = 1L;

        TestClassMistake(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
