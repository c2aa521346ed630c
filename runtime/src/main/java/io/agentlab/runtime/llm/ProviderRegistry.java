package io.agentlab.runtime.llm;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apiguardian.api.API;

/**
 * The seam ({@code docs/design.md#provider-registry-seam}): the runtime reaches a model only through this registry,
 * keyed by provider name. A second provider is one {@link #register} call.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class ProviderRegistry {

    private final Map<String, ChatProvider> providers = new LinkedHashMap<>();

    /** Registers a provider; a duplicate key is refused. */
    public synchronized ProviderRegistry register(String key, ChatProvider provider) {
        if (providers.putIfAbsent(key, provider) != null) {
            throw new IllegalArgumentException("a provider is already registered as '" + key + "'");
        }
        return this;
    }

    /**
     * The provider registered as {@code key}.
     *
     * @throws IllegalArgumentException naming the registered keys when there is none
     */
    public synchronized ChatProvider get(String key) {
        return Optional.ofNullable(providers.get(key)).orElseThrow(() -> new IllegalArgumentException(
                "no provider registered as '" + key + "'; registered: " + providers.keySet()));
    }

    /** The registered keys. */
    public synchronized Set<String> keys() {
        return Set.copyOf(providers.keySet());
    }
}
