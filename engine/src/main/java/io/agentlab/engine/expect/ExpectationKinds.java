package io.agentlab.engine.expect;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.agentlab.engine.internal.yaml.Node;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * The one list of expectation kinds. Adding a kind is one class (its model, reader and check, exposing a
 * {@code KIND}), one line here, and its property in {@code suite.schema.json}'s {@code expect} — a test names a kind
 * the schema or {@code docs/suite-format.md} lacks.
 */
@API(status = INTERNAL, since = "0.1")
public final class ExpectationKinds {

    /** Every kind, in the order their checks run and their failures are listed. */
    public static final List<ExpectationKind> ALL = List.of(
            EventsExpectation.KIND,
            PolicyExpectation.KIND,
            AnswersExpectation.KIND,
            CallsExpectation.KIND,
            VisibleExpectation.KIND,
            AuditExpectation.KIND,
            AuditValidExpectation.KIND,
            PortCallsExpectation.KIND,
            PortStateExpectation.KIND,
            SessionEndedExpectation.KIND,
            HistoryExpectation.KIND,
            FollowUpRequestExpectation.KIND,
            BatchExpectation.KIND,
            FirstVisibleBeforeExpectation.KIND,
            FinishedWithinExpectation.KIND,
            ErrorExpectation.KIND,
            UsageExpectation.KIND,
            AnyOfExpectation.KIND,
            EventAgentRequestExpectation.KIND,
            AuditToolCallsExpectation.KIND);

    private static final Map<String, ExpectationKind> BY_KEY = index();

    private ExpectationKinds() {
    }

    private static Map<String, ExpectationKind> index() {
        Map<String, ExpectationKind> byKey = new LinkedHashMap<>();
        for (ExpectationKind kind : ALL) {
            if (byKey.put(kind.key(), kind) != null) {
                throw new IllegalStateException("two expectation kinds use the key '" + kind.key() + "'");
            }
        }
        return byKey;
    }

    /** The kind written under {@code key}. */
    public static Optional<ExpectationKind> kind(String key) {
        return Optional.ofNullable(BY_KEY.get(key));
    }

    /**
     * Reads an {@code expect} block: each key by its kind, in the order of {@link #ALL}; an unknown key is a problem
     * naming the known ones.
     */
    public static Expectations read(Node block, ExpectationReading reading) {
        Map<String, Node> entries = block.entries();
        entries.keySet().stream().filter(key -> !BY_KEY.containsKey(key)).forEach(key -> block.problemAt(key,
                "unknown expectation '" + key + "'; expected one of " + BY_KEY.keySet()));
        Expectations.Builder builder = Expectations.builder();
        for (ExpectationKind kind : ALL) {
            Node value = entries.get(kind.key());
            if (value != null) {
                kind.read(value, reading).ifPresent(builder::add);
            }
        }
        return builder.build();
    }
}
