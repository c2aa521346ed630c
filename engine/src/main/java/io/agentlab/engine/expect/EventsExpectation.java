package io.agentlab.engine.expect;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.agentlab.engine.internal.yaml.Node;
import io.agentlab.engine.internal.yaml.Position;
import io.agentlab.kernel.api.BatchResult;
import io.agentlab.kernel.api.CanonicalJson;
import io.agentlab.kernel.api.EventOutcome;
import io.agentlab.kernel.api.EventResult;
import io.agentlab.kernel.api.OutcomeStatus;
import io.agentlab.runtime.protocol.ProposedEvent;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.apiguardian.api.API;

/**
 * {@code events}: the batch's results in order, exactly these events; each may pin its final arguments, status, the
 * reason of that status, its validity as proposed and after normalization, how its arguments were obtained,
 * whether a tools-mode model's arguments text failed to parse, and which earlier event a deduplicated one duplicates
 * (docs/design.md#batch-duplicates-coalesced).
 *
 * @param events the expected results, in order
 * @param at     where {@code events} is written
 */
@API(status = INTERNAL, since = "0.1")
public record EventsExpectation(List<EventExpectation> events, Position at) implements Expectation {

    /** The statuses a result can have: the wire names of the kernel API's one list, {@link OutcomeStatus}. */
    public static final Set<String> STATUSES = Arrays.stream(OutcomeStatus.values()).map(OutcomeStatus::wireName)
            .collect(Collectors.toUnmodifiableSet());
    /** Why an event was rejected, as suites write it. */
    public static final Set<String> REJECTION_REASONS = Set.of("unknown_event", "invalid_arguments", "resolution_error",
            "batch_too_large");
    /** Which limit a timed-out event hit, as suites write it. */
    public static final Set<String> TIMEOUT_REASONS = Set.of("event", "batch");
    /** How arguments were obtained, as suites write it. */
    public static final Set<String> RESOLUTIONS = Set.of("deterministic", "fallback", "incomplete", "not_attempted");

    /** The kind. */
    public static final ExpectationKind KIND = ExpectationKind.of("events",
            Observability.seen("name, `arguments` and `status` from the tool calls and their results")
            .whenCarried("when the tool result carries them", "reason", "duplicateOf")
            .except("steps of the runtime's resolution pipeline, inside it", "validAsProposed",
                    "validAfterNormalization", "resolution", "argumentsUnparsable"),
            EventsExpectation::read);

    /** Copies the list. */
    public EventsExpectation {
        events = List.copyOf(events);
        Objects.requireNonNull(at, "at");
    }

    @Override
    public String key() {
        return KIND.key();
    }

