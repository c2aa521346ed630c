package io.agentlab.providers.recorded;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * One recorded exchange: which request it answers, the response with each SSE event's offset, and where it came
 * from. The file format is documented in {@code docs/recording.md}; its schema is {@code recording.schema.json}.
 *
 * @param id       a stable id (the file name without {@code .json})
 * @param request  what a request must look like to get this response
 * @param response status, headers and timed events
 * @param metadata provenance
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record Recording(String id, RequestMatcher request, RecordedResponse response, Metadata metadata) {

    /** The fault of a response whose connection is reset after its events. */
    public static final String RESET = "connection_reset";
    /** The fault of a response that goes silent after its events and never ends by itself. */
    public static final String STALL = "stall";

    /** Rejects nulls. */
    public Recording {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(request, "request");
        Objects.requireNonNull(response, "response");
        Objects.requireNonNull(metadata, "metadata");
    }

    /**
     * The response.
     *
     * @param status  HTTP status
     * @param headers response headers
     * @param events  the SSE {@code data:} payloads with their offsets from the request, in order
     * @param body    a non-SSE body (an HTTP error's JSON), or null
     * @param fault   a transport fault after the events, or null: {@value Recording#RESET} (the connection is
     *                reset; with no events, instead of any response) or {@value Recording#STALL} (the connection
     *                stays open and silent until the replay lets go of it)
     */
    public record RecordedResponse(int status, Map<String, String> headers, List<TimedEvent> events, String body,
                                   String fault) {
        /** Copies collections. */
        public RecordedResponse {
            headers = Map.copyOf(headers);
            events = List.copyOf(events);
        }

        /** An SSE response. */
        public RecordedResponse(int status, Map<String, String> headers, List<TimedEvent> events) {
            this(status, headers, events, null, null);
        }
    }

    /**
     * One SSE event.
     *
     * @param offsetMs milliseconds from the request to this event
     * @param data     the {@code data:} payload
     */
    public record TimedEvent(long offsetMs, String data) {
    }

    /**
     * Provenance.
     *
     * @param provider     provider family: openai, deepseek, dashscope or llamacpp
     * @param model        the model
     * @param date         when recorded or synthesized (ISO date)
     * @param synthesized  true when made by the synthesizer, not recorded from a live provider
     * @param redacted     what was removed (e.g. {@code Authorization header})
     * @param timing       how the offsets came to be: {@code recorded}, or the latency model that produced them
     */
    public record Metadata(String provider, String model, String date, boolean synthesized, List<String> redacted,
                           String timing) {
        /** Copies the list. */
        public Metadata {
            redacted = List.copyOf(redacted);
        }
    }
}
