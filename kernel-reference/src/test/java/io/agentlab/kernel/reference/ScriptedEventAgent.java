package io.agentlab.kernel.reference;

import io.agentlab.kernel.api.EventAgentFallback;
import io.agentlab.kernel.api.FallbackRequest;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * An {@link EventAgentFallback} that answers from a script, per event name, and records every request it received.
 * For tests and suites; the LLM-backed EventAgent comes with the runtime.
 */
public final class ScriptedEventAgent implements EventAgentFallback {

    private final Map<String, Map<String, Object>> answers = new HashMap<>();
    private final Map<String, RuntimeException> failures = new HashMap<>();
    private final List<FallbackRequest> requests = new CopyOnWriteArrayList<>();

    /** Answers {@code arguments} for every fallback request of {@code eventName}. */
    public synchronized ScriptedEventAgent answer(String eventName, Map<String, Object> arguments) {
        answers.put(eventName, arguments);
        failures.remove(eventName);
        return this;
    }

    /** Fails every fallback request of {@code eventName} with {@code failure}. */
    public synchronized ScriptedEventAgent fail(String eventName, RuntimeException failure) {
        failures.put(eventName, failure);
        answers.remove(eventName);
        return this;
    }

    @Override
    public Map<String, Object> complete(FallbackRequest request) {
        requests.add(request);
        synchronized (this) {
            RuntimeException failure = failures.get(request.eventName());
            if (failure != null) {
                throw failure;
            }
            Map<String, Object> answer = answers.get(request.eventName());
            if (answer == null) {
                throw new IllegalStateException("no scripted fallback answer for '" + request.eventName() + "'");
            }
            return answer;
        }
    }

    /** Every request received, in arrival order. */
    public List<FallbackRequest> requests() {
        return List.copyOf(requests);
    }
}
