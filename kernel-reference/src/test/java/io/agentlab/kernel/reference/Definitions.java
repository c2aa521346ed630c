package io.agentlab.kernel.reference;

import io.agentlab.kernel.api.EventDefinition;
import io.agentlab.kernel.api.EventHandler;
import io.agentlab.kernel.api.HandlerResult;
import io.agentlab.kernel.api.ResultPolicy;
import java.util.Map;

/** Minimal test definitions. */
final class Definitions {

    static final String ANY_OBJECT = "{\"type\":\"object\"}";

    private Definitions() {
    }

    /** A side-effecting, silent-success definition accepting any object. */
    static EventDefinition.Builder silent(String name, EventHandler handler) {
        return EventDefinition.builder(name)
                .schemaVersion("1.0.0")
                .description("Test event " + name + ".")
                .argumentsSchema(ANY_OBJECT)
                .handler(handler)
                .resultPolicy(ResultPolicy.SILENT_SUCCESS);
    }

    /** A handler that succeeds at once with an empty payload. */
    static EventHandler ok() {
        return invocation -> HandlerResult.success(Map.of());
    }
}
