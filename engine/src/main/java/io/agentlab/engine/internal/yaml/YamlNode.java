package io.agentlab.engine.internal.yaml;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apiguardian.api.API;

/**
 * A YAML document as read, every node with the position it started at, so each problem can name file:line:column.
 */
@API(status = INTERNAL, since = "0.1")
public sealed interface YamlNode {

    /** Where the node starts. */
    Position at();

    /** The plain Java value (maps, lists, strings, numbers, booleans, null): a document's data, without positions. */
    Object plain();

    /**
     * A mapping; keys keep their order and their own positions.
     *
     * @param entries key to entry
     * @param at      where the mapping starts
     */
    record Mapping(Map<String, Entry> entries, Position at) implements YamlNode {
        /** Copies the entries, keeping their order. */
        public Mapping {
            entries = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(entries));
        }

        /** The value under {@code key}, or null. */
        public YamlNode get(String key) {
            Entry entry = entries.get(key);
            return entry == null ? null : entry.value();
        }

        @Override
        public Object plain() {
            Map<String, Object> map = new LinkedHashMap<>();
            entries.forEach((key, entry) -> map.put(key, entry.value().plain()));
            return map;
        }
    }

    /**
     * One key of a mapping.
     *
     * @param keyAt where the key is written
     * @param value its value
     */
    record Entry(Position keyAt, YamlNode value) {
    }

    /**
     * A sequence.
     *
     * @param items the items
     * @param at    where the sequence starts
     */
    record Sequence(List<YamlNode> items, Position at) implements YamlNode {
        /** Copies the items. */
        public Sequence {
            items = List.copyOf(items);
        }

        @Override
        public Object plain() {
            return items.stream().map(YamlNode::plain).toList();
        }
    }

    /**
     * A scalar: a string, a number, a boolean or null.
     *
     * @param value the value
     * @param at    where it is written
     */
    record Scalar(Object value, Position at) implements YamlNode {
        @Override
        public Object plain() {
            return value;
        }

        /** The value as text ({@code null} stays null). */
        public String text() {
            return value == null ? null : value.toString();
        }
    }
}
