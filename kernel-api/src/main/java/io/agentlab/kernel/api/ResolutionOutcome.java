package io.agentlab.kernel.api;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * How an event's arguments were obtained (the "deterministic-resolution hit rate" of {@code
 * docs/design.md#metrics-per-mode} counts these).
 */
@API(status = EXPERIMENTAL, since = "0.1")
public enum ResolutionOutcome {
    /** Complete from the model's proposal and the deterministic resolver, with no LLM fallback. */
    DETERMINISTIC,
    /** Completed by the EventAgent fallback. */
    FALLBACK,
    /** Still missing required fields after every allowed step: the event needs clarification. */
    INCOMPLETE,
    /** Resolution never ran or did not finish: unknown event name, a throwing plugin resolver, or the batch ended. */
    NOT_ATTEMPTED
}
