package io.agentlab.runtime.llm;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * A finished stream, as a single-answer client reads it: choice 0 ({@code docs/recording.md#accumulation-rules}).
 *
 * @param content        the accumulated assistant text (before any hidden-block parsing)
 * @param toolCalls      accumulated native tool calls, in index order
 * @param finishReason   the last finish reason seen, or null
 * @param usage          the provider's raw usage object (OpenAI: a final chunk with empty choices; DeepSeek: on the
 *                       last content chunk) without its null-valued fields, empty when none came
 * @param firstItem      request start to the first stream item (call TTFT)
 * @param firstContent   request start to the first non-empty content delta
 * @param total          request start to the end of the stream
 * @param contentAfterToolCalls tool calls streamed before any visible content (a provider that withholds the
 * visible answer until after its tool calls, {@code docs/design.md#modes-visible-withheld-recorded})
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record ChatCompletion(String content, List<ToolCall> toolCalls, String finishReason, Map<String, Object> usage,
                             Duration firstItem, Optional<Duration> firstContent, Duration total,
                             boolean contentAfterToolCalls) {
    /** Copies collections; a usage field whose value is null is left out (it means the field is absent). */
    public ChatCompletion {
        toolCalls = List.copyOf(toolCalls);
        usage = usage == null ? Map.of() : Map.copyOf(StreamAccumulator.withoutNulls(usage));
    }
}
