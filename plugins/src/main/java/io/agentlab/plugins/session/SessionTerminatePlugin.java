package io.agentlab.plugins.session;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.agentlab.kernel.api.EventDefinition;
import io.agentlab.kernel.api.EventPlugin;
import io.agentlab.kernel.api.ResultPolicy;
import io.agentlab.plugins.port.PortCalls;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * {@code session.terminate} ({@code docs/design.md#plugin-session-terminate}): no arguments, terminal (runs after every
 * accepted sibling settled), policy {@code terminate}: on success the session ends and ChatAgent is not called again;
 * on failure the runtime corrects instead of pretending the session ended.
 */
@API(status = INTERNAL, since = "0.1")
public final class SessionTerminatePlugin implements EventPlugin {

    /** The event name. */
    public static final String NAME = "session.terminate";

    private final EventDefinition definition;

    /** With in-memory sessions (for discovery through {@link java.util.ServiceLoader}). */
    public SessionTerminatePlugin() {
        this(new InMemorySessions());
    }

    /** With the given port. */
    public SessionTerminatePlugin(SessionTerminationPort port) {
        Objects.requireNonNull(port, "port");
        this.definition = EventDefinition.builder(NAME)
                .schemaVersion("1.0.0")
                .description("End the voice conversation when the user clearly wants to leave; say goodbye first.")
                .argumentsSchema("{\"type\":\"object\",\"properties\":{},\"additionalProperties\":false}")
                .handler(invocation -> PortCalls.call(() -> {
                    SessionTerminationPort.Termination termination =
                            port.terminate(invocation.turn().scope().sessionId(), invocation.idempotencyKey());
                    Map<String, Object> payload = new LinkedHashMap<>();
                    payload.put("session_id", termination.sessionId());
                    payload.put("already_ended", termination.alreadyEnded());
                    return payload;
                }))
                .resultPolicy(ResultPolicy.TERMINATE)
                .terminal(true)
                .timeout(Duration.ofSeconds(3))
                .conflictKeys("session")
                .build();
    }

    @Override
    public EventDefinition definition() {
        return definition;
    }
}
