package io.agentlab.kernel.api;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.Objects;
import org.apiguardian.api.API;

/**
 * The resolution facts the metrics need ({@code docs/design.md#metrics-accuracy}: valid-argument rate before and after
 * normalization, fallback rate).
 *
 * @param outcome                  how the arguments were obtained
 * @param fallbackUsed             whether the EventAgent fallback was called (even if it did not help)
 * @param validBeforeNormalization merged arguments were complete and valid before normalization
 * @param validAfterNormalization  final arguments were complete and valid
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record ResolutionReport(
        ResolutionOutcome outcome,
        boolean fallbackUsed,
        boolean validBeforeNormalization,
        boolean validAfterNormalization) {

    /** Rejects a null outcome. */
    public ResolutionReport {
        Objects.requireNonNull(outcome, "outcome");
    }

    /** For events whose resolution never ran. */
    public static ResolutionReport notAttempted() {
        return new ResolutionReport(ResolutionOutcome.NOT_ATTEMPTED, false, false, false);
    }
}
