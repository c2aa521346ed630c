package io.agentlab.kernel.runtime.llm;

import java.util.Locale;

/** Why a model call was made; tokens and calls are reported per role ({@code docs/design.md#usage-real-calls-only}). */
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