    /**
     * One expected result; build it with {@link #named(String)}.
     *
     * @param name                    the event name
     * @param arguments               expected final arguments
     * @param exact                   whether the arguments must equal (true) or contain (false) these
     * @param status                  the expected status
     * @param reason                  why: a rejection reason, a failure code, or the limit a timeout hit
     * @param validAsProposed         whether the arguments were complete and valid before normalization
     * @param validAfterNormalization whether the final arguments were complete and valid
     * @param resolution              how the arguments were obtained
     * @param argumentsUnparsable     whether the model's arguments text was not a JSON object (tools mode)
     * @param duplicateOf             the position (1-based) in the batch of the event a deduplicated one duplicates
     * @param at                      where it is written
     */
    public record EventExpectation(String name, Optional<Map<String, Object>> arguments, boolean exact,
                                   Optional<String> status, Optional<String> reason, Optional<Boolean> validAsProposed,
                                   Optional<Boolean> validAfterNormalization, Optional<String> resolution,
                                   Optional<Boolean> argumentsUnparsable, Optional<Integer> duplicateOf, Position at) {

        /** Starts an expected result of {@code name}. */
        public static Builder named(String name) {
            return new Builder(name);
        }

        /** Builds an {@link EventExpectation}; {@link #build()} checks that its parts fit together. */
        public static final class Builder {
            private final String name;
            private Map<String, Object> arguments;
            private boolean exact;
            private String status;
            private String reason;
            private Boolean validAsProposed;
            private Boolean validAfterNormalization;
            private String resolution;
            private Boolean argumentsUnparsable;
            private Integer duplicateOf;
            private Position at = Position.UNKNOWN;

            private Builder(String name) {
                this.name = name;
            }

            /** Final arguments it must contain. */
            public Builder arguments(Map<String, Object> arguments) {
                this.arguments = arguments;
                return this;
            }

            /** The arguments must equal, not just contain, those given. */
            public Builder exactArguments() {
                this.exact = true;
                return this;
            }

            /** Its status. */
            public Builder status(String status) {
                this.status = status;
                return this;
            }

            /** Why it ended so. */
            public Builder reason(String reason) {
                this.reason = reason;
                return this;
            }

            /** Valid as proposed. */
            public Builder validAsProposed(boolean valid) {
                this.validAsProposed = valid;
                return this;
            }

            /** Valid after normalization. */
            public Builder validAfterNormalization(boolean valid) {
                this.validAfterNormalization = valid;
                return this;
            }

            /** How its arguments were obtained. */
            public Builder resolution(String resolution) {
                this.resolution = resolution;
                return this;
            }

            /** Whether the arguments text failed to parse. */
            public Builder argumentsUnparsable(boolean unparsable) {
                this.argumentsUnparsable = unparsable;
                return this;
            }

            /** It is deduplicated, duplicating the event at {@code position} (1-based) of the batch. */
            public Builder duplicateOf(int position) {
                this.duplicateOf = position;
                return this;
            }

            /** Where it is written. */
            public Builder at(Position at) {
                this.at = Objects.requireNonNull(at, "at");
                return this;
            }

            /**
             * The expectation.
             *
             * @throws IllegalArgumentException naming what does not fit: a blank name, an unknown status or
             *                                  resolution, exact matching without arguments, a reason without a status
             *                                  that has one, a reason that status never gives, or a duplicated position
             *                                  below 1 or on an event whose status is not deduplicated
             */
            public EventExpectation build() {
                if (name == null || name.isBlank()) {
                    throw new IllegalArgumentException("an expected event needs a name");
                }
                if (exact && arguments == null) {
                    throw new IllegalArgumentException("match: exact needs arguments to compare");
                }
                if (status != null && !STATUSES.contains(status)) {
                    throw new IllegalArgumentException("unknown status '" + status + "'; expected one of "
                            + sorted(STATUSES));
                }
                if (resolution != null && !RESOLUTIONS.contains(resolution)) {
                    throw new IllegalArgumentException("unknown resolution '" + resolution + "'; expected one of "
                            + sorted(RESOLUTIONS));
                }
                if (reason != null) {
                    if (status == null || !Set.of("rejected", "failed", "timed_out").contains(status)) {
                        throw new IllegalArgumentException("a reason needs status rejected (" + sorted(REJECTION_REASONS)
                                + "), failed (its failure code) or timed_out (" + sorted(TIMEOUT_REASONS) + ")"
                                + (status == null ? "" : "; status " + status + " has none"));
                    }
                    if (status.equals("rejected") && !REJECTION_REASONS.contains(reason)) {
                        throw new IllegalArgumentException("a rejection's reason is one of " + sorted(REJECTION_REASONS)
                                + ", not '" + reason + "'");
                    }
                    if (status.equals("timed_out") && !TIMEOUT_REASONS.contains(reason)) {
                        throw new IllegalArgumentException("a timeout's reason is one of " + sorted(TIMEOUT_REASONS)
                                + ", not '" + reason + "'");
                    }
                }
                if (duplicateOf != null && duplicateOf < 1) {
                    throw new IllegalArgumentException("duplicateOf is the 1-based position of an earlier event, was "
                            + duplicateOf);
                }
                if (duplicateOf != null && status != null && !status.equals("deduplicated")) {
                    throw new IllegalArgumentException("duplicateOf needs status deduplicated (or none), not " + status);
                }
                return new EventExpectation(name, Optional.ofNullable(arguments).map(Map::copyOf), exact,
                        Optional.ofNullable(status), Optional.ofNullable(reason), Optional.ofNullable(validAsProposed),
                        Optional.ofNullable(validAfterNormalization), Optional.ofNullable(resolution),
                        Optional.ofNullable(argumentsUnparsable), Optional.ofNullable(duplicateOf), at);
            }
        }
    }

