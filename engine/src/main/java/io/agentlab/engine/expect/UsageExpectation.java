package io.agentlab.engine.expect;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.agentlab.engine.internal.yaml.Node;
import io.agentlab.engine.internal.yaml.Position;
import io.agentlab.runtime.llm.CallRole;
import java.math.BigDecimal;
import java.util.List;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * {@code usage}: the accounting of the turn's model calls.
 *
 * @param costSource         where the turn's cost came from ({@code provider}, {@code catalog_fallback}, ...)
 * @param cachedPromptTokens cached prompt tokens over the ChatAgent calls (first and follow-up)
 * @param reported           whether every model call reported usage
 * @param totalTokens        total tokens over the ChatAgent calls, as the providers reported them
 *                           ({@code docs/design.md#usage-normalized})
 * @param eventAgentCalls    the turn metrics' EventAgent call count ({@code docs/design.md#usage-real-calls-only})
 * @param cost               the turn's cost, compared by value ({@code docs/design.md#usage-catalog-fallback})
 * @param at                 where it is written
 */
@API(status = INTERNAL, since = "0.1")
public record UsageExpectation(Optional<String> costSource, Optional<Integer> cachedPromptTokens,
                               Optional<Boolean> reported, Optional<Integer> totalTokens,
                               Optional<Integer> eventAgentCalls, Optional<BigDecimal> cost, Position at)
        implements Expectation {

    /** The kind. */
    public static final ExpectationKind KIND = ExpectationKind.of("usage",
            Observability.notObservable("the runtime's accounting of its model calls is inside it"),
            (value, reading) -> Optional.of(
            new UsageExpectation(value.text("costSource"), value.integer("cachedPromptTokens"),
                    value.bool("reported"), value.integer("totalTokens"), value.integer("eventAgentCalls"),
                    value.get("cost").flatMap(Node::number).map(BigDecimal::valueOf), value.where())));

    @Override
    public String key() {
        return KIND.key();
    }

    @Override
    public void check(ObservedTurn turn, List<String> failures) {
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
        totalTokens.ifPresent(total -> {
            long actual = turn.result().calls().stream().filter(call -> call.role() != CallRole.EVENT_AGENT)
                    .mapToLong(call -> call.usage().totalTokens()).sum();
            if (actual != total) {
                failures.add("expected " + total + " total tokens over the ChatAgent calls but counted " + actual);
            }
        });
        eventAgentCalls.ifPresent(expected -> {
            int actual = turn.result().metrics().fallbackCalls();
            if (actual != expected) {
                failures.add("expected the turn metrics to count " + expected + " EventAgent call(s) but they counted "
                        + actual + " (calls per role: " + turn.result().metrics().llmCalls() + ")");
            }
        });
        cost.ifPresent(expected -> {
            Optional<BigDecimal> actual = turn.result().metrics().cost();
            if (actual.isEmpty()) {
                failures.add("expected cost " + expected.toPlainString() + " but the turn has none (a call's model "
                        + "has no price, cost source " + turn.result().metrics().costSource().wireName() + ")");
            } else if (actual.get().compareTo(expected) != 0) {
                failures.add("expected cost " + expected.toPlainString() + " but was " + actual.get().toPlainString()
                        + " (cost source " + turn.result().metrics().costSource().wireName() + ")");
            }
        });
    }
}
