package io.agentlab.engine.expect;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.agentlab.engine.internal.yaml.Position;
import java.util.List;
import org.apiguardian.api.API;

/**
 * {@code sessionEnded}: whether the session has ended after the turn.
 *
 * @param ended the expected state
 * @param at    where it is written
 */
@API(status = INTERNAL, since = "0.1")
public record SessionEndedExpectation(boolean ended, Position at) implements Expectation {

    /** The kind. */
    public static final ExpectationKind KIND = ExpectationKind.of("sessionEnded",
            Observability.seen("whether a terminal event succeeded, from its tool result"),
            (value, reading) -> value.bool()
            .map(ended -> new SessionEndedExpectation(ended, value.where())));

    @Override
    public String key() {
        return KIND.key();
    }

    @Override
    public void check(ObservedTurn turn, List<String> failures) {
        if (ended != turn.sessionEnded()) {
            failures.add("expected the session " + (ended ? "to have ended" : "to stay open") + " but it "
                    + (turn.sessionEnded() ? "ended" : "stayed open"));
        }
    }
}
