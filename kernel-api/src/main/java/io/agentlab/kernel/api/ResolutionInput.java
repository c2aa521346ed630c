package io.agentlab.kernel.api;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.Objects;
import org.apiguardian.api.API;

/**
 * What a deterministic resolver sees: the request (with any model-proposed arguments), its turn, and where it stands
 * among the requests of the same name in its batch. A {@code dual_agent} model names an event once per request and
 * proposes no arguments, so "remind me at 7 to X and at 8 to Y" arrives as two requests of one name: the
 * {@code occurrence} tells the resolver which of the user's requests this one is
 * ({@code docs/kernel.md#two-requests-stay-two}).
 *
 * @param request     the event request
 * @param turn        the turn (user text, history, timezone, captured request time)
 * @param occurrence  0 for the first request of this name in the batch, 1 for the second, ...
 * @param occurrences how many requests of this name the batch holds (at least 1)
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record ResolutionInput(EventRequest request, TurnContext turn, int occurrence, int occurrences) {
    /** Rejects nulls and an occurrence outside {@code 0..occurrences-1}. */
    public ResolutionInput {
        Objects.requireNonNull(request, "request");
        Objects.requireNonNull(turn, "turn");
        if (occurrences < 1 || occurrence < 0 || occurrence >= occurrences) {
            throw new IllegalArgumentException("occurrence " + occurrence + " of " + occurrences);
        }
    }

    /** The only request of its name in the batch. */
    public ResolutionInput(EventRequest request, TurnContext turn) {
        this(request, turn, 0, 1);
    }
}
