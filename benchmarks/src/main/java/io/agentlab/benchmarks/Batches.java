package io.agentlab.benchmarks;

import io.agentlab.kernel.api.EventBatch;
import io.agentlab.kernel.api.EventScope;
import io.agentlab.kernel.api.InvocationMode;
import io.agentlab.kernel.api.TurnContext;
import java.time.Instant;
import java.time.ZoneId;
import java.util.Locale;
import java.util.Map;

/** The benchmarks' batches: {@code count} events of one name, each with its own {@code tag} so none is a duplicate. */
final class Batches {

    private Batches() {
    }

    static EventBatch of(String turnId, String userText, String event, int count) {
        TurnContext turn = TurnContext.of(new EventScope("bench", turnId), Instant.EPOCH, ZoneId.of("UTC"),
                Locale.ENGLISH, userText);
        EventBatch.Builder builder = EventBatch.builder(turn, InvocationMode.DUAL_AGENT);
        for (int i = 0; i < count; i++) {
            builder.event(event, Map.of("tag", i));
        }
        return builder.build();
    }
}
