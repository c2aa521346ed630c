package io.agentlab.engine.expect;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.agentlab.engine.internal.yaml.Node;
import io.agentlab.engine.internal.yaml.Position;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * {@code anyOf}: alternatives, for a rule with more than one right answer ("a clarification or a rejection"): the turn
 * passes when every expectation of at least one alternative holds. Each alternative is a whole {@code expect} block.
 *
 * @param alternatives two or more blocks
 * @param at           where it is written
 */
@API(status = INTERNAL, since = "0.1")
public record AnyOfExpectation(List<Expectations> alternatives, Position at) implements Expectation {

    /** The kind. */
    public static final ExpectationKind KIND = ExpectationKind.of("anyOf",
            Observability.seen("as its alternatives: it holds when an alternative the wire shows wholly holds, fails "
            + "when every alternative fails on what the wire shows, and is otherwise not observable"),
            AnyOfExpectation::read);

    /**
     * Copies the list.
     *
     * @throws IllegalArgumentException with fewer than two alternatives or an empty one
     */
    public AnyOfExpectation {
        alternatives = List.copyOf(alternatives);
        if (alternatives.size() < 2) {
            throw new IllegalArgumentException("anyOf needs at least two alternatives, was " + alternatives.size());
        }
        if (alternatives.stream().anyMatch(alternative -> alternative.items().isEmpty())) {
            throw new IllegalArgumentException("an alternative of anyOf expects nothing, so it always holds");
        }
    }

    @Override
    public String key() {
        return KIND.key();
    }

    private static Optional<Expectation> read(Node value, ExpectationReading reading) {
        List<Expectations> alternatives = new ArrayList<>();
        for (Node item : value.items()) {
            alternatives.add(reading.block(item));
        }
        try {
            return Optional.of(new AnyOfExpectation(alternatives, value.where()));
        } catch (IllegalArgumentException e) {
            value.problem(e.getMessage());
            return Optional.empty();
        }
    }

    /**
     * Over the wire, as its alternatives (docs/wire.md#observability): it holds when an alternative the wire shows
     * wholly holds; it fails when every alternative fails on what the wire shows; otherwise an alternative held as far
     * as the wire shows it, and what it could not show decides: not observable.
     */
    @Override
    public WireJudgement overTheWire(ObservedTurn turn) {
        List<String> why = new ArrayList<>();
        List<WireJudgement.Unseen> undecided = new ArrayList<>();
        for (int i = 0; i < alternatives.size(); i++) {
            List<String> failed = new ArrayList<>();
            List<WireJudgement.Unseen> unseen = new ArrayList<>();
            for (Expectation expectation : alternatives.get(i).items()) {
                WireJudgement judged = expectation.overTheWire(turn);
                unseen.addAll(judged.unseen());
                if (judged instanceof WireJudgement.Judged seen) {
                    failed.addAll(seen.failures());
                }
            }
            if (failed.isEmpty() && unseen.isEmpty()) {
                return new WireJudgement.Judged(List.of(), List.of());
            }
            if (failed.isEmpty()) {
                int alternative = i + 1;
                unseen.forEach(part -> undecided.add(new WireJudgement.Unseen(part.key(), "(anyOf alternative "
                        + alternative + ")" + (part.part().isEmpty() ? "" : " " + part.part()), part.why())));
            } else {
                why.add("alternative " + (i + 1) + ": " + String.join("; ", failed));
            }
        }
        if (!undecided.isEmpty()) {
            return new WireJudgement.NotObservable(undecided);
        }
        return new WireJudgement.Judged(List.of("expected one of " + alternatives.size() + " alternatives to hold, but "
                + "none did — " + String.join(" | ", why)), List.of());
    }

    /** Nothing of it is observable when no alternative has anything observable (docs/wire.md#observability). */
    @Override
    public List<WireJudgement.Unseen> neverObservable() {
        List<WireJudgement.Unseen> never = new ArrayList<>();
        for (Expectations alternative : alternatives) {
            for (Expectation expectation : alternative.items()) {
                List<WireJudgement.Unseen> blind = expectation.neverObservable();
                if (blind.isEmpty()) {
                    return List.of();
                }
                never.addAll(blind);
            }
        }
        return never;
    }

    @Override
    public void check(ObservedTurn turn, List<String> failures) {
        List<String> why = new ArrayList<>();
        for (int i = 0; i < alternatives.size(); i++) {
            List<String> failed = new ArrayList<>();
            for (Expectation expectation : alternatives.get(i).items()) {
                expectation.check(turn, failed);
            }
            if (failed.isEmpty()) {
                return;
            }
            why.add("alternative " + (i + 1) + ": " + String.join("; ", failed));
        }
        failures.add("expected one of " + alternatives.size() + " alternatives to hold, but none did — "
                + String.join(" | ", why));
    }
}
