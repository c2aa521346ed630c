package io.agentlab.runtime;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.agentlab.kernel.api.BatchResult;
import io.agentlab.kernel.api.ContinuationDecision;
import io.agentlab.agui.AguiEvent;
import io.agentlab.runtime.protocol.ProposedEvent;
import java.util.List;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * Everything one turn produced: what the user saw, what the model proposed, what the kernel did, the audit stream,
 * the model calls and the metrics.
 *
 * @param turnId        the turn (correlates every call and port call; a retransmission keeps it)
 * @param runId         the AG-UI run the turn produced: the turn id for a turn's first run, {@code <turnId>-r<n>} for
 *                      its n-th retransmission (docs/design.md#audit-events); {@code RUN_STARTED.runId} of
 *                      {@link #audit()}
 * @param firstAnswer   the visible first answer (partial when interrupted)
 * @param confirmations deterministic confirmations emitted
 * @param followUp      the visible follow-up answer, if one was made
 * @param proposals     the events the protocol extracted, in order
 * @param hiddenBlock   the raw hidden event block (dual_agent), for audit
 * @param batch         the kernel's batch result, when events ran
 * @param decision      the continuation decision, when events ran
 * @param audit         the AG-UI events of the turn
 * @param calls         every model call
 * @param metrics       the turn's figures
 * @param error         the error code that ended the turn, if any (e.g. {@code RUN_CANCELED}, {@code provider_http_429})
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record TurnResult(String turnId, String runId, String firstAnswer, List<String> confirmations, Optional<String> followUp,
                         List<ProposedEvent> proposals, String hiddenBlock, Optional<BatchResult> batch,
                         Optional<ContinuationDecision> decision, List<AguiEvent> audit, List<CallRecord> calls,
                         TurnMetrics metrics, Optional<String> error) {
}
