package io.agentlab.runtime.llm;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.time.Duration;
import java.util.Optional;
import org.apiguardian.api.API;

/** A provider call that did not complete, with its typed cause. */
@API(status = EXPERIMENTAL, since = "0.1")
public final class ProviderException extends RuntimeException {

    /** What went wrong. */
    public enum Kind {
        /** A non-2xx HTTP status (429, 5xx, 4xx). */
        HTTP_STATUS,
        /** An {@code error} object inside the stream. */
        STREAM_ERROR,
        /** A chunk that is not valid JSON. */
        MALFORMED_CHUNK,
        /** The stream ended without {@code [DONE]} or a finish reason. */
        TRUNCATED,
        /** The connection failed or was reset. */
        CONNECTION,
        /** The whole call took longer than its deadline (a provider dribbling bytes never trips the idle timeout). */
        DEADLINE,
        /** The caller interrupted the call. */
        CANCELLED,
        /**
         * The response went past one of its {@link ResponseLimits} (bytes, bytes of one line, or events); the call was
         * cancelled at that point.
         */
        RESPONSE_TOO_LARGE,
        /**
         * A successful answer that is not a stream at all: a JSON body where an SSE stream was asked for (a server that
         * ignores {@code "stream": true}); said as such rather than as a truncated or failed stream.
         */
        NOT_STREAMING
    }

    private final Kind kind;
    private final int status;
    private final Duration retryAfter;

    /** Creates the failure. */
    public ProviderException(Kind kind, String message, int status, Duration retryAfter, Throwable cause) {
        super(kind + ": " + message, cause);
        this.kind = kind;
        this.status = status;
        this.retryAfter = retryAfter;
    }

    /** Creates a failure without status. */
    public ProviderException(Kind kind, String message) {
        this(kind, message, 0, null, null);
    }

    /** The kind. */
    public Kind kind() {
        return kind;
    }

    /** The HTTP status for {@link Kind#HTTP_STATUS}, else 0. */
    public int status() {
        return status;
    }

    /** The {@code Retry-After} of a 429, when the provider sent one. */
    public Optional<Duration> retryAfter() {
        return Optional.ofNullable(retryAfter);
    }

    /** A stable code for audit events, e.g. {@code provider_http_429}. */
    public String code() {
        return kind == Kind.HTTP_STATUS ? "provider_http_" + status : "provider_" + kind.name().toLowerCase(java.util.Locale.ROOT);
    }
}
