package io.agentlab.plugins.port;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.agentlab.kernel.api.HandlerResult;
import java.util.Map;
import java.util.function.Supplier;
import org.apiguardian.api.API;

/** Maps a port call to a handler result, the same way for every built-in plugin. */
@API(status = INTERNAL, since = "0.1")
public final class PortCalls {

    private PortCalls() {
    }

    /** Calls the port; a {@link PortException} becomes a structured failure with its code and transience. */
    public static HandlerResult call(Supplier<Map<String, Object>> portCall) {
        try {
            return HandlerResult.success(portCall.get());
        } catch (PortException e) {
            return new HandlerResult.Failure(e.code(), e.getMessage(), e.isTransient());
        }
    }
}
