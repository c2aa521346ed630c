package io.agentlab.kernel.api;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * Deterministic argument resolution from the user's words and the turn (no LLM). It must be total (never throw on any
 * input) and deterministic (same input, same output); the kernel turns a throwing resolver into a rejected event.
 */
@API(status = EXPERIMENTAL, since = "0.1")
@FunctionalInterface
public interface ArgumentResolver {

    /** Resolves what it can. */
    Resolution resolve(ResolutionInput input);

    /** A resolver that resolves nothing: arguments come only from the model or the fallback. */
    static ArgumentResolver none() {
        return input -> Resolution.empty();
    }
}
