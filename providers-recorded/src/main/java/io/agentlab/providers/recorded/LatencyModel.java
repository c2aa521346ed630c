package io.agentlab.providers.recorded;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * The documented latency model of synthesized streams — a model, not a measurement, and labelled so in every
 * recording it produces: the first event comes {@code firstTokenBaseMs + firstTokenPerPromptTokenMs × prompt tokens}
 * after the request, and each further event {@code perChunkMs} after the previous one.
 *
 * @param firstTokenBaseMs           fixed first-token delay
 * @param firstTokenPerPromptTokenMs added first-token delay per prompt token (prefill cost)
 * @param perChunkMs                 gap between events
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record LatencyModel(double firstTokenBaseMs, double firstTokenPerPromptTokenMs, double perChunkMs) {

    /** A plausible small-model profile: 150 ms + 0.05 ms per prompt token, 20 ms per chunk. */
    public static LatencyModel typical() {
        return new LatencyModel(150, 0.05, 20);
    }

    /** The offset of event {@code index} for a request of {@code promptTokens}. */
    public long offsetMs(int index, int promptTokens) {
        return Math.round(firstTokenBaseMs + firstTokenPerPromptTokenMs * promptTokens + perChunkMs * index);
    }

    /** The label written into recordings. */
    public String describe() {
        return String.format(java.util.Locale.ROOT,
                "modelled: first event %.0f ms + %.3f ms per prompt token, then %.0f ms per event",
                firstTokenBaseMs, firstTokenPerPromptTokenMs, perChunkMs);
    }
}
