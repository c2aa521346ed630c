package io.agentlab.engine.metrics;

import io.agentlab.kernel.api.BatchResult;
import io.agentlab.kernel.api.ContinuationDecision;
import io.agentlab.kernel.api.EventOutcome;
import io.agentlab.kernel.api.EventResult;
import io.agentlab.kernel.api.InvocationMode;
import io.agentlab.kernel.runtime.TurnMetrics;
import io.agentlab.kernel.runtime.TurnResult;
import io.agentlab.kernel.runtime.llm.CallRole;
import io.agentlab.kernel.runtime.protocol.ProposedEvent;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One turn's raw material for the per-mode metrics and the reports' timelines.
 *
 * @param suiteId        the suite
 * @param caseId         the case
 * @param turnIndex      the turn's position
 * @param mode           the mode
 * @param userText       what the user said
 * @param timing         where the turn's stream timing came from
 * @param expectedEvents the events the suite expects, when it says (the ground truth of selection precision/recall)
 * @param result         what the runtime returned
 */
public record TurnRecord(String suiteId, String caseId, int turnIndex, InvocationMode mode, String userText,
                         Timing timing, Optional<List<String>> expectedEvents, TurnResult result) {

    /** Rejects nulls. */
    public TurnRecord {
        Objects.requireNonNull(suiteId, "suiteId");
        Objects.requireNonNull(caseId, "caseId");
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(userText, "userText");
        Objects.requireNonNull(timing, "timing");
        Objects.requireNonNull(expectedEvents, "expectedEvents");
        Objects.requireNonNull(result, "result");
    }

    /**
     * Where a turn's timing came from ({@code docs/design.md#provider-synthesized-labelled}): only recorded and live
     * streams are measurements; a synthesized stream follows the documented latency model, and every figure drawn from
     * it is labelled a model.
     */
    public enum Timing {
        /** Recorded offsets replayed (scaled by the replay speed). */
        RECORDED,
        /** Synthesized: the latency model's offsets. */
        MODELLED,
        /** A live provider: measured. */
        LIVE;

        /** The lower-case name, as written in {@code metrics.json}. */
        public String wireName() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** The runtime's figures of the turn. */
    public TurnMetrics metrics() {
        return result.metrics();
    }

    /** The batch's results that were logical executions: deduplicated and replayed clones count for nothing. */
    public List<EventResult> logicalResults() {
        return result.batch().map(BatchResult::results).orElse(List.of()).stream()
                .filter(r -> !(r.outcome() instanceof EventOutcome.Deduplicated)
                        && !(r.outcome() instanceof EventOutcome.Replayed))
                .toList();
    }

    /** Whether the turn's policies asked for no second answer and the turn did not fail. */
    public boolean ordinary() {
        return !(result.decision().orElse(null) instanceof ContinuationDecision.FollowUp) && result.error().isEmpty();
    }

    /** The model calls of ChatAgent (first answer and follow-up), not the EventAgent's. */
    public List<TurnMetrics.CallMetrics> chatCalls() {
        return metrics().calls().stream().filter(call -> call.role() != CallRole.EVENT_AGENT).toList();
    }

    /** The events the model proposed, by name, in order. */
    public List<String> proposedNames() {
        return result.proposals().stream().map(ProposedEvent::name).toList();
    }

    /** How many proposed events were expected (multiset intersection); 0 when the suite expects nothing. */
    public int selectionHits() {
        if (expectedEvents.isEmpty()) {
            return 0;
        }
        Map<String, Integer> remaining = new HashMap<>();
        expectedEvents.get().forEach(name -> remaining.merge(name, 1, Integer::sum));
        int hits = 0;
        for (String name : proposedNames()) {
            if (remaining.getOrDefault(name, 0) > 0) {
                remaining.merge(name, -1, Integer::sum);
                hits++;
            }
        }
        return hits;
    }
}
