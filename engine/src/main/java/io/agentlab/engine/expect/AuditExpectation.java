package io.agentlab.engine.expect;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.agentlab.engine.internal.execution.TurnRun;
import io.agentlab.engine.internal.yaml.Position;
import io.agentlab.agui.AguiEvent;
import java.util.List;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * {@code audit}: AG-UI event types that must appear in this order, others allowed between them.
 *
 * @param types the types, in order
 * @param at    where it is written
 */
@API(status = INTERNAL, since = "0.1")
public record AuditExpectation(List<String> types, Position at) implements Expectation {

    /** The kind. */
    public static final ExpectationKind KIND = ExpectationKind.of("audit",
            Observability.seen("the AG-UI stream as received"),
            (value, reading) ->
            Optional.of(new AuditExpectation(value.strings(), value.where())));

    /** Copies the list. */
    public AuditExpectation {
        types = List.copyOf(types);
    }

    @Override
    public String key() {
        return KIND.key();
    }

    @Override
    public void check(ObservedTurn turn, List<String> failures) {
        if (types.isEmpty()) {
            return;
        }
        List<String> actual = turn.result().audit().stream().map(AguiEvent::type).toList();
        int at = 0;
        for (String type : actual) {
            if (at < types.size() && types.get(at).equals(type)) {
                at++;
            }
        }
        if (at < types.size()) {
            failures.add("expected the AG-UI stream to contain " + types + " in order, but " + types.get(at) + " (item "
                    + (at + 1) + ") never came after " + (at == 0 ? "the start" : types.get(at - 1))
                    + "; the stream was " + actual);
        }
    }
}
