package io.agentlab.kernel.api;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.List;
import java.util.Map;
import org.apiguardian.api.API;

/**
 * Plugin-specific validation beyond the JSON Schema (e.g. a date in the past). Must never throw: every problem is a
 * returned violation naming its field.
 */
@API(status = EXPERIMENTAL, since = "0.1")
@FunctionalInterface
public interface ArgumentValidator {

    /** The violations, empty when the arguments are acceptable. */
    List<ArgumentViolation> validate(Map<String, Object> arguments);

    /** Accepts everything the schema accepts. */
    static ArgumentValidator none() {
        return arguments -> List.of();
    }
}
