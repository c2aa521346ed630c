package io.agentlab.engine.expect;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.agentlab.engine.internal.yaml.Position;
import java.util.ArrayList;
import java.util.List;
import org.apiguardian.api.API;

/** One checkable clause of a turn's {@code expect} block, written under its kind's key. */
@API(status = INTERNAL, since = "0.1")
public interface Expectation {

    /** The key it is written under, e.g. {@code events}. */
    String key();

    /** Where it is written ({@link Position#UNKNOWN} when built in code). */
    Position at();

    /**
     * Adds one line to {@code failures} for each way {@code turn} breaks it, saying what was expected against what
     * happened; the engine prefixes the turn and the position.
     */
    void check(ObservedTurn turn, List<String> failures);

    /** What its kind declares the wire shows of it (docs/wire.md#observability). */
    default Observability observability() {
        return ExpectationKinds.kind(key()).orElseThrow(() -> new IllegalStateException("no expectation kind '"
                + key() + "'")).observability();
    }

    /**
     * Judges it on a turn that ran over the wire (docs/wire.md#observability): what the wire shows is checked as
     * {@link #check} checks it, what it cannot show is named with its reason. This default serves a kind the wire
     * shows wholly or not at all; a kind with parts it shows only in part judges itself.
     *
     * @throws IllegalStateException for a kind that declares parts and does not judge them itself
     */
    default WireJudgement overTheWire(ObservedTurn turn) {
        Observability declared = observability();
        if (declared.wholly()) {
            return new WireJudgement.NotObservable(List.of(new WireJudgement.Unseen(key(), "", declared.why(""))));
        }
        if (declared.partial()) {
            throw new IllegalStateException("'" + key() + "' declares parts the wire does not show, so it must judge "
                    + "them itself");
        }
        List<String> failures = new ArrayList<>();
        check(turn, failures);
        return new WireJudgement.Judged(failures, List.of());
    }

    /**
     * Why nothing of it can be judged over the wire whatever the turn does (a test with nothing else is skipped,
     * docs/wire.md#observability); empty when something of it can be.
     */
    default List<WireJudgement.Unseen> neverObservable() {
        Observability declared = observability();
        return declared.wholly() ? List.of(new WireJudgement.Unseen(key(), "", declared.why(""))) : List.of();
    }
}
