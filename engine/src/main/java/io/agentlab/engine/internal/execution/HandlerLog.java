package io.agentlab.engine.internal.execution;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.agentlab.engine.expect.HandlerCall;
import io.agentlab.engine.internal.suite.Suite;
import io.agentlab.kernel.api.EventDefinition;
import io.agentlab.kernel.api.EventHandler;
import io.agentlab.kernel.api.HandlerResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.apiguardian.api.API;

/**
 * Records every handler call of one run: which event, with what, and when — as ticks of one atomic counter, so
 * "started after it returned" is a happens-before fact rather than a comparison of clocks read on different threads.
 * It also keeps the most handlers ever running at once. Each call is one call to the plugin's port (the plugin
 * contract), so the log is what {@code expect.portCalls} counts.
 */
@API(status = INTERNAL, since = "0.1")
public final class HandlerLog {

    private final AtomicLong ticks = new AtomicLong();
    private volatile Map<String, Suite.HandlerFault> faults = Map.of();
    private final AtomicInteger running = new AtomicInteger();
    private final AtomicInteger maxRunning = new AtomicInteger();
    private final List<HandlerCall> calls = new ArrayList<>();
    private final Map<String, CompletableFuture<Void>> startWatches = new ConcurrentHashMap<>();

    /** The definition with its handler wrapped to record into this log. */
    public EventDefinition wrap(EventDefinition definition) {
        EventHandler inner = definition.handler();
        EventHandler recorded = invocation -> record(invocation.name(), invocation.eventId(), invocation.arguments(),
                invocation.idempotencyKey(), fault -> {
                    if (fault.isEmpty()) {
                        return inner.handle(invocation);
                    }
                    if (fault.get().hang()) {
                        new CountDownLatch(1).await(); // until the kernel's timeout interrupts it
                    }
                    return new HandlerResult.Failure(fault.get().code(), fault.get().message(),
                            fault.get().transientFailure());
                });
        return definition.toBuilder().handler(recorded).build();
    }

    /** One recorded call's work, given the turn's fault for its event, if one is declared. */
    @FunctionalInterface
    public interface Work<T> {
        /** Does the call's work, or shows {@code fault} instead. */
        T run(Optional<Suite.HandlerFault> fault) throws Exception;
    }

    /**
     * Records one call of {@code name}'s handler — or, over the wire, of its port (docs/wire.md#ports) — around
     * {@code work}: its start and end ticks, the running count, and any watch of the event's start, which completes
     * before the work starts.
     */
    public <T> T record(String name, String eventId, Map<String, Object> arguments, String idempotencyKey,
                        Work<T> work) throws Exception {
        long start = ticks.incrementAndGet();
        maxRunning.accumulateAndGet(running.incrementAndGet(), Math::max);
        int index;
        synchronized (calls) {
            index = calls.size();
            calls.add(new HandlerCall(name, eventId, arguments, idempotencyKey, start, -1));
        }
        CompletableFuture<Void> watch = startWatches.remove(name);
        if (watch != null) {
            watch.complete(null); // before the handler works: it is running when a watcher acts on this
        }
        try {
            return work.run(Optional.ofNullable(faults.get(name)));
        } finally {
            running.decrementAndGet();
            long end = ticks.incrementAndGet();
            synchronized (calls) {
                HandlerCall call = calls.get(index);
                calls.set(index, new HandlerCall(call.name(), call.eventId(), call.arguments(), call.idempotencyKey(),
                        call.startTick(), end));
            }
        }
    }

    /**
     * Ticks the log's counter for an observation made outside a handler (the first visible text), so it can be
     * ordered against handler starts and returns.
     */
    public long tick() {
        return ticks.incrementAndGet();
    }

    /** The faults handlers show from now on (a turn's {@code handlerFaults}), instead of calling their ports. */
    public void faults(Map<String, Suite.HandlerFault> next) {
        faults = Map.copyOf(next);
    }

    /**
     * Completes when a handler of {@code event} starts from now on (the call is recorded and the handler has not yet
     * returned), on the handler's thread; a second watch of the same event replaces the first.
     */
    public CompletableFuture<Void> whenStarted(String event) {
        CompletableFuture<Void> watch = new CompletableFuture<>();
        startWatches.put(event, watch);
        return watch;
    }

    /** The calls so far, in start order. */
    public List<HandlerCall> calls() {
        synchronized (calls) {
            return List.copyOf(calls);
        }
    }

    /** The calls since {@code from} (an earlier {@code calls().size()}). */
    public List<HandlerCall> callsSince(int from) {
        synchronized (calls) {
            return List.copyOf(calls.subList(from, calls.size()));
        }
    }

    /** The most handlers that ever ran at once. */
    public int maxConcurrency() {
        return maxRunning.get();
    }

    /** Starts a new window for {@link #maxConcurrency()} (between turns, when nothing runs). */
    public void resetMaxConcurrency() {
        maxRunning.set(running.get());
    }
}
