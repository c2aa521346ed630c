package io.agentlab.runtime;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.agentlab.runtime.llm.CallRole;
import io.agentlab.runtime.llm.ToolCall;
import io.agentlab.runtime.usage.NormalizedUsage;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * One model call of a turn, for audit and metrics. The request body carries no credential (the key travels only in
 * the Authorization header, which is never recorded).
 *
 * @param turnId       the turn
 * @param role         chat, event_agent or follow_up
 * @param model        the model
 * @param requestBody  the JSON body sent
 * @param rawContent   the content as the provider streamed it, hidden event block included (audit only)
 * @param rawToolCalls the native tool calls as streamed, arguments unparsed (audit only)
 * @param rawUsage     the provider's usage object as received
 * @param usage        normalized usage
 * @param started      turn start to the request's start (where the call sits on the turn's timeline)
 * @param firstItem    call TTFT: request start to the first stream item
 * @param total        request start to stream end
 * @param error        the provider failure code, if the call failed
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record CallRecord(String turnId, CallRole role, String model, String requestBody, String rawContent,
                         List<ToolCall> rawToolCalls, Map<String, Object> rawUsage,
                         NormalizedUsage usage, Duration started, Duration firstItem, Duration total,
                         Optional<String> error) {
}
