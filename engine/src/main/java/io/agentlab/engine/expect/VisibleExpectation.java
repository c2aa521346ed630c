package io.agentlab.engine.expect;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.agentlab.engine.internal.yaml.Node;
import io.agentlab.engine.internal.yaml.Position;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import org.apiguardian.api.API;

/**
 * {@code visible}: checks on the text the user saw (first answer, confirmations and follow-up, in order).
 *
 * @param contains    substrings that must appear
 * @param notContains substrings that must not appear
 * @param matches     patterns that must be found
 * @param withheldUntilToolCalls the turn metric {@code visibleWithheldUntilToolCalls}: in tools mode, whether the
 *                    provider streamed its first tool call before any visible content (content arriving in the same
 *                    chunk as the first tool call was not withheld; {@code docs/design.md#modes-visible-withheld-recorded})
 * @param at          where it is written
 */
@API(status = INTERNAL, since = "0.1")
public record VisibleExpectation(List<String> contains, List<String> notContains, List<Pattern> matches,
                                 Optional<Boolean> withheldUntilToolCalls, Position at) implements Expectation {

    /** The kind. */
    public static final ExpectationKind KIND = ExpectationKind.of("visible",
            Observability.seen("`contains`, `notContains` and `matches` on the text deltas, in order")
            .except("how the provider stream the runtime read interleaved content and tool calls is the runtime's "
                    + "record of its call, inside it", "withheldUntilToolCalls"),
            (value, reading) -> {
        List<Pattern> patterns = new ArrayList<>();
        for (Node pattern : value.list("matches")) {
            pattern.text().ifPresent(text -> {
                try {
                    patterns.add(Pattern.compile(text));
                } catch (PatternSyntaxException e) {
                    pattern.problem("invalid regular expression: " + e.getDescription() + " near index "
                            + e.getIndex());
                }
            });
        }
        return Optional.of(new VisibleExpectation(value.strings("contains"), value.strings("notContains"), patterns,
                value.bool("withheldUntilToolCalls"), value.where()));
    });

    /** Copies the lists. */
    public VisibleExpectation {
        contains = List.copyOf(contains);
        notContains = List.copyOf(notContains);
        matches = List.copyOf(matches);
    }

    @Override
    public String key() {
        return KIND.key();
    }

    /** Over the wire the text is judged, whether the provider withheld it never (docs/wire.md#observability). */
    @Override
    public WireJudgement overTheWire(ObservedTurn turn) {
        List<String> failures = new ArrayList<>();
        new VisibleExpectation(contains, notContains, matches, Optional.empty(), at).check(turn, failures);
        String part = "withheldUntilToolCalls";
        return new WireJudgement.Judged(failures, withheldUntilToolCalls.isEmpty() ? List.of()
                : List.of(new WireJudgement.Unseen(KIND.key(), part, KIND.observability().why(part))));
    }

    @Override
    public void check(ObservedTurn turn, List<String> failures) {
        String text = turn.visibleText();
        for (String part : contains) {
            if (!text.contains(part)) {
                failures.add("expected the visible text to contain \"" + part + "\" but it was \"" + text + "\"");
            }
        }
        for (String part : notContains) {
            if (text.contains(part)) {
                failures.add("expected the visible text not to contain \"" + part + "\" but it was \"" + text + "\"");
            }
        }
        for (Pattern pattern : matches) {
            if (!pattern.matcher(text).find()) {
                failures.add("expected the visible text to match /" + pattern + "/ but it was \"" + text + "\"");
            }
        }
        withheldUntilToolCalls.ifPresent(expected -> {
            boolean actual = turn.result().metrics().visibleWithheldUntilToolCalls();
            if (actual != expected) {
                failures.add("expected the visible content " + (expected ? "" : "not ")
                        + "to be recorded as withheld until the tool calls, but it was" + (actual ? "" : " not"));
            }
        });
    }
}
