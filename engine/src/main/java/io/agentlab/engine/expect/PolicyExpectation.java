package io.agentlab.engine.expect;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.agentlab.engine.internal.execution.TurnRun;
import io.agentlab.engine.internal.suite.Position;
import io.agentlab.kernel.api.ContinuationDecision;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apiguardian.api.API;

/**
 * {@code policy}: the continuation decision's kind — {@code end_session}, {@code complete}, {@code follow_up}, or
 * {@code none} when no batch ran.
 *
 * @param policy the expected kind
 * @param at     where it is written
 */
@API(status = INTERNAL, since = "0.1")
public record PolicyExpectation(String policy, Position at) implements Expectation {

    /** The kinds a suite may write. */
    public static final Set<String> POLICIES = Set.of("end_session", "complete", "follow_up", "none");
    /** The kind. */
    public static final ExpectationKind KIND = ExpectationKind.of("policy", (value, reading) -> value.text()
            .flatMap(policy -> {
                if (!POLICIES.contains(policy)) {
                    value.problem("unknown policy '" + policy + "'; expected one of "
                            + EventsExpectation.sorted(POLICIES));
                    return Optional.empty();
                }
                return Optional.of(new PolicyExpectation(policy, value.where()));
            }));

    @Override
    public String key() {
        return KIND.key();
    }

    @Override
    public void check(TurnRun turn, List<String> failures) {
        String actual = turn.result().decision().map(ContinuationDecision::kind).orElse("none");
        if (!policy.equals(actual)) {
            failures.add("expected policy " + policy + " but was " + actual);
        }
    }
}
