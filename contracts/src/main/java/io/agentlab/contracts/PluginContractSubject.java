package io.agentlab.contracts;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.agentlab.kernel.api.EventDefinition;
import io.agentlab.kernel.api.EventPlugin;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiConsumer;
import java.util.function.Supplier;
import org.apiguardian.api.API;

/**
 * What the rules check: the plugin (made fresh on demand), its examples, the configuration and a way to publish
 * figures as report entries.
 *
 * @param plugins             makes the plugin under test
 * @param examples            the author's examples
 * @param failingPort         the plugin wired to a port that throws, if the author supplies one
 * @param hangingPort         the plugin wired to a port that never answers, if the author supplies one
 * @param configuration       the class's {@link PluginContract}
 * @param report              publishes a figure (key, value) as a report entry
 */
@API(status = INTERNAL, since = "0.1")
public record PluginContractSubject(Supplier<EventPlugin> plugins, List<PluginExample> examples,
                                    Optional<Supplier<EventPlugin>> failingPort,
                                    Optional<Supplier<EventPlugin>> hangingPort, PluginContract configuration,
                                    BiConsumer<String, String> report) {

    /** Copies the examples. */
    public PluginContractSubject {
        examples = List.copyOf(examples);
    }

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

    /** Publishes figures. */
    public void publish(Map<String, String> figures) {
        figures.forEach(report);
    }
}
