package io.agentlab.report.gates;

import static org.apiguardian.api.API.Status.INTERNAL;

import org.apiguardian.api.API;

/**
 * The gates' configuration keys, defined where the gates read them. Users find them, documented with their values and
 * defaults, in the engine's {@code io.agentlab.engine.Constants}, which re-exports each one (as JUnit Jupiter's
 * {@code Constants} re-exports its configuration's keys): the report artifact knows no engine type
 * (docs/api.md#report).
 */
@API(status = INTERNAL, since = "0.2")
public final class GateKeys {

    /** See {@code Constants.GATES_ENABLED}. */
    public static final String ENABLED = "agentlab.gates.enabled";
    /** See {@code Constants.GATES_PARITY}. */
    public static final String PARITY = "agentlab.gates.parity";
    /** See {@code Constants.GATES_MIN_PRECISION}. */
    public static final String MIN_PRECISION = "agentlab.gates.min-precision";
    /** See {@code Constants.GATES_MIN_RECALL}. */
    public static final String MIN_RECALL = "agentlab.gates.min-recall";
    /** See {@code Constants.GATES_MAX_CALLS_PER_ORDINARY_TURN}. */
    public static final String MAX_CALLS_PER_ORDINARY_TURN = "agentlab.gates.max-chat-calls-per-ordinary-turn";
    /** See {@code Constants.GATES_MAX_COST_PER_SUCCESS}. */
    public static final String MAX_COST_PER_SUCCESS = "agentlab.gates.max-cost-per-successful-event";
    /** See {@code Constants.GATES_MAX_TTFT_RATIO}. */
    public static final String MAX_TTFT_RATIO = "agentlab.gates.max-ttft-ratio";
    /** See {@code Constants.BASELINE_FILE}. */
    public static final String BASELINE_FILE = "agentlab.baseline.file";
    /** See {@code Constants.BASELINE_MAX_REGRESSION}. */
    public static final String BASELINE_MAX_REGRESSION = "agentlab.baseline.max-regression";

    private GateKeys() {
    }
}
