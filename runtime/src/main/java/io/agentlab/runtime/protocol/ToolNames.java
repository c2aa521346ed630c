package io.agentlab.runtime.protocol;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.agentlab.kernel.reference.RegistrationException;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;
import org.apiguardian.api.API;

/**
 * Provider function names may not contain dots ({@code ^[a-zA-Z0-9_-]{1,64}$}), so each namespaced event name has a
 * provider-safe alias: dots become underscores ({@code lamp.power.toggle} → {@code lamp_power_toggle}). The
 * mapping is built once from the registry; two names with the same alias (e.g. {@code a.b_c} and {@code a_b.c}) are
 * refused. The model may answer with either form ({@code docs/design.md#modes-tool-name-alias}).
 */
@API(status = INTERNAL, since = "0.1")
public final class ToolNames {

    /** What providers accept as a function name. */
    public static final Pattern PROVIDER_SAFE = Pattern.compile("^[a-zA-Z0-9_-]{1,64}$");

    private final Map<String, String> aliasToName = new LinkedHashMap<>();
    private final Map<String, String> nameToAlias = new LinkedHashMap<>();

    private ToolNames() {
    }

    /**
     * The mapping for these event names.
     *
     * @throws RegistrationException for an alias collision or an alias providers would refuse
     */
    public static ToolNames of(Collection<String> eventNames) {
        ToolNames names = new ToolNames();
        for (String name : eventNames) {
            String alias = name.replace('.', '_');
            if (!PROVIDER_SAFE.matcher(alias).matches()) {
                throw new RegistrationException("event '" + name + "' has no provider-safe tool name ('" + alias
                        + "' does not match " + PROVIDER_SAFE.pattern() + ")");
            }
            String other = names.aliasToName.putIfAbsent(alias, name);
            if (other != null) {
                throw new RegistrationException("events '" + other + "' and '" + name
                        + "' would both be offered to the model as tool '" + alias + "'; rename one");
            }
            names.nameToAlias.put(name, alias);
        }
        return names;
    }

    /** The provider-safe alias of a registered event name. */
    public String alias(String eventName) {
        String alias = nameToAlias.get(eventName);
        if (alias == null) {
            throw new IllegalArgumentException("'" + eventName + "' is not registered");
        }
        return alias;
    }

    /** The registered event name for what the model emitted (alias or dotted form); unknown names pass through. */
    public String eventName(String fromModel) {
        if (nameToAlias.containsKey(fromModel)) {
            return fromModel;
        }
        return aliasToName.getOrDefault(fromModel, fromModel);
    }
}
