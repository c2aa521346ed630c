package io.agentlab.kernel.api.rule;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.apiguardian.api.API;

/**
 * One rule of a conformance catalogue, named as the Reactive Streams TCK names its rules: an id that never changes
 * meaning ({@code PC-06}, {@code AC-CAL-02}, {@code AGUI1-04}), what it checks in snake case, whether it is
 * {@link Level#REQUIRED required} or {@link Level#OPTIONAL optional}, the clause it enforces and one sentence for the
 * catalogue. Its {@link #displayName()} says all of that at once:
 * {@code required_PC-06_resolver_deterministic_and_total}. Each catalogue keeps its ids as constants
 * (docs/api.md#rules).
 *
 * @param id          the rule id, e.g. {@code PC-02}
 * @param name        what it checks, in snake case
 * @param level       whether it may skip
 * @param clause      the clause it enforces: a design anchor ({@code docs/design.md#plugin-catalog-budget}) or the
 *                    upstream definition it is read off ({@code @ag-ui/client 1.0.0 verifyEvents})
 * @param description one sentence for the catalogue
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record Rule(String id, String name, Level level, String clause, String description) {

    /** Whether a rule may skip; the TCK's {@code required_} and {@code optional_} prefixes. */
    public enum Level {
        /** Passes or fails, never skips. */
        REQUIRED,
        /** Passes, fails, or skips saying why when the subject cannot offer what it needs. */
        OPTIONAL;

        /** The display name's prefix: {@code required_} or {@code optional_}. */
        public String prefix() {
            return name().toLowerCase(java.util.Locale.ROOT) + "_";
        }
    }

    /** Rejects nulls and blank ids or names. */
    public Rule {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(level, "level");
        Objects.requireNonNull(clause, "clause");
        Objects.requireNonNull(description, "description");
        if (id.isBlank() || name.isBlank()) {
            throw new IllegalArgumentException("a rule needs an id and a name, was '" + id + "' '" + name + "'");
        }
    }

    /** A required rule. */
    public static Rule required(String id, String name, String clause, String description) {
        return new Rule(id, name, Level.REQUIRED, clause, description);
    }

    /** An optional rule. */
    public static Rule optional(String id, String name, String clause, String description) {
        return new Rule(id, name, Level.OPTIONAL, clause, description);
    }

    /** Whether the rule is required. */
    public boolean required() {
        return level == Level.REQUIRED;
    }

    /** The test's display name, e.g. {@code required_PC-02_catalog_description_within_budget}. */
    public String displayName() {
        return level.prefix() + id + "_" + name;
    }

    /** A failure's message: the display name, the clause, and what broke. */
    public String failureMessage(String message) {
        return displayName() + " (" + clause + "): " + message;
    }

    /**
     * A catalogue: the rules in order, each id once.
     *
     * @throws IllegalArgumentException naming the first id two rules share
     */
    public static List<Rule> catalogue(List<Rule> rules) {
        Set<String> ids = new HashSet<>();
        for (Rule rule : rules) {
            if (!ids.add(rule.id())) {
                throw new IllegalArgumentException("two rules of one catalogue have the id " + rule.id());
            }
        }
        return List.copyOf(rules);
    }
}
