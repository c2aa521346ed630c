package io.agentlab.kernel.api;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * What a successful event asks of the rest of the turn ({@code docs/design.md#policy-declared}). The kernel
 * folds the policies of one batch into a single {@link ContinuationDecision}; it never looks at event names.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public enum ResultPolicy {
    /** End the session on success; no further ChatAgent call. Requires a terminal definition. */
    TERMINATE("terminate"),
    /** Keep the first acknowledgement; a corrective follow-up only on failure. */
    SILENT_SUCCESS("silent_success"),
    /** A plugin-owned deterministic confirmation, no LLM call. Requires a {@link ConfirmationTemplate}. */
    TEMPLATE_FOLLOW_UP("template_follow_up"),
    /** Exactly one follow-up ChatAgent call with compact results. */
    LLM_FOLLOW_UP("llm_follow_up");

    private final String wireName;

    ResultPolicy(String wireName) {
        this.wireName = wireName;
    }

    /** The name used in suites and reports, e.g. {@code template_follow_up}. */
    public String wireName() {
        return wireName;
    }
}
