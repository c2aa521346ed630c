package io.agentlab.kernel.api;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.Map;
import java.util.Set;
import org.apiguardian.api.API;

/**
 * The resources an event holds while it runs. Two events sharing a key never overlap in one batch (conflict-key
 * locking, {@code docs/design.md#batch-conflict-keys}); events with disjoint keys may run concurrently.
 */
@API(status = EXPERIMENTAL, since = "0.1")
@FunctionalInterface
public interface ConflictKeys {

    /** The keys for these normalized arguments (may depend on them, e.g. a device id). */
    Set<String> keysFor(Map<String, Object> arguments);

    /** Conflicts with nothing. */
    static ConflictKeys none() {
        return arguments -> Set.of();
    }

    /** The same fixed keys whatever the arguments. */
    static ConflictKeys of(String... keys) {
        Set<String> fixed = Set.of(keys);
        return arguments -> fixed;
    }
}