    private static Optional<Expectation> read(Node value, ExpectationReading reading) {
        List<EventExpectation> expected = new ArrayList<>();
        boolean complete = true;
        List<Node> items = value.items();
        for (int position = 1; position <= items.size(); position++) {
            Node item = items.get(position - 1);
            Optional<String> name = item.text("name");
            if (name.isEmpty()) {
                complete = false;
                continue;
            }
            item.get("name").ifPresent(node -> reading.checkEvent(node, name.get()));
            EventExpectation.Builder builder = EventExpectation.named(name.get()).at(item.at());
            item.object("arguments").ifPresent(arguments -> {
                builder.arguments(arguments);
                reading.argumentNames(name.get()).ifPresent(known -> arguments.keySet().stream()
                        .filter(key -> !known.contains(key)).findFirst().ifPresent(key -> item.problemAt("arguments",
                                "'" + name.get() + "' has no argument '" + key + "'; its schema declares "
                                        + sorted(known))));
            });
            if (item.text("match").map("exact"::equals).orElse(false)) {
                builder.exactArguments();
            }
            item.text("status").ifPresent(builder::status);
            item.text("reason").ifPresent(builder::reason);
            item.bool("validAsProposed").ifPresent(builder::validAsProposed);
            item.bool("validAfterNormalization").ifPresent(builder::validAfterNormalization);
            item.text("resolution").ifPresent(builder::resolution);
            item.bool("argumentsUnparsable").ifPresent(builder::argumentsUnparsable);
            Optional<Integer> duplicateOf = item.integer("duplicateOf");
            if (duplicateOf.isPresent() && duplicateOf.get() >= position) {
                // a duplicate is a later copy: it names an event before it (docs/design.md#batch-duplicates-coalesced)
                item.problemAt("duplicateOf", "duplicateOf names an earlier event of the batch: expected 1 to "
                        + (position - 1) + ", was " + duplicateOf.get());
                complete = false;
                continue;
            }
            duplicateOf.ifPresent(builder::duplicateOf);
            try {
                expected.add(builder.build());
            } catch (IllegalArgumentException e) {
                item.problem(e.getMessage());
                complete = false;
            }
        }
        return complete ? Optional.of(new EventsExpectation(expected, value.where())) : Optional.empty();
    }

    @Override
    public void check(ObservedTurn turn, List<String> failures) {
        List<EventResult> results = turn.result().batch().map(BatchResult::results).orElse(List.of());
        List<String> expectedNames = events.stream().map(EventExpectation::name).toList();
        List<String> actualNames = results.stream().map(EventResult::name).toList();
        if (!expectedNames.equals(actualNames)) {
            failures.add("expected events " + expectedNames + " but the batch had " + actualNames);
            return;
        }
        List<ProposedEvent> proposals = turn.result().proposals();
        for (int i = 0; i < events.size(); i++) {
            EventExpectation event = events.get(i);
            EventResult result = results.get(i);
            String label = "event " + (i + 1) + " (" + event.name() + "): ";
            event.status().ifPresent(status -> {
                if (!status.equals(result.status())) {
                    failures.add(label + "expected status " + status + " but was "
                            + result.outcome().summary());
                }
            });
            event.reason().ifPresent(reason -> {
                String actual = result.outcome().reasonName().orElse("none");
                if (!reason.equals(actual)) {
                    failures.add(label + "expected reason " + reason + " but was " + actual + " ("
                            + result.outcome().summary() + ")");
                }
            });
            event.arguments().ifPresent(arguments -> {
                Optional<String> mismatch = event.exact()
                        ? (CanonicalJson.write(arguments).equals(CanonicalJson.write(result.arguments()))
                        ? Optional.empty() : Optional.of("expected arguments exactly " + CanonicalJson.write(arguments)))
                        : subsetMismatch(arguments, result.arguments());
                mismatch.ifPresent(m -> failures.add(label + m + "; arguments were "
                        + CanonicalJson.write(result.arguments())));
            });
            event.validAsProposed().ifPresent(valid -> validity(label, valid,
                    result.resolution().validBeforeNormalization(), "as proposed (before normalization)", result,
                    failures));
            event.validAfterNormalization().ifPresent(valid -> validity(label, valid,
                    result.resolution().validAfterNormalization(), "after normalization", result, failures));
            event.resolution().ifPresent(resolution -> {
                String actual = result.resolution().outcome().name().toLowerCase(Locale.ROOT);
                if (!resolution.equals(actual)) {
                    failures.add(label + "expected resolution " + resolution + " but was " + actual);
                }
            });
            Optional<ProposedEvent> proposal = i < proposals.size() ? Optional.of(proposals.get(i)) : Optional.empty();
            event.argumentsUnparsable().ifPresent(unparsable -> {
                Optional<String> error = proposal.map(ProposedEvent::argumentsParseError);
                if (unparsable != error.isPresent()) {
                    failures.add(label + (unparsable ? "expected the model's arguments text to be noted as not a JSON "
                            + "object, but it parsed" + proposal.map(p -> " (\"" + p.rawArguments() + "\")").orElse("")
                            : "expected the model's arguments to parse, but " + error.get()));
                }
            });
            event.duplicateOf().ifPresent(position -> duplicate(label, position, result, results, failures));
        }
    }

