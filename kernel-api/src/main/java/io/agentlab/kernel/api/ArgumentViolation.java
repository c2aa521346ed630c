package io.agentlab.kernel.api;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.Objects;
import org.apiguardian.api.API;

/**
 * One reason arguments are invalid, naming where.
 *
 * @param location a JSON Pointer into the arguments, e.g. {@code /value} (empty for the whole object)
 * @param message  why, in words a developer can act on
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record ArgumentViolation(String location, String message) {
    /** Rejects nulls. */
    public ArgumentViolation {
        Objects.requireNonNull(location, "location");
        Objects.requireNonNull(message, "message");
    }

    /** A violation of the top-level field {@code field}. */
    public static ArgumentViolation of(String field, String message) {
        return new ArgumentViolation("/" + field, message);
    }

    @Override
    public String toString() {
        return location + ": " + message;
    }
}
