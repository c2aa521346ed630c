package io.agentlab.kernel.api;

import java.util.Map;
import java.util.Optional;

/**
 * What a deterministic resolver found: possibly partial arguments, and the one focused question to ask when a required
 * part stays missing or ambiguous ({@code docs/design.md#kernel-clarification}: ambiguous time is asked about, never
 * guessed).
 *
 * @param arguments     the arguments resolved so far (may be partial or empty)
 * @param clarification the question to ask if required fields remain missing after any fallback
 */
public record Resolution(Map<String, Object> arguments, Optional<String> clarification) {

    /** Deep-copies the arguments. */
    public Resolution {
        arguments = JsonValues.copyObject(arguments);
        clarification = clarification == null ? Optional.empty() : clarification;
    }

    /** Resolved arguments, complete or partial, with no specific question. */
    public static Resolution of(Map<String, ?> arguments) {
        return new Resolution(JsonValues.copyObject(arguments), Optional.empty());
    }

    /** Nothing resolved. */
    public static Resolution empty() {
        return of(Map.of());
    }

    /** Partial arguments and the focused question to ask if they stay incomplete. */
    public static Resolution ambiguous(Map<String, ?> partialArguments, String question) {
        return new Resolution(JsonValues.copyObject(partialArguments), Optional.of(question));
    }
}
