package io.agentlab.kernel.api;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.Arrays;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * The kind of a {@link ContinuationDecision}, with the name suites and reports write. The one list of decision kinds:
 * each decision returns its own ({@link ContinuationDecision#continuationKind()}), the engine's {@code policy}
 * expectation reads the names from here, and a test checks the suite schema's {@code policy} enum against it
 * ({@code docs/suite-format.md}).
 */
@API(status = EXPERIMENTAL, since = "0.1")
public enum ContinuationKind {
    /** {@link ContinuationDecision.EndSession}. */
    END_SESSION("end_session"),
    /** {@link ContinuationDecision.Complete}. */
    COMPLETE("complete"),
    /** {@link ContinuationDecision.FollowUp}. */
    FOLLOW_UP("follow_up");

    private final String wireName;

    ContinuationKind(String wireName) {
        this.wireName = wireName;
    }

    /** The stable name used in suites and reports, e.g. {@code end_session}. */
    public String wireName() {
        return wireName;
    }

    /** The kind written {@code wireName}, if there is one. */
    public static Optional<ContinuationKind> fromWireName(String wireName) {
        return Arrays.stream(values()).filter(kind -> kind.wireName.equals(wireName)).findFirst();
    }
}
