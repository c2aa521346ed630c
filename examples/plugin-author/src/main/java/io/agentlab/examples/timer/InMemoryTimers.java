package io.agentlab.examples.timer;

import java.util.LinkedHashMap;
import java.util.Map;

/** Timers kept in memory; one per idempotency key. */
public final class InMemoryTimers implements TimerPort {

    private final Map<String, String> byKey = new LinkedHashMap<>();

    @Override
    public synchronized String start(String sessionId, int minutes, String label, String idempotencyKey) {
        return byKey.computeIfAbsent(idempotencyKey, key -> "timer-" + (byKey.size() + 1));
    }

    /** Timers started so far. */
    public synchronized int started() {
        return byKey.size();
    }
}
