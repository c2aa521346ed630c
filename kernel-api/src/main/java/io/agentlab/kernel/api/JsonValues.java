package io.agentlab.kernel.api;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apiguardian.api.API;

/**
 * Deep, immutable copies of JSON-shaped Java values: {@code Map<String, ?>}, {@code List<?>}, {@code String},
 * {@link Number}, {@link Boolean} and {@code null}. Anything else is refused with the path where it was found, so a
 * plugin that returns a {@code LocalDate} in a payload learns it at the boundary, not in a report writer.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class JsonValues {

    /**
     * The deepest nesting of objects and arrays accepted (docs/limits-and-safety.md#kernel). Real arguments and
     * payloads are a few levels deep; a hostile value thousands of levels deep would otherwise overflow the stack of
     * every recursive reader after this boundary.
     */
    public static final int MAX_DEPTH = 64;

    private JsonValues() {
    }

    /** An immutable deep copy of a JSON object; {@code null} becomes the empty object. Keeps insertion order. */
    public static Map<String, Object> copyObject(Map<String, ?> object) {
        if (object == null) {
            return Map.of();
        }
        return copyMap(object, "$", 1);
    }

    /** An immutable deep copy of any JSON value. */
    public static Object copyValue(Object value) {
        return copy(value, "$", 0);
    }

    private static Object copy(Object value, String path, int depth) {
        if (value == null || value instanceof String || value instanceof Boolean) {
            return value;
        }
        if (value instanceof Number number) {
            return checkNumber(number, path);
        }
        if (value instanceof Map<?, ?> map) {
            return copyMap(map, path, depth + 1);
        }
        if (value instanceof List<?> list) {
            checkDepth(depth + 1, path);
            List<Object> copy = new ArrayList<>(list.size());
            for (int i = 0; i < list.size(); i++) {
                copy.add(copy(list.get(i), path + "[" + i + "]", depth + 1));
            }
            return Collections.unmodifiableList(copy);
        }
        throw new IllegalArgumentException(
                "not a JSON value at " + path + ": " + value.getClass().getName()
                        + " (use Map, List, String, Number, Boolean or null)");
    }

    private static void checkDepth(int depth, String path) {
        if (depth > MAX_DEPTH) {
            throw new IllegalArgumentException("JSON value nested deeper than " + MAX_DEPTH + " levels at "
                    + (path.length() > 120 ? path.substring(0, 120) + "…" : path));
        }
    }

    private static Map<String, Object> copyMap(Map<?, ?> map, String path, int depth) {
        checkDepth(depth, path);
        Map<String, Object> copy = new LinkedHashMap<>();
        for (Map.Entry<?, ?> entry : map.entrySet()) {
            if (!(entry.getKey() instanceof String key)) {
                throw new IllegalArgumentException("JSON object key at " + path + " is not a String: " + entry.getKey());
            }
            copy.put(key, copy(entry.getValue(), path + "." + key, depth));
        }
        return Collections.unmodifiableMap(copy);
    }

    private static Number checkNumber(Number number, String path) {
        if (number instanceof Double || number instanceof Float) {
            double d = number.doubleValue();
            if (Double.isNaN(d) || Double.isInfinite(d)) {
                throw new IllegalArgumentException("not a JSON number at " + path + ": " + number);
            }
            return number;
        }
        if (number instanceof Integer || number instanceof Long || number instanceof Short || number instanceof Byte
                || number instanceof BigDecimal || number instanceof BigInteger) {
            return number;
        }
        throw new IllegalArgumentException("unsupported number type at " + path + ": " + number.getClass().getName());
    }
}
