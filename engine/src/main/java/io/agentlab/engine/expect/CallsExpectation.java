package io.agentlab.engine.expect;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.agentlab.engine.internal.yaml.Position;
import io.agentlab.engine.internal.yaml.RoleNames;
import io.agentlab.runtime.CallRecord;
import io.agentlab.runtime.llm.CallRole;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * {@code calls}: model calls per role ({@code chat}, {@code eventAgent}, {@code followUp}), each exactly or within
 * bounds.
 *
 * @param calls the allowed count per role
 * @param at    where it is written
 */
@API(status = INTERNAL, since = "0.1")
public record CallsExpectation(Map<CallRole, Count> calls, Position at) implements Expectation {

    /** The kind. */
    public static final ExpectationKind KIND = ExpectationKind.of("calls",
            Observability.seen("the provider requests the kit's replay received during the turn, by role"),
            (value, reading) -> {
        Map<CallRole, Count> calls = new EnumMap<>(CallRole.class);
        value.entries().forEach((key, node) -> {
            Optional<CallRole> role = RoleNames.role(key);
            if (role.isEmpty()) {
                value.problemAt(key, "unknown call role '" + key + "'; expected chat, eventAgent or followUp");
                return;
            }
            Count.read(node).ifPresent(count -> calls.put(role.get(), count));
        });
        return Optional.of(new CallsExpectation(calls, value.where()));
    });

    /** Copies the map. */
    public CallsExpectation {
        calls = Map.copyOf(calls);
    }

    @Override
    public String key() {
        return KIND.key();
    }

    @Override
    public void check(ObservedTurn turn, List<String> failures) {
        new EnumMap<>(calls).forEach((role, count) -> {
            long actual = turn.result().calls().stream().map(CallRecord::role).filter(role::equals).count();
            if (!count.allows(actual)) {
                failures.add("expected " + count.describe() + " " + role.wireName() + " call(s) but there were "
                        + actual);
            }
        });
    }
}
