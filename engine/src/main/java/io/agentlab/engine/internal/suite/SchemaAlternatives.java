package io.agentlab.engine.internal.suite;

import com.networknt.schema.Error;
import com.networknt.schema.path.NodePath;
import io.agentlab.kernel.reference.SchemaMessages;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import tools.jackson.databind.JsonNode;

/**
 * One problem for one value that fits none of a {@code oneOf}'s or {@code anyOf}'s forms, where the validator reports
 * the combinator and every form's errors apart: three lines for {@code answers: one}
 * (docs/suite-format.md#alternatives-in-the-schema). A value whose JSON type fits exactly one form is judged by that
 * form alone; otherwise the forms' errors become one line at the value.
 */
final class SchemaAlternatives {

    private SchemaAlternatives() {
    }

    /**
     * A validation error as discovery reports it.
     *
     * @param error    the validator's error (for a folded alternative, its own or its first form's)
     * @param path     the schema's evaluation path that led to {@code location} (a folded alternative's ends in its
     *                 keyword)
     * @param location the value the problem concerns
     * @param property an unknown key of that value to point at, or null
     * @param message  what the problem line says
     */
    record Reported(Error error, String path, NodePath location, String property, String message) {
    }

    /** The errors of one validation, each failed alternative folded as the class says. */
    static List<Reported> fold(List<Error> errors) {
        List<Reported> reported = new ArrayList<>();
        Set<String> alternatives = new HashSet<>();
        for (Error error : errors) {
            reported.add(new Reported(error, error.getEvaluationPath().toString(), error.getInstanceLocation(),
                    error.getProperty(), describe(error)));
            alternatives.addAll(alternativesAbove(error.getEvaluationPath().toString()));
        }
        // the innermost first: an alternative inside a form is one entry of that form by the time the outer is folded
        List<String> innermostFirst = alternatives.stream()
                .sorted(Comparator.comparingInt(String::length).reversed().thenComparing(Comparator.naturalOrder()))
                .toList();
        for (String alternative : innermostFirst) {
            reported = fold(reported, alternative);
        }
        return reported;
    }

    /** The evaluation paths of the {@code oneOf}s and {@code anyOf}s a path goes through into one of their forms. */
    private static List<String> alternativesAbove(String path) {
        List<String> found = new ArrayList<>();
        String[] segments = path.split("/");
        StringBuilder prefix = new StringBuilder();
        for (int i = 0; i < segments.length; i++) {
            if (i > 0) {
                prefix.append('/');
            }
            prefix.append(segments[i]);
            if (("oneOf".equals(segments[i]) || "anyOf".equals(segments[i])) && i + 1 < segments.length
                    && isIndex(segments[i + 1])) {
                found.add(prefix.toString());
            }
        }
        return found;
    }

    /** Whether a path segment is a form's index (a property of a schema may be named oneOf or anyOf too). */
    private static boolean isIndex(String segment) {
        return !segment.isEmpty() && segment.chars().allMatch(Character::isDigit);
    }

    /**
     * Folds every value the alternative at {@code alternative} failed for: one schema path, as many values as the
     * document has places it applies to (each turn's {@code answers}).
     */
    private static List<Reported> fold(List<Reported> reported, String alternative) {
        String prefix = alternative + "/";
        Map<NodePath, Failure> failures = new LinkedHashMap<>();
        for (Reported entry : reported) {
            if (entry.path().equals(alternative)) {
                failures.computeIfAbsent(entry.location(), value -> new Failure()).combinator = entry;
            } else if (entry.path().startsWith(prefix)) {
                String[] rest = entry.path().substring(prefix.length()).split("/");
                NodePath value = entry.location();
                for (int steps = instanceSteps(rest); steps > 0 && value != null; steps--) {
                    value = value.getParent();
                }
                if (value == null) {
                    return reported; // not a path this fold understands: left as the validator wrote it
                }
                if (!isIndex(rest[0])) {
                    return reported;
                }
                failures.computeIfAbsent(value, at -> new Failure()).forms
                        .computeIfAbsent(Integer.parseInt(rest[0]), index -> new ArrayList<>()).add(entry);
            }
        }
        for (Map.Entry<NodePath, Failure> failure : failures.entrySet()) {
            reported = fold(reported, alternative, failure.getKey(), failure.getValue());
        }
        return reported;
    }

    /**
     * How many levels below the alternative's value a form's error lies: the keywords on its path after the form's
     * index that step into a property or an item (the last segment is the keyword that failed, which steps nowhere).
     */
    private static int instanceSteps(String[] rest) {
        int steps = 0;
        for (int i = 1; i < rest.length - 1; i++) {
            switch (rest[i]) {
                case "properties", "patternProperties", "prefixItems" -> {
                    steps++;
                    i++; // the property's name, the pattern or the index
                }
                case "items", "additionalProperties", "unevaluatedProperties", "unevaluatedItems", "contains" ->
                        steps++;
                case "allOf", "anyOf", "oneOf", "dependentSchemas" -> i++; // the same value, through a subschema
                default -> {
                    // $ref, if, then, else, not: the same value
                }
            }
        }
        return steps;
    }

