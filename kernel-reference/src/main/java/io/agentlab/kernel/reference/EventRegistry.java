package io.agentlab.kernel.reference;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.agentlab.kernel.api.EventDefinition;
import io.agentlab.kernel.api.EventPlugin;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * The flat registry ({@code docs/design.md#kernel-flat-registry}): one definition per namespaced name, no hierarchy,
 * immutable once built. A duplicate name or an invalid schema is refused at registration, never discovered mid-turn.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class EventRegistry {

    private final Map<String, Entry> entries;

    private EventRegistry(Map<String, Entry> entries) {
        this.entries = entries;
    }

    /**
     * Registers definitions in order.
     *
     * @throws RegistrationException for a duplicate name or an invalid schema, naming the event
     */
    public static EventRegistry of(Collection<EventDefinition> definitions) {
        Map<String, Entry> entries = new LinkedHashMap<>();
        for (EventDefinition definition : definitions) {
            if (entries.containsKey(definition.name())) {
                throw new RegistrationException("duplicate event name '" + definition.name()
                        + "': the registry is flat and every name is registered once");
            }
            entries.put(definition.name(),
                    new Entry(definition, ArgumentSchema.compile(definition.name(), definition.argumentsSchema())));
        }
        return new EventRegistry(Collections.unmodifiableMap(entries));
    }

    /** Registers each plugin's definition in order. */
    public static EventRegistry ofPlugins(Collection<? extends EventPlugin> plugins) {
        return of(plugins.stream().map(EventPlugin::definition).toList());
    }

    /** The definition registered under {@code name}. */
    public Optional<EventDefinition> lookup(String name) {
        Entry entry = entries.get(name);
        return entry == null ? Optional.empty() : Optional.of(entry.definition());
    }

    /** The compiled schema of a registered event. */
    public Optional<ArgumentSchema> schema(String name) {
        Entry entry = entries.get(name);
        return entry == null ? Optional.empty() : Optional.of(entry.schema());
    }

    /** All definitions in registration order. */
    public List<EventDefinition> definitions() {
        return entries.values().stream().map(Entry::definition).toList();
    }

    /** The registered names in registration order. */
    public List<String> names() {
        return List.copyOf(entries.keySet());
    }

    private record Entry(EventDefinition definition, ArgumentSchema schema) {
    }
}
