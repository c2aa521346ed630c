package io.agentlab.engine.expect;

import io.agentlab.kernel.api.CanonicalJson;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Matching an expected JSON value against an actual one: a mapping matches when every key written matches (others
 * may be there), a list when it has as many items and each matches in order, a scalar when it is equal (numbers by
 * value: 30 equals 30.0).
 */
final class JsonMatch {

    private JsonMatch() {
    }

    /** Where and how {@code actual} differs from {@code expected}; empty when it matches. */
    static Optional<String> mismatch(Object expected, Object actual, String path) {
        if (expected instanceof Map<?, ?> want) {
            if (!(actual instanceof Map<?, ?> have)) {
                return Optional.of(at(path) + "expected a mapping but was " + write(actual));
            }
            for (Map.Entry<?, ?> entry : want.entrySet()) {
                String key = String.valueOf(entry.getKey());
                String child = path.isEmpty() ? key : path + "." + key;
                if (!have.containsKey(key)) {
                    return Optional.of(at(child) + "expected " + write(entry.getValue()) + " but it is absent");
                }
                Optional<String> inner = mismatch(entry.getValue(), have.get(key), child);
                if (inner.isPresent()) {
                    return inner;
                }
            }
            return Optional.empty();
        }
        if (expected instanceof List<?> want) {
            if (!(actual instanceof List<?> have)) {
                return Optional.of(at(path) + "expected a list but was " + write(actual));
            }
            if (want.size() != have.size()) {
                return Optional.of(at(path) + "expected " + want.size() + " item(s) but there were " + have.size()
                        + ": " + write(have));
            }
            for (int i = 0; i < want.size(); i++) {
                Optional<String> inner = mismatch(want.get(i), have.get(i), path + "[" + i + "]");
                if (inner.isPresent()) {
                    return inner;
                }
            }
            return Optional.empty();
        }
        return write(expected).equals(write(actual)) ? Optional.empty()
                : Optional.of(at(path) + "expected " + write(expected) + " but was " + write(actual));
    }

    /** A value as canonical JSON. */
    static String write(Object value) {
        return CanonicalJson.write(value);
    }

    private static String at(String path) {
        return path.isEmpty() ? "" : path + ": ";
    }
}
