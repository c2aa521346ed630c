package io.agentlab.kernel.api;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Deep, immutable copies of JSON-shaped Java values: {@code Map<String, ?>}, {@code List<?>}, {@code String},
 * {@link Number}, {@link Boolean} and {@code null}. Anything else is refused with the path where it was found, so a
 * plugin that returns a {@code LocalDate} in a payload learns it at the boundary, not in a report writer.
 */
public final class JsonValues {

    private JsonValues() {
    }

    /** An immutable deep copy of a JSON object; {@code null} becomes the empty object. Keeps insertion order. */
    public static Map<String, Object> copyObject(Map<String, ?> object) {
        if (object == null) {
            return Map.of();
        }
        return copyMap(object, "$");
    }

    /** An immutable deep copy of any JSON value. */
    public static Object copyValue(Object value) {
        return copy(value, "$");
    }

    private static Object copy(Object value, String path) {
        if (value == null || value instanceof String || value instanceof Boolean) {
            return value;
        }
        if (value instanceof Number number) {
            return checkNumber(number, path);
        }
        if (value instanceof Map<?, ?> map) {
            return copyMap(map, path);
        }
        if (value instanceof List<?> list) {
            List<Object> copy = new ArrayList<>(list.size());
            for (int i = 0; i < list.size(); i++) {
                copy.add(copy(list.get(i), path + "[" + i + "]"));
            }
            return Collections.unmodifiableList(copy);
        }
        throw new IllegalArgumentException(
                "not a JSON value at " + path + ": " + value.getClass().getName()
                        + " (use Map, List, String, Number, Boolean or null)");
    }

    private static Map<String, Object> copyMap(Map<?, ?> map, String path) {
        Map<String, Object> copy = new LinkedHashMap<>();
        for (Map.Entry<?, ?> entry : map.entrySet()) {
            if (!(entry.getKey() instanceof String key)) {
                throw new IllegalArgumentException("JSON object key at " + path + " is not a String: " + entry.getKey());
            }
            copy.put(key, copy(entry.getValue(), path + "." + key));
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
