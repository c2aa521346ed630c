package io.agentlab.kernel.reference;

import io.agentlab.kernel.api.CanonicalJson;
import io.agentlab.kernel.api.ConflictKeys;
import io.agentlab.kernel.api.EventDefinition;
import io.agentlab.kernel.api.EventHandler;
import io.agentlab.kernel.api.HandlerResult;
import io.agentlab.kernel.api.ResultPolicy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * Probe events for batch-semantics tests: each event's latency, outcome, conflict key and terminal flag come from its
 * arguments, and every invocation is logged per turn with global sequence stamps, so properties judge ordering from
 * recorded events rather than from time.
 */
final class Probes {

    /** The three probe definitions' names. */
    enum Kind {
        TASK("probe.task"), HANG("probe.hang"), FINAL("probe.final");

        final String eventName;

        Kind(String eventName) {
            this.eventName = eventName;
        }
    }

    /** Hang probes time out after this; ordinary probes have a timeout far beyond any latency. */
    static final Duration HANG_TIMEOUT = Duration.ofMillis(1);
    static final Duration TASK_TIMEOUT = Duration.ofSeconds(30);

    private static final AtomicLong SEQUENCE = new AtomicLong();
    private final Map<String, Log> logs = new ConcurrentHashMap<>();

    /** One probe event. {@code tag} makes otherwise equal probes distinct; equal specs are exact duplicates. */
    record Spec(Kind kind, int tag, int latencyMicros, boolean fails, String key) {
        Map<String, Object> arguments() {
            Map<String, Object> arguments = new LinkedHashMap<>();
            arguments.put("tag", tag);
            arguments.put("latency_us", latencyMicros);
            arguments.put("fails", fails);
            if (key != null) {
                arguments.put("key", key);
            }
            return arguments;
        }

        String identity() {
            return kind.eventName + CanonicalJson.write(arguments());
        }
    }

    /** One handler run: its event, conflict key and the global sequence numbers of its start and end. */
    record Span(String eventId, Kind kind, String key, long start, long end) {
        boolean overlaps(Span other) {
            return start < other.end && other.start < end;
        }
    }

    /** Everything the probes of one turn recorded. */
    static final class Log {
        final List<Span> spans = new ArrayList<>();
        final AtomicInteger running = new AtomicInteger();
        final AtomicInteger maxRunning = new AtomicInteger();
        final AtomicInteger starts = new AtomicInteger();
        final Map<String, AtomicInteger> invocations = new ConcurrentHashMap<>();

        synchronized List<Span> spans() {
            return List.copyOf(spans);
        }

        synchronized void add(Span span) {
            spans.add(span);
        }
    }

    List<EventDefinition> definitions() {
        return List.of(
                definition(Kind.TASK).timeout(TASK_TIMEOUT).build(),
                definition(Kind.HANG).timeout(HANG_TIMEOUT).build(),
                definition(Kind.FINAL).timeout(TASK_TIMEOUT).terminal(true).resultPolicy(ResultPolicy.TERMINATE)
                        .build());
    }

    Log log(String turnId) {
        return logs.computeIfAbsent(turnId, id -> new Log());
    }

    void forget(String turnId) {
        logs.remove(turnId);
    }

    private EventDefinition.Builder definition(Kind kind) {
        return EventDefinition.builder(kind.eventName)
                .schemaVersion("1.0.0")
                .description("Probe " + kind + ".")
                .argumentsSchema("""
                        {"type":"object","properties":{"tag":{"type":"integer"},"latency_us":{"type":"integer"},
                         "fails":{"type":"boolean"},"key":{"type":"string"}},"required":["tag"]}""")
                .conflictKeys((ConflictKeys) arguments -> arguments.get("key") instanceof String key
                        ? Set.of(key) : Set.of())
                .handler(handler(kind))
                .resultPolicy(ResultPolicy.SILENT_SUCCESS);
    }

    private EventHandler handler(Kind kind) {
        return invocation -> {
            Log log = log(invocation.turn().scope().turnId());
            log.maxRunning.accumulateAndGet(log.running.incrementAndGet(), Math::max);
            log.starts.incrementAndGet();
            long start = SEQUENCE.incrementAndGet();
            log.invocations.computeIfAbsent(kind.eventName + CanonicalJson.write(invocation.arguments()),
                    k -> new AtomicInteger()).incrementAndGet();
            try {
                if (kind == Kind.HANG) {
                    new CountDownLatch(1).await(); // until the timeout interrupts it
                }
                long until = System.nanoTime() + ((Number) invocation.arguments().get("latency_us")).longValue() * 1000;
                while (System.nanoTime() < until) {
                    LockSupport.parkNanos(until - System.nanoTime()); // simulated port latency
                    if (Thread.interrupted()) {
                        throw new InterruptedException();
                    }
                }
                return Boolean.TRUE.equals(invocation.arguments().get("fails"))
                        ? HandlerResult.failure("probe_failure", "declared to fail")
                        : HandlerResult.success(Map.of("tag", invocation.arguments().get("tag")));
            } finally {
                log.running.decrementAndGet();
                String key = invocation.arguments().get("key") instanceof String k ? k : null;
                log.add(new Span(invocation.eventId(), kind, key, start, SEQUENCE.incrementAndGet()));
            }
        };
    }
}
