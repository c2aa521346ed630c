package io.agentlab.kernel.reference;

import io.agentlab.kernel.api.EventResult;
import io.agentlab.kernel.api.EventScope;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * Replay protection across batches ({@code docs/design.md#batch-replay-scope}): an event executes at most once per
 * scope (session/turn), event id, name and canonical arguments. Bounded: the oldest entries are forgotten first.
 */
final class ReplayGuard {

    private final Map<Key, CompletableFuture<EventResult>> executed;

    ReplayGuard(int capacity) {
        this.executed = new LinkedHashMap<>(16, 0.75f, false) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<Key, CompletableFuture<EventResult>> eldest) {
                return size() > capacity;
            }
        };
    }

    /**
     * Claims the key for {@code result}. Returns the earlier execution's result future when the key was taken, or
     * {@code null} when this caller now owns it.
     */
    synchronized CompletableFuture<EventResult> claim(Key key, CompletableFuture<EventResult> result) {
        CompletableFuture<EventResult> earlier = executed.get(key);
        if (earlier != null) {
            return earlier;
        }
        executed.put(key, result);
        return null;
    }

    /** Forgets a claim whose event never ran (cancelled, or timed out before starting): a retransmission may run. */
    synchronized void release(Key key, CompletableFuture<EventResult> result) {
        executed.remove(key, result);
    }

    /** The identity of one execution. */
    record Key(EventScope scope, String eventId, String name, String canonicalArguments) {
    }
}
