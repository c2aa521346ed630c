package io.agentlab.engine.expect;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.agentlab.engine.internal.yaml.Position;
import java.util.List;
import org.apiguardian.api.API;

/**
 * {@code answers}: how many ChatAgent answers the user saw (the first and the follow-up), exactly or within bounds.
 *
 * @param count the allowed count
 * @param at    where it is written
 */
@API(status = INTERNAL, since = "0.1")
public record AnswersExpectation(Count count, Position at) implements Expectation {

    /** The kind. */
    public static final ExpectationKind KIND = ExpectationKind.of("answers",
            Observability.seen("the text messages of the `chat` and `follow_up` steps"),
            (value, reading) -> Count.read(value)
            .map(count -> new AnswersExpectation(count, value.where())));

    @Override
    public String key() {
        return KIND.key();
    }

    @Override
    public void check(ObservedTurn turn, List<String> failures) {
        int actual = (turn.result().firstAnswer().isBlank() ? 0 : 1) + (turn.result().followUp().isPresent() ? 1 : 0);
        if (!count.allows(actual)) {
            failures.add("expected " + count.describe() + " ChatAgent answer(s) but the user saw " + actual);
        }
    }
}