    /** One value's failure of one alternative: the combinator's own error (a {@code oneOf} has one) and its forms'. */
    private static final class Failure {
        Reported combinator;
        final Map<Integer, List<Reported>> forms = new TreeMap<>();
    }

    private static List<Reported> fold(List<Reported> reported, String alternative, NodePath at, Failure failure) {
        Reported combinator = failure.combinator;
        Map<Integer, List<Reported>> forms = failure.forms;
        if (forms.isEmpty() || combinator != null && !noneValid(combinator.error())) {
            return reported; // a oneOf that several forms passed says so itself
        }
        List<List<Reported>> fitting = forms.values().stream()
                .filter(form -> form.stream().noneMatch(entry -> wrongType(entry, at))).toList();
        Reported first = combinator != null ? combinator : forms.values().iterator().next().get(0);
        List<Reported> replacement = fitting.size() == 1 ? fitting.get(0)
                : List.of(new Reported(first.error(), alternative, at, null,
                        combined(List.copyOf(forms.values()), at)));
        List<Reported> folded = new ArrayList<>();
        boolean placed = false;
        for (Reported entry : reported) {
            boolean member = entry == combinator || forms.values().stream().anyMatch(form -> form.contains(entry));
            if (!member) {
                folded.add(entry);
            } else if (!placed) {
                folded.addAll(replacement); // where the alternative's first line was
                placed = true;
            }
        }
        return folded;
    }

    /** A {@code oneOf} that no form passed (not one that several passed); an {@code anyOf} reports no error itself. */
    private static boolean noneValid(Error error) {
        return "oneOf".equals(error.getKeyword()) && error.getArguments() != null && error.getArguments().length > 0
                && "0".equals(String.valueOf(error.getArguments()[0]));
    }

    /**
     * An error saying the value itself has another JSON type than the form: a failed {@code type}, or an {@code enum}
     * or {@code const} none of whose values has the value's type (a list where the form names strings). Such a form
     * is not the one the user wrote.
     */
    private static boolean wrongType(Reported entry, NodePath at) {
        if (!entry.location().equals(at)) {
            return false;
        }
        // a folded inner alternative keeps an error to place it by, but its path ends in oneOf or anyOf
        String keyword = entry.path().substring(entry.path().lastIndexOf('/') + 1);
        if (!keyword.equals(entry.error().getKeyword())) {
            return false;
        }
        JsonNode value = entry.error().getInstanceNode();
        JsonNode allowed = entry.error().getSchemaNode();
        return switch (keyword) {
            case "type" -> true;
            case "enum" -> value != null && allowed != null && allowed.isArray()
                    && allowed.valueStream().noneMatch(choice -> sameType(choice, value));
            case "const" -> value != null && allowed != null && !sameType(allowed, value);
            default -> false;
        };
    }

    private static boolean sameType(JsonNode a, JsonNode b) {
        return a.getNodeType() == b.getNodeType();
    }

    /**
     * The forms' errors as one line: "string found, integer or object expected" when every form wants another type,
     * else each form's first error ("form 1: …; form 2: …"), a deeper one with its key below the value.
     */
    private static String combined(List<List<Reported>> forms, NodePath at) {
        if (forms.stream().allMatch(form -> form.size() == 1 && wrongType(form.get(0), at)
                && "type".equals(form.get(0).error().getKeyword())
                && form.get(0).error().getArguments() != null && form.get(0).error().getArguments().length == 2)) {
            Object found = forms.get(0).get(0).error().getArguments()[0];
            return found + " found, " + forms.stream()
                    .map(form -> String.valueOf(form.get(0).error().getArguments()[1])).distinct()
                    .collect(Collectors.joining(" or ")) + " expected";
        }
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < forms.size(); i++) {
            Reported first = forms.get(i).get(0);
            StringBuilder key = new StringBuilder();
            for (int name = at.getNameCount(); name < first.location().getNameCount(); name++) {
                Object element = first.location().getElement(name);
                key.append(element instanceof Integer index ? "[" + index + "]"
                        : (key.isEmpty() ? "" : ".") + element);
            }
            lines.add("form " + (i + 1) + ": " + (key.isEmpty() ? "" : key + ": ") + first.message());
        }
        return "fits none of the " + forms.size() + " forms it may take (" + String.join("; ", lines) + ")";
    }

    private static String describe(Error error) {
        String text = SchemaMessages.message(error);
        return switch (error.getKeyword()) {
            case "additionalProperties" -> "unknown key '" + error.getProperty() + "'; " + text;
            default -> text;
        };
    }
}
