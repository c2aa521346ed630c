package io.agentlab.engine.expect;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.agentlab.engine.internal.yaml.Position;
import java.util.List;
import org.apiguardian.api.API;

/**
 * {@code auditValid}: the turn's AG-UI stream passes every rule of the run's profile, as SSE frames encoded and
 * decoded, checked with the case's earlier turns as one thread ({@link ObservedTurn#auditViolations()}). {@code false}
 * checks nothing.
 *
 * @param valid whether the stream is checked
 * @param at    where it is written
 */
@API(status = INTERNAL, since = "0.1")
public record AuditValidExpectation(boolean valid, Position at) implements Expectation {

    /** The kind. */
    public static final ExpectationKind KIND = ExpectationKind.of("auditValid",
            Observability.seen("the AG-UI stream as received, through the kit's checker (ids "
            + "compared across the case's turns)"),
            (value, reading) -> value.bool()
            .map(valid -> new AuditValidExpectation(valid, value.where())));

    @Override
    public String key() {
        return KIND.key();
    }

    @Override
    public void check(ObservedTurn turn, List<String> failures) {
        if (!valid) {
            return;
        }
        failures.addAll(turn.auditViolations());
    }
}
