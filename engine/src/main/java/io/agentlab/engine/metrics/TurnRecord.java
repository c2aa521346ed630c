package io.agentlab.engine.metrics;

import io.agentlab.kernel.api.InvocationMode;
import io.agentlab.kernel.runtime.TurnResult;
import java.util.List;
import java.util.Optional;

/**
 * One turn's raw material for the per-mode metrics.
 *
 * @param suiteId        the suite
 * @param caseId         the case
 * @param turnIndex      the turn's position
 * @param mode           the mode
 * @param expectedEvents the events the suite expects, when it says (the ground truth of selection precision/recall)
 * @param result         what the runtime returned
 */
public record TurnRecord(String suiteId, String caseId, int turnIndex, InvocationMode mode,
                         Optional<List<String>> expectedEvents, TurnResult result) {
}
