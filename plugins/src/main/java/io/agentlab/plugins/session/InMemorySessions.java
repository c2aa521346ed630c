package io.agentlab.plugins.session;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apiguardian.api.API;

/** In-memory sessions: remembers which ended and records every call. */
@API(status = EXPERIMENTAL, since = "0.1")
public final class InMemorySessions implements SessionTerminationPort {

    private final Set<String> ended = new HashSet<>();
    private final List<String> calls = new CopyOnWriteArrayList<>();

    @Override
    public synchronized Termination terminate(String sessionId, String idempotencyKey) {
        calls.add(sessionId);
        return new Termination(sessionId, !ended.add(sessionId));
    }

    /** Whether the session has ended (the terminal state is observable). */
    public synchronized boolean isEnded(String sessionId) {
        return ended.contains(sessionId);
    }

    /** The session ids of every call, in order. */
    public List<String> calls() {
        return List.copyOf(calls);
    }
}
