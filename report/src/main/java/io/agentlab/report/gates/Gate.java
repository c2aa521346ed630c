package io.agentlab.report.gates;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.agentlab.report.metrics.MetricsReport;
import java.util.function.Function;
import org.apiguardian.api.API;

/**
 * One gate: a named check over the run's metrics with its threshold. A breach names the gate, the measured value,
 * the threshold and the key that sets it.
 *
 * @param id          stable id, the gate node's unique-id segment ({@code min-precision-dual_agent})
 * @param description what it checks, shown as the node's name
 * @param check       the verdict over the run's metrics
 */
@API(status = INTERNAL, since = "0.1")
public record Gate(String id, String description, Function<MetricsReport, Verdict> check) {

    /** A gate's verdict. */
    public sealed interface Verdict {
        /** The gate holds. */
        record Pass(String detail) implements Verdict {
        }

        /** The gate is breached. */
        record Breach(String detail) implements Verdict {
        }

        /** Nothing to judge (no figure, or the gate is not configured). */
        record Skip(String reason) implements Verdict {
        }
    }
}
