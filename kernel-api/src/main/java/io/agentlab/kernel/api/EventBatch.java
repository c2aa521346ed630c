package io.agentlab.kernel.api;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.apiguardian.api.API;

/**
 * The flat, ordered list of events one model response produced, with the turn it belongs to ({@code
 * docs/design.md#modes-same-batch}).
 *
 * @param turn     the turn
 * @param requests the events in the order the model emitted them; {@code orderIndex} equals the position
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record EventBatch(TurnContext turn, List<EventRequest> requests) {

    /** Checks that ids are unique, indices match positions and every request belongs to the turn's scope. */
    public EventBatch {
        Objects.requireNonNull(turn, "turn");
        requests = List.copyOf(requests);
        Set<String> ids = new HashSet<>();
        for (int i = 0; i < requests.size(); i++) {
            EventRequest request = requests.get(i);
            if (request.orderIndex() != i) {
                throw new IllegalArgumentException("request '" + request.eventId() + "' at position " + i
                        + " has orderIndex " + request.orderIndex());
            }
            if (!ids.add(request.eventId())) {
                throw new IllegalArgumentException("duplicate eventId '" + request.eventId() + "' in one batch");
            }
            if (!request.scope().equals(turn.scope())) {
                throw new IllegalArgumentException("request '" + request.eventId() + "' has scope " + request.scope()
                        + " but the batch belongs to " + turn.scope());
            }
        }
    }

    /** Starts a batch for {@code turn}; requests get ids {@code e1, e2, ...} unless given. */
    public static Builder builder(TurnContext turn, InvocationMode mode) {
        return new Builder(turn, mode);
    }

    /** Builds a batch in emission order. */
    public static final class Builder {
        private final TurnContext turn;
        private final InvocationMode mode;
        private final List<EventRequest> requests = new ArrayList<>();

        private Builder(TurnContext turn, InvocationMode mode) {
            this.turn = Objects.requireNonNull(turn, "turn");
            this.mode = Objects.requireNonNull(mode, "mode");
        }

        /** Adds an event with no proposed arguments and the next default id. */
        public Builder event(String name) {
            return event("e" + (requests.size() + 1), name, Map.of());
        }

        /** Adds an event with proposed arguments and the next default id. */
        public Builder event(String name, Map<String, ?> proposedArguments) {
            return event("e" + (requests.size() + 1), name, proposedArguments);
        }

        /** Adds an event with an explicit id. */
        public Builder event(String eventId, String name, Map<String, ?> proposedArguments) {
            requests.add(new EventRequest(eventId, name, JsonValues.copyObject(proposedArguments), mode,
                    requests.size(), turn.scope(), turn.requestedAt()));
            return this;
        }

        /** The batch. */
        public EventBatch build() {
            return new EventBatch(turn, requests);
        }
    }
}
