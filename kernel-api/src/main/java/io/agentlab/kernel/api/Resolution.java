package io.agentlab.kernel.api;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * What a deterministic resolver found: possibly partial arguments, the one focused question to ask when a required
 * part stays missing or ambiguous ({@code docs/design.md#kernel-clarification}: ambiguous time is asked about, never
 * guessed), and the part of the user's words the arguments were read from.
 *
 * <p>The {@code source} lets the kernel tell two same-name requests apart: two requests with equal normalized
 * arguments are coalesced only when they come from the same source ({@code docs/kernel.md#two-requests-stay-two}).
 * A resolver that reads one clause of the utterance names that clause.
 *
 * @param arguments     the arguments resolved so far (may be partial or empty)
 * @param clarification the question to ask if required fields remain missing after any fallback
 * @param source        the user's request these arguments were read from, e.g. its clause; empty when unknown
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record Resolution(Map<String, Object> arguments, Optional<String> clarification, Optional<String> source) {

    /** Deep-copies the arguments. */
    public Resolution {
        arguments = JsonValues.copyObject(arguments);
        clarification = clarification == null ? Optional.empty() : clarification;
        source = source == null ? Optional.empty() : source;
    }

    /** Arguments and a question, source unknown. */
    public Resolution(Map<String, Object> arguments, Optional<String> clarification) {
        this(arguments, clarification, Optional.empty());
    }

    /** Resolved arguments, complete or partial, with no specific question. */
    public static Resolution of(Map<String, ?> arguments) {
        return new Resolution(JsonValues.copyObject(arguments), Optional.empty(), Optional.empty());
    }

    /** Nothing resolved. */
    public static Resolution empty() {
        return of(Map.of());
    }

    /** Partial arguments and the focused question to ask if they stay incomplete. */
    public static Resolution ambiguous(Map<String, ?> partialArguments, String question) {
        return new Resolution(JsonValues.copyObject(partialArguments), Optional.of(question), Optional.empty());
    }

    /** This resolution, read from {@code source} (e.g. the clause of the utterance). */
    public Resolution withSource(String source) {
        return new Resolution(arguments, clarification, Optional.of(Objects.requireNonNull(source, "source")));
    }
}
