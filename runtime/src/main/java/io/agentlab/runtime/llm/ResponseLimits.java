package io.agentlab.runtime.llm;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * How much of a provider's response the kit reads before it stops with
 * {@link ProviderException.Kind#RESPONSE_TOO_LARGE} (docs/limits-and-safety.md#response-size): one bound for live
 * calls, {@code agentlab record}, {@code agentlab import} and replay, so that memory stays bounded whatever a server
 * sends. Every bound counts what arrived on the wire, before any parsing.
 *
 * @param maxResponseBytes the most bytes of one call's response body
 * @param maxLineBytes     the most bytes of one SSE line (an endless line stops here, not at the heap's end)
 * @param maxChunks        the most SSE events ({@code data:} payloads) of one call
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record ResponseLimits(long maxResponseBytes, int maxLineBytes, int maxChunks) {

    /**
     * The defaults: 16 MiB a call, 1 MiB a line, 200,000 events. A long real answer (16,000 tokens streamed one a
     * chunk, with usage and tool calls) is about 5 MB in 16,000 events, so the defaults leave a wide margin and still
     * keep a run of four calls at a time inside a 256 MiB heap.
     */
    public static final ResponseLimits DEFAULT = new ResponseLimits(16L << 20, 1 << 20, 200_000);

    /** Rejects bounds that are not positive, or a line longer than the whole response. */
    public ResponseLimits {
        if (maxResponseBytes <= 0 || maxLineBytes <= 0 || maxChunks <= 0) {
            throw new IllegalArgumentException("response limits must be positive, were " + maxResponseBytes
                    + " bytes, " + maxLineBytes + " bytes a line, " + maxChunks + " events");
        }
        if (maxLineBytes > maxResponseBytes) {
            throw new IllegalArgumentException("a line (" + maxLineBytes + " bytes) cannot be longer than the whole "
                    + "response (" + maxResponseBytes + " bytes)");
        }
    }
}
