package io.agentlab.report;

import java.lang.reflect.Array;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Set;

/**
 * What an object of the kit holds in memory, counted without a profiler: every element of every collection, map and
 * array reachable from it through the fields of the kit's own classes (JDK objects other than those are not entered).
 * A spool that keeps nothing per turn or test has the same footprint after ten turns as after a thousand
 * (docs/performance.md#memory); one that keeps a list grows by one per turn.
 */
public final class Footprint {

    private Footprint() {
    }

    /** The elements reachable from {@code root}. */
    public static long of(Object root) {
        return count(root, java.util.Collections.newSetFromMap(new IdentityHashMap<>()));
    }

    private static long count(Object value, Set<Object> seen) {
        if (value == null || !seen.add(value)) {
            return 0;
        }
        long elements = 0;
        if (value instanceof Collection<?> collection) {
            elements += collection.size();
            for (Object element : collection.toArray()) {
                elements += count(element, seen);
            }
        } else if (value instanceof Map<?, ?> map) {
            elements += map.size();
            for (Object entry : map.entrySet().toArray()) {
                Map.Entry<?, ?> pair = (Map.Entry<?, ?>) entry;
                elements += count(pair.getKey(), seen) + count(pair.getValue(), seen);
            }
        } else if (value.getClass().isArray()) {
            int length = Array.getLength(value);
            elements += length;
            if (!value.getClass().getComponentType().isPrimitive()) {
                for (int i = 0; i < length; i++) {
                    elements += count(Array.get(value, i), seen);
                }
            }
        } else if (value.getClass().getName().startsWith("io.agentlab.") && !(value instanceof Enum<?>)) {
            for (Class<?> type = value.getClass(); type != null && type.getName().startsWith("io.agentlab.");
                 type = type.getSuperclass()) {
                for (Field field : type.getDeclaredFields()) {
                    if (Modifier.isStatic(field.getModifiers()) || field.getType().isPrimitive()) {
                        continue;
                    }
                    field.setAccessible(true);
                    try {
                        elements += count(field.get(value), seen);
                    } catch (IllegalAccessException e) {
                        throw new IllegalStateException(e);
                    }
                }
            }
        }
        return elements;
    }
}
