package io.agentlab.kernel.api;

import java.util.Objects;

/**
 * A deterministic, plugin-rendered message for the user (no LLM call).
 *
 * @param eventId the event it confirms
 * @param text    the message
 */
public record Confirmation(String eventId, String text) {
    /** Rejects nulls. */
    public Confirmation {
        Objects.requireNonNull(eventId, "eventId");
        Objects.requireNonNull(text, "text");
    }
}
