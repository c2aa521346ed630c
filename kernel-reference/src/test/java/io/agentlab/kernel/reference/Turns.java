package io.agentlab.kernel.reference;

import io.agentlab.kernel.api.EventBatch;
import io.agentlab.kernel.api.EventScope;
import io.agentlab.kernel.api.InvocationMode;
import io.agentlab.kernel.api.TurnContext;
import java.time.Instant;
import java.time.ZoneId;
import java.util.Locale;

/** Turn and batch helpers for kernel tests. */
final class Turns {

    static final Instant REQUESTED_AT = Instant.parse("2026-11-30T08:00:00Z");

    private Turns() {
    }

    static TurnContext turn(String turnId) {
        return turn("s1", turnId, "");
    }

    static TurnContext turn(String sessionId, String turnId, String userText) {
        return TurnContext.of(new EventScope(sessionId, turnId), REQUESTED_AT, ZoneId.of("Europe/Berlin"),
                Locale.ENGLISH, userText);
    }

    static EventBatch.Builder batch(String turnId) {
        return EventBatch.builder(turn(turnId), InvocationMode.DUAL_AGENT);
    }
}
