package io.agentlab.kernel.api;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.Objects;
import org.apiguardian.api.API;

/**
 * A deterministic, plugin-rendered message for the user (no LLM call).
 *
 * @param eventId the event it confirms
 * @param text    the message
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record Confirmation(String eventId, String text) {
    /** Rejects nulls. */
    public Confirmation {
        Objects.requireNonNull(eventId, "eventId");
        Objects.requireNonNull(text, "text");
    }
}
