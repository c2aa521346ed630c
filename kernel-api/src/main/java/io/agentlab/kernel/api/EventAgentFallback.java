package io.agentlab.kernel.api;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.Map;
import org.apiguardian.api.API;

/**
 * The EventAgent's optional LLM fallback ({@code docs/design.md#kernel-fallback-bounded}: EventAgent "supplies optional
 * LLM fallback to the kernel; it does not own built-in event behavior"). The kernel calls it at most once per event,
 * only when deterministic resolution left required fields missing and the definition allows it, and bounds the call by
 * a timeout.
 */
@API(status = EXPERIMENTAL, since = "0.1")
@FunctionalInterface
public interface EventAgentFallback {

    /**
     * Proposes values for the missing fields. Returned fields that were already resolved are ignored: the fallback
     * fills gaps, it never overrides deterministic results.
     *
     * @throws Exception any failure; the event then needs clarification (never a guessed side effect)
     */
    Map<String, Object> complete(FallbackRequest request) throws Exception;

    /** No fallback configured: incomplete events need clarification. */
    static EventAgentFallback unavailable() {
        return request -> {
            throw new IllegalStateException("no EventAgent fallback is configured");
        };
    }
}
