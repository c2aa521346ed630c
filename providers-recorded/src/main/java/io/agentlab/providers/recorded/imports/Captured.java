package io.agentlab.providers.recorded.imports;

import java.util.List;
import java.util.Map;

/**
 * One captured exchange as every source format gives it, before it becomes a recording: the request (each part null
 * where the source has none) and the response, either an SSE body or payloads already split (JSON lines).
 *
 * @param where          file and entry, for messages
 * @param entry          the entry's index in its file, or -1 for a source of one stream
 * @param method         the request method, or null
 * @param url            the request URL, or null
 * @param requestHeaders request headers by lower-case name, or empty
 * @param requestBody    the request body, or null
 * @param status         the HTTP status, or null when not captured
 * @param contentType    the response's Content-Type, or null
 * @param sseBody        the response body as text, or null (then {@code payloads})
 * @param payloads       the data payloads already split, or null
 * @param bodyLine       the line of the file where the response body starts (for messages), or 0
 * @param timing         what the source recorded about time
 * @param date           the ISO date the source records, or null
 */
record Captured(String where, int entry, String method, String url, Map<String, List<String>> requestHeaders,
                String requestBody, Integer status, String contentType, String sseBody, List<String> payloads,
                int bodyLine, Timing timing, String date) {

    /** What a source recorded about time. */
    sealed interface Timing {
    }

    /** Nothing: the latency model places the events. */
    record NoTiming() implements Timing {
    }

    /**
     * HAR: the time to the first byte and the whole time of the exchange.
     *
     * @param firstByteMs blocked + dns + connect + send + wait
     * @param endMs       the entry's {@code time}
     */
    record FirstByteAndEnd(long firstByteMs, long endMs) implements Timing {
    }

    /**
     * go-vcr: the duration of the exchange only.
     *
     * @param endMs the duration in milliseconds
     */
    record EndOnly(long endMs) implements Timing {
    }

    /**
     * JSON lines with {@code at_ms}: an offset per event.
     *
     * @param offsetsMs one per payload
     */
    record PerEvent(List<Long> offsetsMs) implements Timing {
    }
}
