package io.agentlab.engine.expect;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.agentlab.engine.internal.yaml.Position;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * {@code portCalls}: per event name, how many handler calls reached its port (a retry is a second call), exactly or
 * within bounds.
 *
 * @param calls the allowed count per event
 * @param at    where it is written
 */
@API(status = INTERNAL, since = "0.1")
public record PortCallsExpectation(Map<String, Count> calls, Position at) implements Expectation {

    /** The kind. */
    public static final ExpectationKind KIND = ExpectationKind.of("portCalls",
            Observability.seen("the calls the port stand-ins received"),
            (value, reading) -> {
        Map<String, Count> calls = new LinkedHashMap<>();
        value.entries().forEach((name, node) -> {
            reading.checkEvent(value.keyAt(name), node.path(), name);
            Count.read(node).ifPresent(count -> calls.put(name, count));
        });
        return Optional.of(new PortCallsExpectation(calls, value.where()));
    });

    /** Copies the map, keeping its order. */
    public PortCallsExpectation {
        calls = Collections.unmodifiableMap(new LinkedHashMap<>(calls));
    }

    @Override
    public String key() {
        return KIND.key();
    }

    @Override
    public void check(ObservedTurn turn, List<String> failures) {
        calls.forEach((name, count) -> {
            int actual = turn.calls(name).size();
            if (!count.allows(actual)) {
                failures.add("expected " + count.describe() + " port call(s) for " + name + " but there were "
                        + actual);
            }
        });
    }
}
