package io.agentlab.kernel.api;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.Arrays;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * The status of one event's {@link EventOutcome}, with the name suites, audit events and reports write. The one list
 * of statuses: each outcome returns its own ({@link EventOutcome#outcomeStatus()}), the engine's {@code events}
 * expectation reads the names from here, and a test checks the suite schema's {@code status} enum against it
 * ({@code docs/suite-format.md}).
 */
@API(status = EXPERIMENTAL, since = "0.1")
public enum OutcomeStatus {
    /** {@link EventOutcome.Succeeded}. */
    SUCCEEDED("succeeded"),
    /** {@link EventOutcome.Failed}. */
    FAILED("failed"),
    /** {@link EventOutcome.TimedOut}. */
    TIMED_OUT("timed_out"),
    /** {@link EventOutcome.Rejected}. */
    REJECTED("rejected"),
    /** {@link EventOutcome.NeedsClarification}. */
    NEEDS_CLARIFICATION("needs_clarification"),
    /** {@link EventOutcome.Deduplicated}. */
    DEDUPLICATED("deduplicated"),
    /** {@link EventOutcome.Replayed}. */
    REPLAYED("replayed");

    private final String wireName;

    OutcomeStatus(String wireName) {
        this.wireName = wireName;
    }

    /** The stable name used in suites, audit events and reports, e.g. {@code timed_out}. */
    public String wireName() {
        return wireName;
    }

    /** The status written {@code wireName}, if there is one. */
    public static Optional<OutcomeStatus> fromWireName(String wireName) {
        return Arrays.stream(values()).filter(status -> status.wireName.equals(wireName)).findFirst();
    }
}
