package io.agentlab.kernel.api;

import java.util.Objects;

/**
 * What a deterministic resolver sees: the request (with any model-proposed arguments) and its turn.
 *
 * @param request the event request
 * @param turn    the turn (user text, history, timezone, captured request time)
 */
public record ResolutionInput(EventRequest request, TurnContext turn) {
    /** Rejects nulls. */
    public ResolutionInput {
        Objects.requireNonNull(request, "request");
        Objects.requireNonNull(turn, "turn");
    }
}
