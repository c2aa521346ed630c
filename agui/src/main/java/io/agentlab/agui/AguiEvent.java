package io.agentlab.agui;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.agentlab.kernel.api.JsonValues;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * One AG-UI event as it goes on the wire: its {@code type} and its JSON fields. The runtime writes them through
 * {@link AguiEmitter} in one {@link AguiProfile}; the run id is the turn id, so a run's events, model calls and port
 * calls correlate on it.
 *
 * @param type   e.g. {@code RUN_STARTED}
 * @param fields the JSON payload, including {@code type}
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record AguiEvent(String type, Map<String, Object> fields) {

    /** The run-lifecycle, step, text and tool event types this runtime emits. */
    public static final String RUN_STARTED = "RUN_STARTED";
    /** Run finished: completed, or (AG-UI 1.0) cancelled by the user, as its {@code outcome} says. */
    public static final String RUN_FINISHED = "RUN_FINISHED";
    /** Run ended with an error (in the social dialect also a user interrupt, {@code code: RUN_CANCELED}). */
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

    /** The run id, or null when the event does not carry one (in AG-UI 1.0 only RUN_STARTED and RUN_FINISHED do). */
    public String runId() {
        return text("runId");
    }

    /** A field as text, or null. */
    public String text(String field) {
        Object value = fields.get(field);
        return value == null ? null : String.valueOf(value);
    }
}
