package io.agentlab.kernel.api;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.Map;
import java.util.Objects;
import org.apiguardian.api.API;

/** What a handler returns. An exception thrown by a handler is treated as a permanent {@link Failure}. */
@API(status = EXPERIMENTAL, since = "0.1")
public sealed interface HandlerResult {

    /**
     * The port did what was asked.
     *
     * @param payload the structured result, JSON-shaped (kept for audit; a summarizer compacts it for follow-ups)
     */
    record Success(Map<String, Object> payload) implements HandlerResult {
        /** Deep-copies the payload. */
        public Success {
            payload = JsonValues.copyObject(payload);
        }
    }

    /**
     * The port refused or broke.
     *
     * @param code             a stable machine-readable code, e.g. {@code device_offline}
     * @param message          what happened, for logs and (if the definition allows) ChatAgent
     * @param transientFailure true when trying again could succeed; only read-only events are retried
     */
    record Failure(String code, String message, boolean transientFailure) implements HandlerResult {
        /** Rejects nulls. */
        public Failure {
            Objects.requireNonNull(code, "code");
            Objects.requireNonNull(message, "message");
        }
    }

    /** A success with {@code payload}. */
    static HandlerResult success(Map<String, ?> payload) {
        return new Success(JsonValues.copyObject(payload));
    }

    /** A permanent failure. */
    static HandlerResult failure(String code, String message) {
        return new Failure(code, message, false);
    }

    /** A failure worth one retry if the event is read-only. */
    static HandlerResult transientFailure(String code, String message) {
        return new Failure(code, message, true);
    }
}
