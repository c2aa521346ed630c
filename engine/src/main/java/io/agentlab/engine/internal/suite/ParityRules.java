package io.agentlab.engine.internal.suite;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * How a case's parity node compares free-text arguments ({@code docs/design.md#modes-parity}). Both modes must agree
 * on the normalized batch, but a title or a query may be worded differently by a tools-mode model than the resolver
 * words it; per event argument, a case declares either a normalization both sides go through, or that the argument
 * is ignored. Every other argument, and everything else, must still agree. Build with {@link #builder()}.
 *
 * @param arguments per event name, per argument, its rule
 */
@API(status = INTERNAL, since = "0.1")
public record ParityRules(Map<String, Map<String, Rule>> arguments) {

    /** Copies the maps, keeping their order. */
    public ParityRules {
        Map<String, Map<String, Rule>> copy = new LinkedHashMap<>();
        arguments.forEach((event, rules) -> copy.put(event, Collections.unmodifiableMap(new LinkedHashMap<>(rules))));
        arguments = Collections.unmodifiableMap(copy);
    }

    /** No rule: every argument must agree as it is. */
    public static ParityRules none() {
        return new ParityRules(Map.of());
    }

    /** Starts a set of rules. */
    public static Builder builder() {
        return new Builder();
    }

    /** A normalization of free text, applied to strings only. */
    public enum Normalization {
        /** Lower case (root locale). */
        LOWERCASE,
        /** Leading and trailing white space removed, inner runs folded to one space. */
        WHITESPACE,
        /** Punctuation removed. */
        PUNCTUATION;

        /** How suites write it. */
        public String wireName() {
            return name().toLowerCase(Locale.ROOT);
        }

        /** The normalization a suite names, if any. */
        public static Optional<Normalization> of(String wireName) {
            for (Normalization n : values()) {
                if (n.wireName().equals(wireName)) {
                    return Optional.of(n);
                }
            }
            return Optional.empty();
        }

        String apply(String text) {
            return switch (this) {
                case LOWERCASE -> text.toLowerCase(Locale.ROOT);
                case WHITESPACE -> text.strip().replaceAll("\\s+", " ");
                case PUNCTUATION -> text.replaceAll("\\p{P}", "");
            };
        }
    }

    /**
     * One argument's rule: ignored, or compared after its normalizations.
     *
     * @param ignored        the argument is left out of the comparison
     * @param normalizations applied in order to string values
     */
    public record Rule(boolean ignored, List<Normalization> normalizations) {
        /** Copies the list; a rule ignores or normalizes, not both, not neither. */
        public Rule {
            normalizations = List.copyOf(normalizations);
            if (ignored == !normalizations.isEmpty()) {
                throw new IllegalArgumentException("an argument is either ignored or normalized");
            }
        }
    }

    /**
     * Whether {@code event}'s {@code argument} is left out of the comparison: its value and whether it is there at all
     * (one mode's model may give an argument the other mode's resolver leaves out).
     */
    public boolean ignored(String event, String argument) {
        Rule rule = arguments.getOrDefault(event, Map.of()).get(argument);
        return rule != null && rule.ignored();
    }

    /**
     * The value parity compares for {@code event}'s {@code argument}: the value after its normalizations (only
     * meaningful for an argument that is not {@link #ignored}).
     */
    public Object compared(String event, String argument, Object value) {
        Rule rule = arguments.getOrDefault(event, Map.of()).get(argument);
        if (rule == null || rule.ignored() || !(value instanceof String text)) {
            return value;
        }
        for (Normalization normalization : rule.normalizations()) {
            text = normalization.apply(text);
        }
        return text;
    }

    /** Builds {@link ParityRules}; {@link #build()} refuses an argument given two rules or an empty normalization. */
    public static final class Builder {
        private final Map<String, Map<String, Rule>> arguments = new LinkedHashMap<>();
        private final List<String> problems = new ArrayList<>();

        private Builder() {
        }

        /** Leaves {@code event}'s {@code argument} out of the comparison. */
        public Builder ignore(String event, String argument) {
            return put(event, argument, new Rule(true, List.of()));
        }

        /** Compares {@code event}'s {@code argument} after {@code normalizations}, in order. */
        public Builder normalize(String event, String argument, Normalization... normalizations) {
            if (normalizations.length == 0) {
                problems.add(event + "." + argument + ": a normalization list names at least one");
                return this;
            }
            return put(event, argument, new Rule(false, List.of(normalizations)));
        }

        private Builder put(String event, String argument, Rule rule) {
            Objects.requireNonNull(event, "event");
            Objects.requireNonNull(argument, "argument");
            if (arguments.computeIfAbsent(event, e -> new LinkedHashMap<>()).putIfAbsent(argument, rule) != null) {
                problems.add(event + "." + argument + " has two rules");
            }
            return this;
        }

        /**
         * The rules.
         *
         * @throws IllegalArgumentException naming each argument given two rules or an empty normalization
         */
        public ParityRules build() {
            if (!problems.isEmpty()) {
                throw new IllegalArgumentException(String.join("; ", problems));
            }
            return new ParityRules(arguments);
        }
    }
}
