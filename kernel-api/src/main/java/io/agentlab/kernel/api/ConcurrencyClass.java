package io.agentlab.kernel.api;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * Whether an event changes the world. Read-only events may retry once on a transient failure; side-effecting events
 * never retry ({@code docs/design.md#safety-no-side-effect-retry}), because a retry could duplicate the effect.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public enum ConcurrencyClass {
    /** Observes only (e.g. a search). May run alongside anything and may retry once. */
    READ_ONLY,
    /** Changes state outside the kernel. Never retried by the kernel. */
    SIDE_EFFECTING
}
