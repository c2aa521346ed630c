package io.agentlab.plugins.port;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * A port's failure in terms the kernel understands: a stable code and whether trying again could succeed. Adapters
 * throw it; the plugin handlers turn it into a structured failure (any other exception is a permanent failure).
 */
@API(status = EXPERIMENTAL, since = "0.1")
public class PortException extends RuntimeException {

    private final String code;
    private final boolean transientFailure;

    /**
     * Creates the failure.
     *
     * @param code             stable machine-readable code, e.g. {@code device_offline}
     * @param message          what happened
     * @param transientFailure whether a retry could succeed (only read-only events are retried)
     */
    public PortException(String code, String message, boolean transientFailure) {
        super(message);
        this.code = code;
        this.transientFailure = transientFailure;
    }

    /** The stable code. */
    public String code() {
        return code;
    }

    /** Whether a retry could succeed. */
    public boolean isTransient() {
        return transientFailure;
    }
}
