package io.agentlab.engine.expect;

import io.agentlab.engine.execution.TurnRun;
import io.agentlab.engine.suite.Position;
import java.util.List;

/**
 * {@code auditValid}: the turn's AG-UI stream passes every rule of the run's profile, as SSE frames encoded and
 * decoded, checked with the case's earlier turns as one thread ({@link TurnRun#auditViolations()}). {@code false}
 * checks nothing.
 *
 * @param valid whether the stream is checked
 * @param at    where it is written
 */
public record AuditValidExpectation(boolean valid, Position at) implements Expectation {

    /** The kind. */
    public static final ExpectationKind KIND = ExpectationKind.of("auditValid", (value, reading) -> value.bool()
            .map(valid -> new AuditValidExpectation(valid, value.where())));

    @Override
    public String key() {
        return KIND.key();
    }

    @Override
    public void check(TurnRun turn, List<String> failures) {
        if (!valid) {
            return;
        }
        failures.addAll(turn.auditViolations());
    }
}
