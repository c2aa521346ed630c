package io.agentlab.engine.expect;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.agentlab.engine.internal.execution.TurnRun;
import io.agentlab.engine.internal.suite.Position;
import io.agentlab.kernel.runtime.llm.CallRole;
import java.util.List;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * {@code usage}: the accounting of the turn's model calls.
 *
 * @param costSource         where the turn's cost came from ({@code provider}, {@code catalog_fallback}, ...)
 * @param cachedPromptTokens cached prompt tokens over the ChatAgent calls (first and follow-up)
 * @param reported           whether every model call reported usage
 * @param at                 where it is written
 */
@API(status = INTERNAL, since = "0.1")
public record UsageExpectation(Optional<String> costSource, Optional<Integer> cachedPromptTokens,
                               Optional<Boolean> reported, Position at) implements Expectation {

    /** The kind. */
    public static final ExpectationKind KIND = ExpectationKind.of("usage", (value, reading) -> Optional.of(
            new UsageExpectation(value.text("costSource"), value.integer("cachedPromptTokens"),
                    value.bool("reported"), value.where())));

    @Override
    public String key() {
        return KIND.key();
    }

    @Override
    public void check(TurnRun turn, List<String> failures) {
        costSource.ifPresent(source -> {
            String actual = turn.result().metrics().costSource().wireName();
            if (!source.equals(actual)) {
                failures.add("expected cost source " + source + " but was " + actual);
            }
        });
        cachedPromptTokens.ifPresent(cached -> {
            long actual = turn.result().calls().stream().filter(call -> call.role() != CallRole.EVENT_AGENT)
                    .mapToLong(call -> call.usage().cachedPromptTokens()).sum();
            if (actual != cached) {
                failures.add("expected " + cached + " cached prompt tokens over the ChatAgent calls but counted "
                        + actual);
            }
        });
        reported.ifPresent(expected -> {
            boolean actual = turn.result().calls().stream().allMatch(call -> call.usage().present());
            if (actual != expected) {
                failures.add("expected usage " + (expected ? "reported by every call" : "missing from a call")
                        + " but it was " + (actual ? "reported by every call" : "missing from a call"));
            }
        });
    }
}
