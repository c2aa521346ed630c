package io.agentlab.engine.expect;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apiguardian.api.API;

/**
 * Everything a turn expects, one {@link Expectation} per key, in the order they are checked. Build one in code with
 * {@link #builder()}; {@link Builder#build()} refuses a key given twice.
 *
 * @param items the expectations
 */
@API(status = INTERNAL, since = "0.1")
public record Expectations(List<Expectation> items) {

    /** Copies the list. */
    public Expectations {
        items = List.copyOf(items);
    }

    /** Nothing checked (a turn whose error must still be none). */
    public static Expectations none() {
        return new Expectations(List.of());
    }

    /** Starts a set of expectations. */
    public static Builder builder() {
        return new Builder();
    }

    /** The expectation of that type, when written. */
    public <T extends Expectation> Optional<T> find(Class<T> type) {
        return items.stream().filter(type::isInstance).map(type::cast).findFirst();
    }

    /** The events the turn expects by name, in order, when {@code events} says (selection metrics use them). */
    public Optional<List<String>> expectedEvents() {
        return find(EventsExpectation.class).map(events -> events.events().stream()
                .map(EventsExpectation.EventExpectation::name).toList());
    }

    /** Whether an {@code error} is written here or in a nested alternative (then no implicit "no error" applies). */
    public boolean declaresError() {
        return items.stream().anyMatch(item -> item instanceof ErrorExpectation
                || item instanceof AnyOfExpectation any && any.alternatives().stream()
                .anyMatch(Expectations::declaresError));
    }

    /** Collects expectations. */
    public static final class Builder {
        private final List<Expectation> items = new ArrayList<>();

        private Builder() {
        }

        /** Adds one. */
        public Builder add(Expectation expectation) {
            items.add(expectation);
            return this;
        }

        /**
         * The expectations.
         *
         * @throws IllegalArgumentException when a key is given twice
         */
        public Expectations build() {
            Set<String> keys = new LinkedHashSet<>();
            for (Expectation item : items) {
                if (!keys.add(item.key())) {
                    throw new IllegalArgumentException("expectation '" + item.key() + "' is given twice");
                }
            }
            return new Expectations(items);
        }
    }
}
