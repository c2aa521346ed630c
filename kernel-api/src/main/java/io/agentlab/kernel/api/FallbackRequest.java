package io.agentlab.kernel.api;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.apiguardian.api.API;

/**
 * The one bounded EventAgent call the kernel may make for an incomplete event ({@code
 * docs/design.md#context-event-agent}): the selected schema only and the smallest relevant slice of visible history.
 *
 * @param eventId           the event id
 * @param eventName         the event name
 * @param argumentsSchema   that event's JSON Schema, and no other
 * @param partialArguments  what the deterministic path resolved
 * @param missingFields     the fields still missing
 * @param userText          the current utterance
 * @param history           the recent visible history slice, oldest first
 * @param turn              the turn (timezone, captured request time)
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record FallbackRequest(
        String eventId,
        String eventName,
        String argumentsSchema,
        Map<String, Object> partialArguments,
        Set<String> missingFields,
        String userText,
        List<ConversationMessage> history,
        TurnContext turn) {
    /** Rejects nulls and copies collections. */
    public FallbackRequest {
        Objects.requireNonNull(eventId, "eventId");
        Objects.requireNonNull(eventName, "eventName");
        Objects.requireNonNull(argumentsSchema, "argumentsSchema");
        partialArguments = JsonValues.copyObject(partialArguments);
        missingFields = Set.copyOf(missingFields);
        Objects.requireNonNull(userText, "userText");
        history = List.copyOf(history);
        Objects.requireNonNull(turn, "turn");
    }
}
