package io.agentlab.engine.expect;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.agentlab.engine.internal.yaml.Node;
import io.agentlab.engine.internal.yaml.Position;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * {@code firstVisibleBefore}: the first visible text reached the user before each named event's handler returned
 * ({@code docs/design.md#modes-first-answer-first}). Judged on the handler log's ticks — the engine ticks the same
 * counter when the first visible delta arrives — so it is a happens-before fact, not a comparison of clocks.
 *
 * @param events the events whose handlers must return after the first visible text
 * @param at     where it is written
 */
@API(status = INTERNAL, since = "0.1")
public record FirstVisibleBeforeExpectation(List<String> events, Position at) implements Expectation {

    /** The kind. */
    public static final ExpectationKind KIND = ExpectationKind.of("firstVisibleBefore",
            Observability.seen("the first text delta's arrival at the kit against the port "
            + "calls' answers, on the stand-ins' counter"),
            (value, reading) -> {
        List<String> events = new ArrayList<>();
        for (Node item : value.items()) {
            item.text().ifPresent(name -> {
                reading.checkEvent(item, name);
                events.add(name);
            });
        }
        return Optional.of(new FirstVisibleBeforeExpectation(events, value.where()));
    });

    /** Copies the list. */
    public FirstVisibleBeforeExpectation {
        events = List.copyOf(events);
    }

    @Override
    public String key() {
        return KIND.key();
    }

    @Override
    public void check(ObservedTurn turn, List<String> failures) {
        for (String event : events) {
            List<HandlerCall> calls = turn.calls(event);
            String expected = "expected the first visible text before " + event + "'s handler returned, but ";
            if (calls.isEmpty()) {
                failures.add(expected + "its handler never ran");
            } else if (turn.firstVisibleTick() < 0) {
                failures.add(expected + "no visible text reached the user in this turn");
            } else if (calls.stream().anyMatch(call -> call.endTick() >= 0 && call.endTick() < turn.firstVisibleTick())) {
                failures.add(expected + "the user saw nothing until after it returned (visible text \""
                        + turn.visibleText() + "\")");
            }
        }
    }
}
