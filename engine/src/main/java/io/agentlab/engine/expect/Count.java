package io.agentlab.engine.expect;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.agentlab.engine.internal.yaml.Node;
import io.agentlab.engine.internal.yaml.YamlNode;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * A count an expectation allows: exactly {@code n}, or a bound — at least, at most, or both. YAML: {@code 2},
 * {@code {atMost: 2}}, {@code {atLeast: 1, atMost: 3}}.
 *
 * @param atLeast the smallest allowed
 * @param atMost  the largest allowed, when bounded
 */
@API(status = INTERNAL, since = "0.1")
public record Count(int atLeast, Optional<Integer> atMost) {

    /**
     * Checks the bounds.
     *
     * @throws IllegalArgumentException for a negative bound or {@code atLeast > atMost}
     */
    public Count {
        if (atLeast < 0 || atMost.orElse(0) < 0) {
            throw new IllegalArgumentException("a count is 0 or more");
        }
        if (atMost.isPresent() && atLeast > atMost.get()) {
            throw new IllegalArgumentException("atLeast " + atLeast + " is more than atMost " + atMost.get());
        }
    }

    /** Exactly {@code n}. */
    public static Count exactly(int n) {
        return new Count(n, Optional.of(n));
    }

    /** At most {@code n}. */
    public static Count atMost(int n) {
        return new Count(0, Optional.of(n));
    }

    /** At least {@code n}. */
    public static Count atLeast(int n) {
        return new Count(n, Optional.empty());
    }

    /** Whether {@code actual} is allowed. */
    public boolean allows(long actual) {
        return actual >= atLeast && atMost.map(max -> actual <= max).orElse(true);
    }

    /** How it reads in a message: {@code 2}, {@code at most 2}, {@code at least 1}, {@code 1 to 3}. */
    public String describe() {
        if (atMost.isEmpty()) {
            return "at least " + atLeast;
        }
        int max = atMost.get();
        return atLeast == max ? Integer.toString(max) : atLeast == 0 ? "at most " + max : atLeast + " to " + max;
    }

    /** Reads {@code n} or {@code {atLeast, atMost}} (at least one of them). */
    public static Optional<Count> read(Node node) {
        if (node.yaml() instanceof YamlNode.Mapping) {
            Optional<Integer> least = node.integer("atLeast");
            Optional<Integer> most = node.integer("atMost");
            if (least.isEmpty() && most.isEmpty()) {
                node.problem("a bound needs atLeast, atMost or both");
                return Optional.empty();
            }
            try {
                return Optional.of(new Count(least.orElse(0), most));
            } catch (IllegalArgumentException e) {
                node.problem(e.getMessage());
                return Optional.empty();
            }
        }
        return node.integer().flatMap(n -> {
            if (n < 0) {
                node.problem("a count is 0 or more, was " + n);
                return Optional.empty();
            }
            return Optional.of(exactly(n));
        });
    }
}
