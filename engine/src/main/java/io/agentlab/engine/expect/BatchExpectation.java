package io.agentlab.engine.expect;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.agentlab.engine.internal.yaml.Node;
import io.agentlab.engine.internal.yaml.Position;
import io.agentlab.kernel.api.BatchResult;
import io.agentlab.kernel.api.EventResult;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * {@code batch}: batch semantics observed on probe events — result order by name, start-after and start-before
 * relations judged on the handler log's ticks (happens-before facts, not clocks), the most handlers at once (bounded
 * from above and from below), and statuses by name.
 *
 * @param order          result order by event name (empty: unchecked)
 * @param startsAfter    events whose handler must start only after another's returned
 * @param maxConcurrency the most handlers that may run at once
 * @param statuses       status per event name
 * @param startsBefore   events whose handler must start while another's has not yet returned (an overlap)
 * @param minConcurrency the fewest handlers that must have been observed running at once
 * @param at             where it is written
 */
@API(status = INTERNAL, since = "0.1")
public record BatchExpectation(List<String> order, List<StartsAfter> startsAfter, Optional<Integer> maxConcurrency,
                               Map<String, String> statuses, List<StartsBefore> startsBefore,
                               Optional<Integer> minConcurrency, Position at) implements Expectation {

    /** The kind. */
    public static final ExpectationKind KIND = ExpectationKind.of("batch",
            Observability.seen("the order port calls arrived at and were answered by the stand-ins, on one counter "
            + "([below](#batch-orders))"),
            BatchExpectation::read);

    /** Copies the collections. */
    public BatchExpectation {
        order = List.copyOf(order);
        startsAfter = List.copyOf(startsAfter);
        startsBefore = List.copyOf(startsBefore);
        statuses = Collections.unmodifiableMap(new LinkedHashMap<>(statuses));
    }

    /**
     * A start-after relation: {@code event}'s handler starts only after the handler of <em>at least one</em> of
     * {@code after} returned. One name means that one; several say "one of these", which is what a concurrency limit
     * guarantees when equal events share the slots and any of them may be the first to return.
     *
     * @param event the event that must start later
     * @param after the events of which at least one must have returned first (one or more)
     */
    public record StartsAfter(String event, List<String> after) {
        /**
         * Copies the list.
         *
         * @throws IllegalArgumentException with no event to start after, or when the event is among them
         */
        public StartsAfter {
            after = List.copyOf(after);
            if (after.isEmpty()) {
                throw new IllegalArgumentException("startsAfter needs at least one event to start after");
            }
            if (after.contains(event)) {
                throw new IllegalArgumentException("an event cannot start after itself");
            }
        }

        /** How the relation reads in a message: {@code probe.a} or {@code one of [probe.a, probe.b]}. */
        public String describeAfter() {
            return after.size() == 1 ? after.get(0) : "one of " + after;
        }
    }

    /**
     * A start-before relation, the mirror of {@link StartsAfter}: {@code event}'s handler starts before
     * {@code before}'s handler returned — the two overlap, a lower bound no upper bound can state
     * ({@code docs/design.md#batch-conflict-keys}: disjoint keys may run at once). Write it only where the design
     * forces the overlap, e.g. a probe that {@code awaits} the other's start.
     *
     * @param event  the event that must start first
     * @param before the event whose handler must not have returned by then
     */
    public record StartsBefore(String event, String before) {
        /**
         * Checks the pair.
         *
         * @throws IllegalArgumentException when the event is the other one
         */
        public StartsBefore {
            if (event.equals(before)) {
                throw new IllegalArgumentException("an event cannot start before itself returned");
            }
        }
    }

    @Override
    public String key() {
        return KIND.key();
    }

    private static Optional<Expectation> read(Node value, ExpectationReading reading) {
        List<String> order = new ArrayList<>();
        for (Node item : value.list("order")) {
            item.text().ifPresent(name -> {
                reading.checkEvent(item, name);
                order.add(name);
            });
        }
        List<StartsAfter> startsAfter = new ArrayList<>();
        for (Node relation : value.list("startsAfter")) {
            Optional<String> event = relation.text("event");
            relation.get("event").ifPresent(node -> event.ifPresent(name -> reading.checkEvent(node, name)));
            List<String> after = new ArrayList<>();
            relation.get("after").ifPresent(one -> one.text().ifPresent(name -> {
                reading.checkEvent(one, name);
                after.add(name);
            }));
            for (Node any : relation.list("afterAnyOf")) {
                any.text().ifPresent(name -> {
                    reading.checkEvent(any, name);
                    after.add(name);
                });
            }
            if (event.isPresent()) {
                try {
                    startsAfter.add(new StartsAfter(event.get(), after));
                } catch (IllegalArgumentException e) {
                    relation.problem(e.getMessage());
                }
            }
        }
        Map<String, String> statuses = new LinkedHashMap<>();
        value.get("statuses").ifPresent(map -> map.entries().forEach((name, status) -> {
            reading.checkEvent(map.keyAt(name), status.path(), name);
            status.text().ifPresent(text -> statuses.put(name, text));
        }));
        List<StartsBefore> startsBefore = new ArrayList<>();
        for (Node relation : value.list("startsBefore")) {
            Optional<String> event = relation.text("event");
            Optional<String> before = relation.text("before");
            relation.get("event").ifPresent(node -> event.ifPresent(name -> reading.checkEvent(node, name)));
            relation.get("before").ifPresent(node -> before.ifPresent(name -> reading.checkEvent(node, name)));
            if (event.isPresent() && before.isPresent()) {
                try {
                    startsBefore.add(new StartsBefore(event.get(), before.get()));
                } catch (IllegalArgumentException e) {
                    relation.problem(e.getMessage());
                }
            }
        }
        Optional<Integer> max = value.integer("maxConcurrency");
        Optional<Integer> min = value.integer("minConcurrency");
        if (max.isPresent() && min.isPresent() && min.get() > max.get()) {
            value.problemAt("minConcurrency", "minConcurrency " + min.get() + " is above maxConcurrency " + max.get());
        }
        return Optional.of(new BatchExpectation(order, startsAfter, max, statuses, startsBefore, min,
                value.where()));
    }

    @Override
    public void check(ObservedTurn turn, List<String> failures) {
        List<EventResult> results = turn.result().batch().map(BatchResult::results).orElse(List.of());
        if (!order.isEmpty()) {
            List<String> actual = results.stream().map(EventResult::name).toList();
            if (!order.equals(actual)) {
                failures.add("expected result order " + order + " but was " + actual);
            }
        }
        for (StartsAfter relation : startsAfter) {
            String expected = "expected " + relation.event() + " to start after " + relation.describeAfter()
                    + " returned, but ";
            List<HandlerCall> later = turn.calls(relation.event());
            if (later.isEmpty()) {
                failures.add(expected + relation.event() + "'s handler never ran");
                continue;
            }
            long firstStart = later.stream().mapToLong(HandlerCall::startTick).min().orElseThrow();
            boolean anyReturnedBefore = false;
            List<String> ran = new ArrayList<>();
            for (String name : relation.after()) {
                List<HandlerCall> earlier = turn.calls(name);
                if (!earlier.isEmpty()) {
                    ran.add(name);
                }
                // every call of that event returned before the later event's first start
                anyReturnedBefore |= !earlier.isEmpty() && earlier.stream()
                        .allMatch(call -> call.endTick() >= 0 && call.endTick() < firstStart);
            }
            if (ran.isEmpty()) {
                failures.add(expected + (relation.after().size() == 1 ? relation.after().get(0) + "'s handler"
                        : "none of their handlers") + " never ran");
            } else if (!anyReturnedBefore) {
                failures.add(expected + "it started while " + (ran.size() == 1 ? ran.get(0) + " was"
                        : String.join(" and ", ran) + " were") + " still running");
            }
        }
        maxConcurrency.ifPresent(max -> {
            if (turn.maxConcurrency() > max) {
                failures.add("expected at most " + max + " handler(s) at once but " + turn.maxConcurrency()
                        + " ran together");
            }
        });
        for (StartsBefore relation : startsBefore) {
            String expected = "expected " + relation.event() + " to start before " + relation.before()
                    + " returned, but ";
            List<HandlerCall> first = turn.calls(relation.event());
            List<HandlerCall> other = turn.calls(relation.before());
            if (first.isEmpty() || other.isEmpty()) {
                failures.add(expected + (first.isEmpty() ? relation.event() : relation.before())
                        + "'s handler never ran");
                continue;
            }
            long firstStart = first.stream().mapToLong(HandlerCall::startTick).min().orElseThrow();
            // still running (no end tick) or returned after the start: the two overlapped
            boolean overlapped = other.stream().anyMatch(call -> call.endTick() < 0 || call.endTick() > firstStart);
            if (!overlapped) {
                failures.add(expected + "it started only after " + relation.before() + " had returned");
            }
        }
        minConcurrency.ifPresent(min -> {
            if (turn.maxConcurrency() < min) {
                failures.add("expected at least " + min + " handler(s) at once but at most " + turn.maxConcurrency()
                        + " ran together");
            }
        });
        statuses.forEach((name, status) -> {
            List<String> actual = results.stream().filter(r -> r.name().equals(name)).map(EventResult::status).toList();
            if (actual.isEmpty() || actual.stream().anyMatch(s -> !s.equals(status))) {
                failures.add("expected " + name + " to end " + status + " but " + (actual.isEmpty()
                        ? "it is not in the batch" : "it ended " + actual));
            }
        });
    }
}
