package io.agentlab.kernel.api;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.Map;
import org.apiguardian.api.API;

/**
 * Brings merged arguments to their canonical form before validation ({@code "30%"} → {@code 30}, {@code "up"} →
 * {@code relative}). Must be idempotent: normalizing normalized arguments changes nothing.
 */
@API(status = EXPERIMENTAL, since = "0.1")
@FunctionalInterface
public interface ArgumentNormalizer {

    /** Returns the normalized arguments; never mutates the input. */
    Map<String, Object> normalize(Map<String, Object> arguments);

    /** Leaves arguments as they are. */
    static ArgumentNormalizer identity() {
        return arguments -> arguments;
    }
}
