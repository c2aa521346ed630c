package io.agentlab.kernel.runtime.audit;

import io.agentlab.kernel.api.JsonValues;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * One AG-UI event: its {@code type} and its JSON fields (always {@code threadId} and {@code runId}; the run id is
 * the turn id, so every event, model call and port call of a turn correlates on it).
 *
 * @param type   e.g. {@code RUN_STARTED}
 * @param fields the JSON payload, including {@code type}
 */
public record AguiEvent(String type, Map<String, Object> fields) {

    /** The run-lifecycle, step, text and tool event types this runtime emits. */
    public static final String RUN_STARTED = "RUN_STARTED";
    /** Run finished normally. */
    public static final String RUN_FINISHED = "RUN_FINISHED";
    /** Run ended with an error; {@code code: RUN_CANCELED} for a user interrupt. */
    public static final String RUN_ERROR = "RUN_ERROR";
    /** A step began. */
    public static final String STEP_STARTED = "STEP_STARTED";
    /** A step ended. */
    public static final String STEP_FINISHED = "STEP_FINISHED";
    /** A visible assistant message began. */
    public static final String TEXT_MESSAGE_START = "TEXT_MESSAGE_START";
    /** A visible delta. */
    public static final String TEXT_MESSAGE_CONTENT = "TEXT_MESSAGE_CONTENT";
    /** A visible assistant message ended. */
    public static final String TEXT_MESSAGE_END = "TEXT_MESSAGE_END";
    /** An event (tool call) was detected. */
    public static final String TOOL_CALL_START = "TOOL_CALL_START";
    /** Its arguments. */
    public static final String TOOL_CALL_ARGS = "TOOL_CALL_ARGS";
    /** Detection finished. */
    public static final String TOOL_CALL_END = "TOOL_CALL_END";
    /** Its execution result. */
    public static final String TOOL_CALL_RESULT = "TOOL_CALL_RESULT";

    /** Rejects nulls, copies the fields and puts {@code type} into them. */
    public AguiEvent {
        Objects.requireNonNull(type, "type");
        Map<String, Object> copy = new LinkedHashMap<>();
        copy.put("type", type);
        copy.putAll(fields);
        fields = JsonValues.copyObject(copy);
    }

    /** An event of {@code type} for a thread and run, with more fields. */
    public static AguiEvent of(String type, String threadId, String runId, Map<String, Object> more) {
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("threadId", threadId);
        fields.put("runId", runId);
        fields.putAll(more);
        return new AguiEvent(type, fields);
    }

    /** The run id. */
    public String runId() {
        return String.valueOf(fields.get("runId"));
    }

    /** A field as text, or null. */
    public String text(String field) {
        Object value = fields.get(field);
        return value == null ? null : String.valueOf(value);
    }
}
