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
 * {@code portState}: per event name, what its plugin's port holds after the turn ({@code PortState}, e.g. the
 * calendar's entries), matched on what is written: mappings on the keys given, lists item by item with the same
 * length, so {@code entries: [{time: "09:00"}, {time: "10:00"}]} says exactly two entries, at those times.
 *
 * @param states the expected state per event name
 * @param at     where it is written
 */
@API(status = INTERNAL, since = "0.1")
public record PortStateExpectation(Map<String, Map<String, Object>> states, Position at) implements Expectation {

    /** The kind. */
    public static final ExpectationKind KIND = ExpectationKind.of("portState",
            Observability.seen("the port stand-ins' state, read through the plugins' in-memory adapters behind them"),
            (value, reading) -> {
        Map<String, Map<String, Object>> states = new LinkedHashMap<>();
        value.entries().forEach((name, node) -> {
            reading.checkEvent(value.keyAt(name), node.path(), name);
            node.object().ifPresent(state -> states.put(name, state));
        });
        return Optional.of(new PortStateExpectation(states, value.where()));
    });

    /** Copies the map, keeping its order. */
    public PortStateExpectation {
        states = Collections.unmodifiableMap(new LinkedHashMap<>(states));
    }

    @Override
    public String key() {
        return KIND.key();
    }

    @Override
    public void check(ObservedTurn turn, List<String> failures) {
        states.forEach((name, expected) -> {
            Map<String, Object> actual = turn.portStates().get(name);
            if (actual == null) {
                failures.add("expected the port state of " + name + ", but its plugin shows none "
                        + "(EventPlugin.portState() is empty)");
                return;
            }
            JsonMatch.mismatch(expected, actual, "").ifPresent(mismatch -> failures.add("expected the port of " + name
                    + " to hold " + JsonMatch.write(expected) + " but " + mismatch + " (it holds "
                    + JsonMatch.write(actual) + ")"));
        });
    }
}
