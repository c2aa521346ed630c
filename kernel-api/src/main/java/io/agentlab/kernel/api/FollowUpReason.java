package io.agentlab.kernel.api;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/** Why a batch asks for its one follow-up ChatAgent call. Several may apply; there is still only one call. */
@API(status = EXPERIMENTAL, since = "0.1")
public enum FollowUpReason {
    /** An {@code llm_follow_up} event succeeded and its result needs natural synthesis. */
    SYNTHESIS,
    /** An event failed, timed out or was rejected: one aggregated corrective answer. */
    CORRECTION,
    /** An event needs clarification: ChatAgent asks the focused question. */
    CLARIFICATION
}