    /**
     * Over the wire (docs/wire.md#observability): names, arguments and statuses are judged; a reason or a duplicated
     * position only when the event's tool result carried it; the resolution pipeline's steps never.
     */
    @Override
    public WireJudgement overTheWire(ObservedTurn turn) {
        WireSight sight = turn.wireSight().orElseThrow(() -> new IllegalStateException("the turn ran in-process"));
        List<WireJudgement.Unseen> unseen = new ArrayList<>();
        List<EventExpectation> seen = new ArrayList<>();
        for (int i = 0; i < events.size(); i++) {
            EventExpectation event = events.get(i);
            String label = "event " + (i + 1) + " (" + event.name() + ")";
            boolean reason = event.reason().isPresent() && seen(unseen, label, "reason", sight.carries(i, "reason"));
            boolean duplicate = event.duplicateOf().isPresent()
                    && seen(unseen, label, "duplicateOf", sight.carries(i, "duplicateOf"));
            event.validAsProposed().ifPresent(v -> seen(unseen, label, "validAsProposed", false));
            event.validAfterNormalization().ifPresent(v -> seen(unseen, label, "validAfterNormalization", false));
            event.resolution().ifPresent(v -> seen(unseen, label, "resolution", false));
            event.argumentsUnparsable().ifPresent(v -> seen(unseen, label, "argumentsUnparsable", false));
            seen.add(new EventExpectation(event.name(), event.arguments(), event.exact(), event.status(),
                    reason ? event.reason() : Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(),
                    Optional.empty(), duplicate ? event.duplicateOf() : Optional.empty(), event.at()));
        }
        List<String> failures = new ArrayList<>();
        new EventsExpectation(seen, at).check(turn, failures);
        return new WireJudgement.Judged(failures, unseen);
    }

    /** Whether a part is seen; when not, notes it with the kind's declared reason. */
    private static boolean seen(List<WireJudgement.Unseen> unseen, String label, String part, boolean seen) {
        if (!seen) {
            unseen.add(new WireJudgement.Unseen(KIND.key(), label + " " + part, KIND.observability().why(part)));
        }
        return seen;
    }

    /** A deduplicated result names the earlier event it duplicates (docs/design.md#batch-duplicates-coalesced). */
    private static void duplicate(String label, int position, EventResult result, List<EventResult> results,
                                  List<String> failures) {
        String expected = results.get(position - 1).eventId();
        if (!(result.outcome() instanceof EventOutcome.Deduplicated deduplicated)) {
            failures.add(label + "expected it to be deduplicated as a duplicate of event " + position + " (" + expected
                    + ") but it was " + result.outcome().summary());
            return;
        }
        String actual = deduplicated.primaryEventId();
        if (!expected.equals(actual)) {
            int named = 0;
            for (int i = 0; i < results.size(); i++) {
                if (results.get(i).eventId().equals(actual)) {
                    named = i + 1;
                }
            }
            failures.add(label + "expected it to duplicate event " + position + " (" + expected + ") but it names "
                    + actual + (actual.equals(result.eventId()) ? ", itself" : named > 0 ? ", event " + named
                    : ", no event of the batch"));
        }
    }

    private static void validity(String label, boolean expected, boolean actual, String when, EventResult result,
                                 List<String> failures) {
        if (expected != actual) {
            failures.add(label + "expected the arguments " + (expected ? "" : "not ") + "to be valid " + when
                    + ", but they were" + (expected ? " not" : "") + "; final arguments "
                    + CanonicalJson.write(result.arguments()));
        }
    }

    private static Optional<String> subsetMismatch(Map<String, Object> expected, Map<String, Object> actual) {
        for (Map.Entry<String, Object> entry : expected.entrySet()) {
            if (!actual.containsKey(entry.getKey())) {
                return Optional.of("expected argument '" + entry.getKey() + "' but it is absent");
            }
            String want = JsonMatch.write(entry.getValue());
            String have = JsonMatch.write(actual.get(entry.getKey()));
            if (!want.equals(have)) {
                return Optional.of("expected argument '" + entry.getKey() + "' = " + want + " but was " + have);
            }
        }
        return Optional.empty();
    }

    static List<String> sorted(Set<String> values) {
        return values.stream().sorted().toList();
    }
}
