package io.agentlab.kernel.api;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.Map;
import org.apiguardian.api.API;

/**
 * Compacts a success payload for the follow-up ChatAgent call ({@code docs/design.md#context-compact-results}: only the
 * compact summary enters the second call; the raw payload stays in audit data). The kernel additionally bounds the
 * whole summary's size.
 */
@API(status = EXPERIMENTAL, since = "0.1")
@FunctionalInterface
public interface ResultSummarizer {

    /** The compact form of {@code payload}. */
    Map<String, Object> summarize(Map<String, Object> payload);

    /** The payload as it is. */
    static ResultSummarizer identity() {
        return payload -> payload;
    }
}
