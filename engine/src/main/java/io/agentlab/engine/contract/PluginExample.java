package io.agentlab.engine.contract;

import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * An utterance and what the plugin must make of it, in both modes.
 *
 * @param utterance the user's words
 * @param timezone  the session's zone (IANA id)
 * @param now       the request time, ISO-8601 with offset
 * @param expected  the final arguments the event must run with; empty when a clarification is expected
 */
public record PluginExample(String utterance, String timezone, String now, Optional<Map<String, Object>> expected) {

    /** Rejects nulls. */
    public PluginExample {
        Objects.requireNonNull(utterance, "utterance");
        Objects.requireNonNull(timezone, "timezone");
        Objects.requireNonNull(now, "now");
        Objects.requireNonNull(expected, "expected");
    }

    /** An example that must run with {@code arguments} (UTC, 2026-11-30 09:00). */
    public static PluginExample of(String utterance, Map<String, Object> arguments) {
        return new PluginExample(utterance, "UTC", "2026-11-30T09:00:00Z", Optional.of(arguments));
    }

    /** An example that must end in a clarification, creating nothing. */
    public static PluginExample clarification(String utterance) {
        return new PluginExample(utterance, "UTC", "2026-11-30T09:00:00Z", Optional.empty());
    }

    /** The same example in another zone and at another time. */
    public PluginExample at(String zone, String instant) {
        return new PluginExample(utterance, zone, instant, expected);
    }
}
