package io.agentlab.kernel.api;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.apiguardian.api.API;

/**
 * The single decision a batch's results lead to ({@code docs/design.md#policy-declared}): deterministic confirmations
 * first, then at most one follow-up ChatAgent call, or the end of the session.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public sealed interface ContinuationDecision {

    /** Deterministic confirmations to emit first, in input order. */
    List<Confirmation> confirmations();

    /** This decision's kind, one of the one list {@link ContinuationKind}. */
    ContinuationKind continuationKind();

    /** The stable name used in suites and reports: {@link ContinuationKind#wireName()}. */
    default String kind() {
        return continuationKind().wireName();
    }

    /**
     * A terminal event succeeded: emit the confirmations, end the session, no further ChatAgent call.
     *
     * @param confirmations sibling confirmations
     */
    record EndSession(List<Confirmation> confirmations) implements ContinuationDecision {
        /** Copies the list. */
        public EndSession {
            confirmations = List.copyOf(confirmations);
        }

        @Override
        public ContinuationKind continuationKind() {
            return ContinuationKind.END_SESSION;
        }
    }

    /**
     * Nothing needs ChatAgent again: the first answer stands, plus any confirmations.
     *
     * @param confirmations confirmations to emit
     */
    record Complete(List<Confirmation> confirmations) implements ContinuationDecision {
        /** Copies the list. */
        public Complete {
            confirmations = List.copyOf(confirmations);
        }

        @Override
        public ContinuationKind continuationKind() {
            return ContinuationKind.COMPLETE;
        }
    }

    /**
     * Exactly one follow-up ChatAgent call, after the confirmations.
     *
     * @param confirmations confirmations to emit before the call
     * @param reasons       why the call is needed
     * @param summary       the compact results it receives
     */
    record FollowUp(List<Confirmation> confirmations, Set<FollowUpReason> reasons, FollowUpSummary summary)
            implements ContinuationDecision {
        /** Rejects an empty reason set and copies collections. */
        public FollowUp {
            confirmations = List.copyOf(confirmations);
            if (reasons.isEmpty()) {
                throw new IllegalArgumentException("a follow-up needs at least one reason");
            }
            reasons = Collections.unmodifiableSet(EnumSet.copyOf(reasons)); // declaration order, for stable output
            Objects.requireNonNull(summary, "summary");
        }

        @Override
        public ContinuationKind continuationKind() {
            return ContinuationKind.FOLLOW_UP;
        }
    }
}
