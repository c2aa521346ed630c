package io.agentlab.engine.expect;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.agentlab.engine.internal.yaml.Node;
import io.agentlab.engine.internal.yaml.Position;
import io.agentlab.engine.internal.yaml.YamlNode;
import io.agentlab.kernel.api.ContinuationDecision;
import io.agentlab.kernel.api.ContinuationKind;
import io.agentlab.kernel.api.FollowUpReason;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apiguardian.api.API;

/**
 * {@code policy}: the continuation decision's kind — {@code end_session}, {@code complete}, {@code follow_up}, or
 * {@code none} when no batch ran. Written {@code {follow_up: [clarification]}} it also names the follow-up's reasons,
 * exactly ({@code synthesis}, {@code correction}, {@code clarification}; {@code docs/design.md#policy-failure-corrective}).
 *
 * @param policy  the expected kind
 * @param reasons the follow-up's expected reasons, when written
 * @param at      where it is written
 */
@API(status = INTERNAL, since = "0.1")
public record PolicyExpectation(String policy, Optional<Set<FollowUpReason>> reasons, Position at)
        implements Expectation {

    /** What a suite writes when no batch ran, so no decision was taken. */
    public static final String NO_DECISION = "none";
    /**
     * The kinds a suite may write: the wire names of the kernel API's one list, {@link ContinuationKind}, and
     * {@link #NO_DECISION}.
     */
    public static final Set<String> POLICIES = Stream.concat(Arrays.stream(ContinuationKind.values())
            .map(ContinuationKind::wireName), Stream.of(NO_DECISION)).collect(Collectors.toUnmodifiableSet());
    /** The kind. */
    public static final ExpectationKind KIND = ExpectationKind.of("policy",
            Observability.seen("the decision's kind from its effects: `none` without tool calls, `follow_up` with a "
                    + "`follow_up` step, `end_session` when a terminal event succeeded, else `complete`")
            .except("the stream shows that a follow-up came, not the reasons the runtime's policy gave",
                    "{follow_up: [...]}"),
            PolicyExpectation::read);

    /** Copies the reasons. */
    public PolicyExpectation {
        reasons = reasons.map(set -> set.isEmpty() ? Set.of() : Collections.unmodifiableSet(EnumSet.copyOf(set)));
    }

    /** An expectation on the kind only. */
    public PolicyExpectation(String policy, Position at) {
        this(policy, Optional.empty(), at);
    }

    private static Optional<Expectation> read(Node value, ExpectationReading reading) {
        if (value.yaml() instanceof YamlNode.Mapping) {
            Map<String, Node> entries = value.entries();
            Node reasons = entries.get("follow_up");
            if (entries.size() != 1 || reasons == null) {
                value.problem("a policy written as a mapping names the follow-up's reasons: {follow_up: [...]}");
                return Optional.empty();
            }
            Set<FollowUpReason> read = EnumSet.noneOf(FollowUpReason.class);
            for (Node item : reasons.items()) {
                item.text().ifPresent(name -> {
                    try {
                        read.add(FollowUpReason.valueOf(name.toUpperCase(Locale.ROOT)));
                    } catch (IllegalArgumentException e) {
                        item.problem("unknown follow-up reason '" + name + "'; expected one of "
                                + Arrays.stream(FollowUpReason.values()).map(PolicyExpectation::wire).toList());
                    }
                });
            }
            if (read.isEmpty()) {
                reasons.problem("a follow-up has at least one reason");
                return Optional.empty();
            }
            return Optional.of(new PolicyExpectation(ContinuationKind.FOLLOW_UP.wireName(), Optional.of(read),
                    value.where()));
        }
        return value.text().flatMap(policy -> {
            if (!POLICIES.contains(policy)) {
                value.problem("unknown policy '" + policy + "'; expected one of "
                        + EventsExpectation.sorted(POLICIES));
                return Optional.empty();
            }
            return Optional.of(new PolicyExpectation(policy, value.where()));
        });
    }

    private static String wire(FollowUpReason reason) {
        return reason.name().toLowerCase(Locale.ROOT);
    }

    @Override
    public String key() {
        return KIND.key();
    }

    /** Over the wire the decision's kind is judged, its follow-up's reasons never (docs/wire.md#observability). */
    @Override
    public WireJudgement overTheWire(ObservedTurn turn) {
        List<String> failures = new ArrayList<>();
        new PolicyExpectation(policy, at).check(turn, failures);
        String part = "{follow_up: [...]}";
        return new WireJudgement.Judged(failures, reasons.isEmpty() ? List.of()
                : List.of(new WireJudgement.Unseen(KIND.key(), part, KIND.observability().why(part))));
    }

    @Override
    public void check(ObservedTurn turn, List<String> failures) {
        String actual = turn.result().decision().map(ContinuationDecision::kind).orElse(NO_DECISION);
        if (!policy.equals(actual)) {
            failures.add("expected policy " + policy + " but was " + actual);
            return;
        }
        reasons.ifPresent(expected -> {
            Set<FollowUpReason> got = ((ContinuationDecision.FollowUp) turn.result().decision().orElseThrow()).reasons();
            if (!got.equals(expected)) {
                failures.add("expected the follow-up's reasons " + expected.stream().map(PolicyExpectation::wire)
                        .toList() + " but they were " + got.stream().map(PolicyExpectation::wire).toList());
            }
        });
    }
}
