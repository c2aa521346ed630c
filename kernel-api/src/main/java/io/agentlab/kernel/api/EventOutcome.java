package io.agentlab.kernel.api;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.apiguardian.api.API;

/**
 * How one event ended. A closed set: code that switches over it is checked for completeness by the compiler.
 * Cancellation is deliberately not an outcome: a cancelled batch produces no results at all.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public sealed interface EventOutcome {

    /** This outcome's status, one of the one list {@link OutcomeStatus}. */
    OutcomeStatus outcomeStatus();

    /** The stable status name used in suites, audit events and reports: {@link OutcomeStatus#wireName()}. */
    default String status() {
        return outcomeStatus().wireName();
    }

    /** True for outcomes that ask for a corrective follow-up: failed, timed out, rejected. */
    default boolean isFailure() {
        return this instanceof Failed || this instanceof TimedOut || this instanceof Rejected;
    }

    /**
     * Why it ended so, as suites write a result's {@code reason} and an AG-UI tool result carries it
     * (docs/wire.md#stream): a rejection's reason ({@code invalid_arguments}), a failure's code, or the limit a
     * timeout hit ({@code event} or {@code batch}); empty for every other outcome.
     */
    default Optional<String> reasonName() {
        if (this instanceof Rejected rejected) {
            return Optional.of(rejected.reason().name().toLowerCase(Locale.ROOT));
        }
        if (this instanceof Failed failed) {
            return Optional.of(failed.code());
        }
        if (this instanceof TimedOut timedOut) {
            return Optional.of(timedOut.scope().name().toLowerCase(Locale.ROOT));
        }
        return Optional.empty();
    }

    /**
     * The outcome as a person or a client reads it, in the words the wire's {@code TOOL_CALL_RESULT.error} carries
     * (docs/wire.md#outcomes): a failure's or rejection's {@code code: message}, {@code timed out after 3000 ms
     * (event)} ({@code timed out (event)} for a limit of zero, one not known), a clarification's question,
     * {@code succeeded}; a deduplicated or replayed event reads as the outcome it shares. Never a record's
     * {@code toString}, which names Java fields. Each outcome writes its own, so a new one cannot be left out.
     */
    String describe();

    /**
     * How the event ended, in a few words, for a failure message: the status, then what the outcome says beyond it
     * ({@code failed (device_offline: the speaker is offline)}, {@code deduplicated (succeeded)}); the description
     * alone when it starts with the status in words ({@code succeeded after 2 attempts}, {@code timed out after
     * 1500 ms (event)}).
     */
    default String summary() {
        String text = describe();
        String words = status().replace('_', ' ');
        return text.equals(words) || text.startsWith(words + " ") ? text
                : text.isEmpty() ? status() : status() + " (" + text + ")";
    }

    /**
     * The handler succeeded.
     *
     * @param payload  the handler's payload
     * @param attempts 1, or 2 after a retried transient failure
     */
    record Succeeded(Map<String, Object> payload, int attempts) implements EventOutcome {
        /** Deep-copies the payload. */
        public Succeeded {
            payload = JsonValues.copyObject(payload);
        }

        @Override
        public String describe() {
            return attempts > 1 ? "succeeded after " + attempts + " attempts" : "succeeded";
        }

        @Override
        public OutcomeStatus outcomeStatus() {
            return OutcomeStatus.SUCCEEDED;
        }
    }

    /**
     * The handler reported a failure or threw.
     *
     * @param code             stable failure code
     * @param message          what happened
     * @param transientFailure whether the port called it transient
     * @param attempts         how many times the handler ran
     */
    record Failed(String code, String message, boolean transientFailure, int attempts) implements EventOutcome {
        /** Rejects nulls. */
        public Failed {
            Objects.requireNonNull(code, "code");
            Objects.requireNonNull(message, "message");
        }

        @Override
        public String describe() {
            return message.isEmpty() ? code : code + ": " + message;
        }

        @Override
        public OutcomeStatus outcomeStatus() {
            return OutcomeStatus.FAILED;
        }
    }

    /**
     * The event did not finish in time. Its siblings' results are unaffected.
     *
     * @param limit   the limit that expired
     * @param scope   whether the event's own timeout or the batch deadline expired
     * @param started whether the handler had started (a side effect may have happened)
     */
    record TimedOut(Duration limit, TimeoutScope scope, boolean started) implements EventOutcome {
        /** Rejects nulls. */
        public TimedOut {
            Objects.requireNonNull(limit, "limit");
            Objects.requireNonNull(scope, "scope");
        }

        @Override
        public String describe() {
            // a limit of zero is one not known: an outcome read back from a stream that did not say it
            return "timed out" + (limit.isZero() ? "" : " after " + limit.toMillis() + " ms") + " ("
                    + scope.name().toLowerCase(Locale.ROOT) + ")";
        }

        @Override
        public OutcomeStatus outcomeStatus() {
            return OutcomeStatus.TIMED_OUT;
        }
    }

    /** Which limit a {@link TimedOut} hit. */
    enum TimeoutScope {
        /** The definition's per-event timeout. */
        EVENT,
        /** The batch deadline. */
        BATCH
    }

    /**
     * The kernel refused the event before any side effect.
     *
     * @param reason     why
     * @param message    a message naming the event and the cause
     * @param violations for invalid arguments, each problem with its location
     */
    record Rejected(RejectionReason reason, String message, List<ArgumentViolation> violations)
            implements EventOutcome {
        /** Rejects nulls and copies the violations. */
        public Rejected {
            Objects.requireNonNull(reason, "reason");
            Objects.requireNonNull(message, "message");
            violations = List.copyOf(violations);
        }

        @Override
        public String describe() {
            String code = reason.name().toLowerCase(Locale.ROOT);
            return message.isEmpty() ? code : code + ": " + message;
        }

        @Override
        public OutcomeStatus outcomeStatus() {
            return OutcomeStatus.REJECTED;
        }
    }

    /** Why an event was rejected. */
    enum RejectionReason {
        /** No definition with that name is registered. */
        UNKNOWN_EVENT,
        /** The arguments violate the schema or the plugin validator. */
        INVALID_ARGUMENTS,
        /** The plugin's resolver or normalizer threw (a plugin bug; reported, never propagated). */
        RESOLUTION_ERROR,
        /** The batch held more events than the kernel's limit; none of them was executed. */
        BATCH_TOO_LARGE
    }

    /**
     * Required fields are missing or ambiguous: nothing was executed, ChatAgent asks one focused question.
     *
     * @param question      the focused question
     * @param missingFields the fields that stayed missing
     */
    record NeedsClarification(String question, Set<String> missingFields) implements EventOutcome {
        /** Rejects nulls and copies the fields. */
        public NeedsClarification {
            Objects.requireNonNull(question, "question");
            missingFields = Set.copyOf(missingFields);
        }

        @Override
        public String describe() {
            return question;
        }

        @Override
        public OutcomeStatus outcomeStatus() {
            return OutcomeStatus.NEEDS_CLARIFICATION;
        }
    }

    /**
     * An exact duplicate (same name and canonical arguments) of an earlier event in the same batch; it did not execute
     * and shares the primary's outcome.
     *
     * @param primaryEventId the event that executed
     * @param primaryOutcome that event's outcome
     */
    record Deduplicated(String primaryEventId, EventOutcome primaryOutcome) implements EventOutcome {
        /** Rejects nulls. */
        public Deduplicated {
            Objects.requireNonNull(primaryEventId, "primaryEventId");
            Objects.requireNonNull(primaryOutcome, "primaryOutcome");
        }

        @Override
        public String describe() {
            return primaryOutcome.describe();
        }

        @Override
        public OutcomeStatus outcomeStatus() {
            return OutcomeStatus.DEDUPLICATED;
        }
    }

    /**
     * The same event (scope, event id, canonical arguments) was already executed: nothing ran again.
     *
     * @param originalOutcome the outcome of the original execution
     */
    record Replayed(EventOutcome originalOutcome) implements EventOutcome {
        /** Rejects nulls. */
        public Replayed {
            Objects.requireNonNull(originalOutcome, "originalOutcome");
        }

        @Override
        public String describe() {
            return originalOutcome.describe();
        }

        @Override
        public OutcomeStatus outcomeStatus() {
            return OutcomeStatus.REPLAYED;
        }
    }
}
