package io.agentlab.engine.internal.suite;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import org.apiguardian.api.API;

/**
 * What must hold after a turn; every part is optional (absent means unchecked).
 *
 * @param events       the batch's results in order, exactly these events
 * @param policy       the continuation decision's kind ({@code none}: no batch ran)
 * @param answers      ChatAgent answers the user saw (first and follow-up)
 * @param calls        model calls per role
 * @param visible      checks on the text the user saw
 * @param audit        AG-UI event types that must appear in this order
 * @param auditValid   whether the AG-UI stream must pass the stream checker, as events and as SSE frames
 * @param portCalls    handler calls that reached each event's port
 * @param sessionEnded whether the session ended
 * @param batch        batch-semantics checks on probe events
 * @param error        the error code the turn must end with; empty means it must end without one
 * @param usage        usage-accounting checks
 */
@API(status = INTERNAL, since = "0.1")
public record Expectations(Optional<List<EventExpectation>> events, Optional<String> policy, Optional<Integer> answers,
                           Map<String, Integer> calls, Visible visible, List<String> audit, boolean auditValid,
                           Map<String, Integer> portCalls, Optional<Boolean> sessionEnded, Optional<Batch> batch,
                           Optional<String> error, Usage usage) {

    /** Copies the collections. */
    public Expectations {
        events = events.map(List::copyOf);
        calls = Map.copyOf(calls);
        audit = List.copyOf(audit);
        portCalls = Map.copyOf(portCalls);
    }

    /** Nothing checked. */
    public static Expectations none() {
        return new Expectations(Optional.empty(), Optional.empty(), Optional.empty(), Map.of(),
                new Visible(List.of(), List.of(), List.of()), List.of(), false, Map.of(), Optional.empty(), Optional.empty(),
                Optional.empty(), new Usage(Optional.empty(), Optional.empty(), Optional.empty()));
    }

    /**
     * Usage accounting of the turn's model calls.
     *
     * @param costSource         where the turn's cost came from ({@code provider}, {@code catalog_fallback}, ...)
     * @param cachedPromptTokens cached prompt tokens over the ChatAgent calls
     * @param reported           whether every model call reported usage
     */
    public record Usage(Optional<String> costSource, Optional<Integer> cachedPromptTokens, Optional<Boolean> reported) {
    }

    /**
     * One expected event result.
     *
     * @param name      the event name
     * @param arguments expected final arguments
     * @param exact     whether the arguments must equal (true) or contain (false) these
     * @param status    the expected status
     * @param at        where it is written
     */
    public record EventExpectation(String name, Optional<Map<String, Object>> arguments, boolean exact,
                                   Optional<String> status, Position at) {
    }

    /**
     * Checks on the visible text (first answer, confirmations and follow-up, as the user saw them).
     *
     * @param contains    substrings that must appear
     * @param notContains substrings that must not appear
     * @param matches     patterns that must be found
     */
    public record Visible(List<String> contains, List<String> notContains, List<Pattern> matches) {
        /** Copies the lists. */
        public Visible {
            contains = List.copyOf(contains);
            notContains = List.copyOf(notContains);
            matches = List.copyOf(matches);
        }
    }

    /**
     * Batch semantics, observed on probe events.
     *
     * @param order          result order by event name
     * @param startsAfter    events whose handler must start only after another's returned
     * @param maxConcurrency the most handlers that may run at once
     * @param statuses       status per event name
     */
    public record Batch(List<String> order, List<StartsAfter> startsAfter, Optional<Integer> maxConcurrency,
                        Map<String, String> statuses) {
        /** Copies the collections. */
        public Batch {
            order = List.copyOf(order);
            startsAfter = List.copyOf(startsAfter);
            statuses = Map.copyOf(statuses);
        }
    }

    /**
     * A start-after relation: {@code event}'s handler starts only after the handler of <em>at least one</em> of
     * {@code after} returned. One name means that one; several names say "one of these", which is what a concurrency
     * limit guarantees when equal events share the slots and any of them may be the first to return.
     *
     * @param event the event that must start later
     * @param after the events of which at least one must have returned first (one or more)
     */
    public record StartsAfter(String event, List<String> after) {
        /** Copies the list; requires at least one name. */
        public StartsAfter {
            after = List.copyOf(after);
            if (after.isEmpty()) {
                throw new IllegalArgumentException("startsAfter needs at least one event to start after");
            }
        }

        /** How the relation reads in a message: {@code probe.a} or {@code one of [probe.a, probe.b]}. */
        public String describeAfter() {
            return after.size() == 1 ? after.get(0) : "one of " + after;
        }
    }
}
