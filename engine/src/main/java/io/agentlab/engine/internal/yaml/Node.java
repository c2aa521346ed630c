package io.agentlab.engine.internal.yaml;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * A node of a suite file, read with its type checked and never cast on faith: an accessor returns the value when the
 * node has the type asked for and otherwise reports a problem naming the key, the position and what was expected.
 * The JSON Schema has normally refused such a file already; this keeps the reader safe when a schema change and a
 * reader change drift apart.
 */
@API(status = INTERNAL, since = "0.1")
public final class Node {

    private final YamlNode node;
    private final String path;
    private final Problems problems;
    private final Position where;

    /** The node at {@code path} (e.g. {@code cases[0].turns[1].expect}), reporting into {@code problems}. */
    public Node(YamlNode node, String path, Problems problems) {
        this(node, path, problems, node.at());
    }

    private Node(YamlNode node, String path, Problems problems, Position where) {
        this.node = node;
        this.path = path;
        this.problems = problems;
        this.where = where;
    }

    /** Its key path, e.g. {@code cases[0].turns[1].expect.events[0]}. */
    public String path() {
        return path;
    }

    /** Where it starts. */
    public Position at() {
        return node.at();
    }

    /** Where it is written: its key, for a value of a mapping; itself otherwise. Messages point here. */
    public Position where() {
        return where;
    }

    /** The node as parsed. */
    public YamlNode yaml() {
        return node;
    }

    /** The path of {@code key} under this node. */
    public String path(String key) {
        return path.isEmpty() ? key : path + "." + key;
    }

    /** Reports a problem at this node. */
    public void problem(String message) {
        problems.add(node.at(), path, message);
    }

    /** Reports a problem at {@code key} of this mapping (at the key itself when it is written). */
    public void problemAt(String key, String message) {
        problems.add(keyAt(key), path(key), message);
    }

    /** Where {@code key} is written in this mapping, or where the mapping starts when it is not. */
    public Position keyAt(String key) {
        return node instanceof YamlNode.Mapping mapping && mapping.entries().containsKey(key)
                ? mapping.entries().get(key).keyAt() : node.at();
    }

    /** Whether this is a mapping holding {@code key}. */
    public boolean has(String key) {
        return node instanceof YamlNode.Mapping mapping && mapping.get(key) != null;
    }

    /** The value under {@code key}; empty when absent. A problem when this is not a mapping. */
    public Optional<Node> get(String key) {
        if (!(node instanceof YamlNode.Mapping mapping)) {
            expected("a mapping");
            return Optional.empty();
        }
        YamlNode.Entry child = mapping.entries().get(key);
        return child == null ? Optional.empty()
                : Optional.of(new Node(child.value(), path(key), problems, child.keyAt()));
    }

    /** The entries of this mapping, in file order; a problem (and none) when it is not a mapping. */
    public Map<String, Node> entries() {
        Map<String, Node> entries = new LinkedHashMap<>();
        if (!(node instanceof YamlNode.Mapping mapping)) {
            expected("a mapping");
            return entries;
        }
        mapping.entries().forEach((key, entry) -> entries.put(key, new Node(entry.value(), path(key), problems,
                entry.keyAt())));
        return entries;
    }

    /** The items of this sequence; a problem (and none) when it is not a sequence. */
    public List<Node> items() {
        List<Node> items = new ArrayList<>();
        if (!(node instanceof YamlNode.Sequence sequence)) {
            expected("a sequence");
            return items;
        }
        for (int i = 0; i < sequence.items().size(); i++) {
            items.add(new Node(sequence.items().get(i), path + "[" + i + "]", problems));
        }
        return items;
    }

    /** This scalar as a string. */
    public Optional<String> text() {
        if (node instanceof YamlNode.Scalar scalar && scalar.value() instanceof String text) {
            return Optional.of(text);
        }
        expected("a string");
        return Optional.empty();
    }

    /** This scalar as a whole number within int range. */
    public Optional<Integer> integer() {
        if (node instanceof YamlNode.Scalar scalar && scalar.value() instanceof Number number
                && number.doubleValue() == Math.rint(number.doubleValue())
                && Math.abs(number.doubleValue()) <= Integer.MAX_VALUE) {
            return Optional.of(number.intValue());
        }
        expected("a whole number");
        return Optional.empty();
    }

    /** This scalar as a number. */
    public Optional<Double> number() {
        if (node instanceof YamlNode.Scalar scalar && scalar.value() instanceof Number number) {
            return Optional.of(number.doubleValue());
        }
        expected("a number");
        return Optional.empty();
    }

    /** This scalar as a boolean. */
    public Optional<Boolean> bool() {
        if (node instanceof YamlNode.Scalar scalar && scalar.value() instanceof Boolean value) {
            return Optional.of(value);
        }
        expected("true or false");
        return Optional.empty();
    }

    /** This mapping as plain JSON values. */
    @SuppressWarnings("unchecked")
    public Optional<Map<String, Object>> object() {
        if (node instanceof YamlNode.Mapping mapping) {
            return Optional.of((Map<String, Object>) mapping.plain()); // Mapping.plain() builds a Map<String, Object>
        }
        expected("a mapping");
        return Optional.empty();
    }

    /** This sequence's strings. */
    public List<String> strings() {
        List<String> strings = new ArrayList<>();
        for (Node item : items()) {
            item.text().ifPresent(strings::add);
        }
        return strings;
    }

    /** The string under {@code key}. */
    public Optional<String> text(String key) {
        return get(key).flatMap(Node::text);
    }

    /** The whole number under {@code key}. */
    public Optional<Integer> integer(String key) {
        return get(key).flatMap(Node::integer);
    }

    /** The boolean under {@code key}. */
    public Optional<Boolean> bool(String key) {
        return get(key).flatMap(Node::bool);
    }

    /** The boolean under {@code key}, false when absent. */
    public boolean flag(String key) {
        return bool(key).orElse(false);
    }

    /** The strings of the sequence under {@code key}, none when absent. */
    public List<String> strings(String key) {
        return get(key).map(Node::strings).orElse(List.of());
    }

    /** The items of the sequence under {@code key}, none when absent. */
    public List<Node> list(String key) {
        return get(key).map(Node::items).orElse(List.of());
    }

    /** The mapping under {@code key} as plain JSON values. */
    public Optional<Map<String, Object>> object(String key) {
        return get(key).flatMap(Node::object);
    }

    /** The string under {@code key}, which must be there; a problem and {@code ""} when it is not. */
    public String requiredText(String key) {
        Optional<Node> value = get(key);
        if (value.isEmpty()) {
            problem("missing required key '" + key + "'");
            return "";
        }
        return value.get().text().orElse("");
    }

    private void expected(String what) {
        problems.add(node.at(), path, "expected " + what + ", found " + describe(node));
    }

    private static String describe(YamlNode node) {
        if (node instanceof YamlNode.Scalar scalar) {
            Object value = scalar.value();
            return value == null ? "null" : value instanceof String ? "the string \"" + value + "\"" : value.toString();
        }
        return node instanceof YamlNode.Mapping ? "a mapping" : "a sequence";
    }
}
