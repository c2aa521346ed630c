package io.agentlab.report.metrics;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.agentlab.kernel.api.InvocationMode;
import io.agentlab.runtime.TurnMetrics;
import io.agentlab.runtime.TurnResult;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.apiguardian.api.API;

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
 * @param expectedArguments per expected event, in order, the arguments the suite expects of it (empty when it says
 *                       none): the labels argument accuracy is scored against
 */
@API(status = INTERNAL, since = "0.1")
public record TurnRecord(String suiteId, String caseId, int turnIndex, InvocationMode mode, String userText,
                         Timing timing, Optional<List<String>> expectedEvents, TurnResult result,
                         List<Map<String, Object>> expectedArguments) {

    /** A record without argument labels. */
    public TurnRecord(String suiteId, String caseId, int turnIndex, InvocationMode mode, String userText,
                      Timing timing, Optional<List<String>> expectedEvents, TurnResult result) {
        this(suiteId, caseId, turnIndex, mode, userText, timing, expectedEvents, result, List.of());
    }

    /** Rejects nulls. */
    public TurnRecord {
        Objects.requireNonNull(suiteId, "suiteId");
        Objects.requireNonNull(caseId, "caseId");
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(userText, "userText");
        Objects.requireNonNull(timing, "timing");
        Objects.requireNonNull(expectedEvents, "expectedEvents");
        Objects.requireNonNull(result, "result");
        expectedArguments = List.copyOf(expectedArguments);
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
}
