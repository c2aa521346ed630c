package io.agentlab.runtime.llm;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.Locale;
import org.apiguardian.api.API;

/** Why a model call was made; tokens and calls are reported per role ({@code docs/design.md#usage-real-calls-only}). */
@API(status = EXPERIMENTAL, since = "0.1")
public enum CallRole {
    /** ChatAgent's first answer. */
    CHAT,
    /** The EventAgent argument fallback. */
    EVENT_AGENT,
    /** ChatAgent's one follow-up (second answer or correction). */
    FOLLOW_UP;

    /** The wire name, e.g. {@code event_agent}. */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
