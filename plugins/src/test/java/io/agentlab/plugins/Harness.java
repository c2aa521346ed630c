package io.agentlab.plugins;

import io.agentlab.kernel.api.BatchResult;
import io.agentlab.kernel.api.ConversationMessage;
import io.agentlab.kernel.api.EventBatch;
import io.agentlab.kernel.api.EventPlugin;
import io.agentlab.kernel.api.EventResult;
import io.agentlab.kernel.api.EventScope;
import io.agentlab.kernel.api.InvocationMode;
import io.agentlab.kernel.api.TurnContext;
import io.agentlab.kernel.reference.ReferenceKernel;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs built-in plugins through the real reference kernel (resolution, normalization, networknt validation,
 * execution, aggregation), one turn at a time.
 */
final class Harness implements AutoCloseable {

    /** Monday 2026-11-30 08:00 in Asia/Shanghai. */
    static final Instant MONDAY_8AM_SHANGHAI = Instant.parse("2026-11-30T00:00:00Z");
    static final ZoneId SHANGHAI = ZoneId.of("Asia/Shanghai");

    private static final AtomicInteger TURNS = new AtomicInteger();
    final ReferenceKernel kernel;

    Harness(List<EventPlugin> plugins) {
        this.kernel = ReferenceKernel.builder().registerAll(plugins).build();
    }

    Harness(EventPlugin... plugins) {
        this(List.of(plugins));
    }

    static TurnContext turn(String text, Instant at, ZoneId zone, List<ConversationMessage> history) {
        Locale locale = io.agentlab.plugins.text.Language.of(text) == io.agentlab.plugins.text.Language.CHINESE
                ? Locale.SIMPLIFIED_CHINESE : Locale.ENGLISH;
        return new TurnContext(new EventScope("session-1", "turn-" + TURNS.incrementAndGet()), at, zone, locale, text,
                history);
    }

    /** One dual_agent event (no proposed arguments) for the utterance, at Monday 08:00 Shanghai. */
    EventResult dual(String event, String text) {
        return dual(event, text, MONDAY_8AM_SHANGHAI, SHANGHAI);
    }

    EventResult dual(String event, String text, Instant at, ZoneId zone) {
        return dual(event, text, at, zone, List.of());
    }

    /** One dual_agent event for the utterance after {@code history}, at Monday 08:00 Shanghai. */
    EventResult dual(String event, String text, List<ConversationMessage> history) {
        return dual(event, text, MONDAY_8AM_SHANGHAI, SHANGHAI, history);
    }

    private EventResult dual(String event, String text, Instant at, ZoneId zone, List<ConversationMessage> history) {
        return run(EventBatch.builder(turn(text, at, zone, history), InvocationMode.DUAL_AGENT).event(event).build())
                .results().get(0);
    }

    /** One chat_agent_tools event with the model's proposed arguments. */
    EventResult tools(String event, String text, Map<String, Object> proposed) {
        return run(EventBatch.builder(turn(text, MONDAY_8AM_SHANGHAI, SHANGHAI, List.of()),
                InvocationMode.CHAT_AGENT_TOOLS).event(event, proposed).build()).results().get(0);
    }

    BatchResult run(EventBatch batch) {
        return kernel.execute(batch);
    }

    @Override
    public void close() {
        kernel.close();
    }
}
