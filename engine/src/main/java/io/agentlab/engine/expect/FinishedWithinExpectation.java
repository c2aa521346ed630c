package io.agentlab.engine.expect;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.agentlab.engine.internal.yaml.Durations;
import io.agentlab.engine.internal.yaml.Position;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * {@code finishedWithin}: the turn's wall time (first model call to last result) is at most this long. It is a bound
 * for liveness, not a speed test: choose it an order of magnitude above what the turn needs and well below what the
 * broken behaviour takes (a handler that is never interrupted holds the turn until the batch deadline), so a busy
 * machine cannot change the verdict.
 *
 * @param limit the longest the turn may take
 * @param at    where it is written
 */
@API(status = INTERNAL, since = "0.1")
public record FinishedWithinExpectation(Duration limit, Position at) implements Expectation {

    /** The kind. */
    public static final ExpectationKind KIND = ExpectationKind.of("finishedWithin",
            Observability.seen("from the POST to the stream's end, on the kit's clock"),
            (value, reading) -> value.text()
            .flatMap(text -> {
                try {
                    Duration limit = Durations.parse(text);
                    if (limit.isZero()) {
                        value.problem("a time bound must be positive");
                        return Optional.empty();
                    }
                    return Optional.of(new FinishedWithinExpectation(limit, value.where()));
                } catch (IllegalArgumentException e) {
                    value.problem(e.getMessage());
                    return Optional.empty();
                }
            }));

    @Override
    public String key() {
        return KIND.key();
    }

    @Override
    public void check(ObservedTurn turn, List<String> failures) {
        Duration took = turn.result().metrics().turnWallTime();
        if (took.compareTo(limit) > 0) {
            failures.add("expected the turn to finish within " + limit.toMillis() + " ms but it took " + took.toMillis()
                    + " ms (wall time)");
        }
    }
}
