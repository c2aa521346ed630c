package io.agentlab.kernel.api;

import java.util.Map;

/**
 * Brings merged arguments to their canonical form before validation ({@code "30%"} → {@code 30}, {@code "up"} →
 * {@code relative}). Must be idempotent: normalizing normalized arguments changes nothing.
 */
@FunctionalInterface
public interface ArgumentNormalizer {

    /** Returns the normalized arguments; never mutates the input. */
    Map<String, Object> normalize(Map<String, Object> arguments);

    /** Leaves arguments as they are. */
    static ArgumentNormalizer identity() {
        return arguments -> arguments;
    }
}
