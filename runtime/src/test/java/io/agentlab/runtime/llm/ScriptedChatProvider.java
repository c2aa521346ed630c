package io.agentlab.runtime.llm;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * An in-process provider for unit tests (the fake provider that proves the seam, {@code
 * docs/design.md#provider-registry-seam}): each call takes the next scripted stream, a list of {@code data:} payloads
 * run through the same {@link StreamAccumulator} as real HTTP, or a scripted failure. Every request is recorded.
 */
public final class ScriptedChatProvider implements ChatProvider {

    private final Deque<Object> scripts = new ArrayDeque<>();
    private final List<ChatRequest> requests = new CopyOnWriteArrayList<>();

    /** Queues a stream of {@code data:} payloads (include {@code [DONE]} to end it normally). */
    public synchronized ScriptedChatProvider enqueue(List<String> dataPayloads) {
        scripts.add(List.copyOf(dataPayloads));
        return this;
    }

    /** Queues a failure. */
    public synchronized ScriptedChatProvider enqueueFailure(ProviderException failure) {
        scripts.add(failure);
        return this;
    }

    @Override
    @SuppressWarnings("unchecked")
    public ChatCompletion stream(ChatRequest request, ChatStreamListener listener) {
        requests.add(request);
        Object script;
        synchronized (this) {
            script = scripts.poll();
        }
        if (script == null) {
            throw new IllegalStateException("no scripted response left for call #" + requests.size()
                    + " (" + request.role().wireName() + ")");
        }
        if (script instanceof ProviderException failure) {
            throw failure;
        }
        StreamAccumulator accumulator = new StreamAccumulator();
        for (String data : (List<String>) script) {
            String delta = accumulator.accept(data);
            if (!delta.isEmpty()) {
                listener.onContent(delta);
            }
        }
        return accumulator.complete(Duration.ZERO, Optional.of(Duration.ZERO), Duration.ZERO);
    }

    /** Every request received, in order. */
    public List<ChatRequest> requests() {
        return List.copyOf(requests);
    }
}
