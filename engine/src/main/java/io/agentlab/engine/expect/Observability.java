package io.agentlab.engine.expect;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * What a kind of expectation needs that a runtime over the wire cannot show (docs/wire.md#observability), declared
 * by the kind itself ({@link ExpectationKind#observability()}): how the kit judges it from outside, the parts it judges
 * only when the stream carries them, and the parts it cannot judge at all, each with why. docs/wire.md's table is
 * generated from these declarations, so the page and the code cannot drift.
 *
 * @param seen        how the kit judges the kind from outside; empty for a kind the wire cannot show at all
 * @param whenCarried parts judged only when the stream carries them (otherwise not observable)
 * @param blind       parts never observable over the wire; for a kind not observable at all, one group without parts
 */
@API(status = INTERNAL, since = "0.1")
public record Observability(Optional<String> seen, List<Parts> whenCarried, List<Parts> blind) {

    /** Copies the lists; a kind is judged somehow, or wholly blind with a reason. */
    public Observability {
        Objects.requireNonNull(seen, "seen");
        whenCarried = List.copyOf(whenCarried);
        blind = List.copyOf(blind);
        if (seen.isEmpty() && (blind.size() != 1 || !blind.get(0).names().isEmpty() || !whenCarried.isEmpty())) {
            throw new IllegalArgumentException("a kind the wire cannot show at all has one reason and no parts");
        }
    }

    /**
     * Some parts of a kind (sub-fields of what a suite writes under its key) and why they are judged only when
     * carried, or not at all.
     *
     * @param names the parts, as a suite writes them; empty: the whole kind
     * @param why   the reason, as the report and docs/wire.md give it
     */
    public record Parts(List<String> names, String why) {
        /** Copies the names. */
        public Parts {
            names = List.copyOf(names);
            Objects.requireNonNull(why, "why");
        }
    }

    /** A kind the kit judges over the wire, wholly, from {@code how}. */
    public static Observability seen(String how) {
        return new Observability(Optional.of(how), List.of(), List.of());
    }

    /** A kind the wire cannot show at all, because of {@code why}. */
    public static Observability notObservable(String why) {
        return new Observability(Optional.empty(), List.of(), List.of(new Parts(List.of(), why)));
    }

    /** The same, with {@code parts} judged only when the stream carries them ({@code why} says when). */
    public Observability whenCarried(String why, String... parts) {
        List<Parts> more = new ArrayList<>(whenCarried);
        more.add(new Parts(List.of(parts), why));
        return new Observability(seen, more, blind);
    }

    /** The same, with {@code parts} never observable over the wire, because of {@code why}. */
    public Observability except(String why, String... parts) {
        List<Parts> more = new ArrayList<>(blind);
        more.add(new Parts(List.of(parts), why));
        return new Observability(seen, whenCarried, more);
    }

    /** Whether the wire shows nothing of the kind. */
    public boolean wholly() {
        return seen.isEmpty();
    }

    /** Whether some parts are judged conditionally or not at all (the kind then judges itself part by part). */
    public boolean partial() {
        return seen.isPresent() && !(whenCarried.isEmpty() && blind.isEmpty());
    }

    /**
     * Why {@code part} is judged only when carried, or not at all ({@code ""}: the whole kind).
     *
     * @throws IllegalArgumentException when the kind declares no such part
     */
    public String why(String part) {
        for (List<Parts> groups : List.of(whenCarried, blind)) {
            for (Parts group : groups) {
                if (part.isEmpty() ? group.names().isEmpty() : group.names().contains(part)) {
                    return group.why();
                }
            }
        }
        throw new IllegalArgumentException("no part '" + part + "' is declared not observable");
    }

    /** The sentence docs/wire.md's table gives the kind (docs/wire.md#observability). */
    public String describe() {
        if (wholly()) {
            return "not observable: " + blind.get(0).why();
        }
        StringBuilder text = new StringBuilder(seen.get());
        for (Parts group : whenCarried) {
            text.append("; ").append(names(group)).append(" only ").append(group.why());
        }
        for (Parts group : blind) {
            text.append("; ").append(names(group)).append(" not observable (").append(group.why()).append(')');
        }
        return text.toString();
    }

    private static String names(Parts group) {
        List<String> quoted = group.names().stream().map(name -> "`" + name + "`").toList();
        return quoted.size() == 1 ? quoted.get(0) : String.join(", ", quoted.subList(0, quoted.size() - 1)) + " and "
                + quoted.get(quoted.size() - 1);
    }
}
