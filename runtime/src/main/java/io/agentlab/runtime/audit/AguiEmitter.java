package io.agentlab.runtime.audit;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.agentlab.kernel.api.CanonicalJson;
import io.agentlab.kernel.api.EventOutcome;
import io.agentlab.kernel.api.EventResult;
import io.agentlab.runtime.llm.Json;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Consumer;
import io.agentlab.agui.AguiEvent;
import io.agentlab.agui.AguiProfile;
import org.apiguardian.api.API;

/**
 * One run's AG-UI events, written in one profile's wire shape. The runtime calls a typed method per step of the turn;
 * the emitter owns every id (message ids {@code <runId>-m<n>}, tool-call ids {@code <runId>-<eventId>}, a tool
 * result's own message id {@code <toolCallId>-result}), so ids are unique within the thread across turns as long as
 * run ids are, and it tracks what is open, so a cancelled run closes its steps, messages and tool calls before it
 * ends.
 *
 * <pre>{@code
 * AguiEmitter agui = new AguiEmitter(AguiProfile.AGUI_1_0, sessionId, turnId);
 * agui.runStarted();
 * String message = agui.textMessageStarted();
 * agui.textMessageContent(message, "Volume 30.");
 * agui.textMessageEnded(message);
 * agui.runFinished();
 * List<AguiEvent> events = agui.events();
 * }</pre>
 *
 * <p>Not thread-safe: one turn's thread writes it.
 */
@API(status = INTERNAL, since = "0.1")
public final class AguiEmitter {

    private static final String STAGE = "events";

    private final AguiProfile profile;
    private final String threadId;
    private final String runId;
    private final List<AguiEvent> events = new ArrayList<>();
    /** Told each event as it is emitted: a server streams the run as it happens (docs/wire.md#endpoint). */
    private final Consumer<AguiEvent> listener;
    private final Map<String, String> toolCallIds = new HashMap<>();
    private final Map<String, String> parents = new HashMap<>();
    private final Map<String, String> names = new HashMap<>();
    /** Each started event's 1-based position in the batch, as its tool call started (batch order). */
    private final Map<String, Integer> positions = new HashMap<>();
    private final Set<String> openSteps = new LinkedHashSet<>();
    private final Set<String> openMessages = new LinkedHashSet<>();
    private final Set<String> openToolCalls = new LinkedHashSet<>();
    private int messages;
    private boolean ended;

    /**
     * An emitter for run {@code runId} of thread {@code threadId}.
     *
     * @param profile  the wire shape
     * @param threadId the thread (the session)
     * @param runId    the run (the turn); unique within the thread
     */
    public AguiEmitter(AguiProfile profile, String threadId, String runId) {
        this(profile, threadId, runId, event -> { });
    }

    /**
     * An emitter that also tells {@code listener} each event as it is emitted.
     *
     * @param profile  the wire shape
     * @param threadId the thread (the session)
     * @param runId    the run (the turn); unique within the thread
     * @param listener told each event, in order, on the emitting thread
     */
    public AguiEmitter(AguiProfile profile, String threadId, String runId, Consumer<AguiEvent> listener) {
        this.profile = Objects.requireNonNull(profile, "profile");
        this.threadId = Objects.requireNonNull(threadId, "threadId");
        this.runId = Objects.requireNonNull(runId, "runId");
        this.listener = Objects.requireNonNull(listener, "listener");
    }

    /** The events so far, in order. */
    public List<AguiEvent> events() {
        return List.copyOf(events);
    }

    /** {@code RUN_STARTED}; AG-UI 1.0 declares its protocol version. */
    public void runStarted() {
        Map<String, Object> fields = run();
        if (v1()) {
            fields.put("protocolVersion", "1.0");
        }
        emit(AguiEvent.RUN_STARTED, fields);
    }

    /** {@code STEP_STARTED} for {@code name}. */
    public void stepStarted(String name) {
        openSteps.add(name);
        emit(AguiEvent.STEP_STARTED, Map.of("stepName", name));
    }

    /** {@code STEP_FINISHED} for {@code name}. */
    public void stepFinished(String name) {
        openSteps.remove(name);
        emit(AguiEvent.STEP_FINISHED, Map.of("stepName", name));
    }

    /** {@code TEXT_MESSAGE_START} of a new assistant message; returns its id, new within the thread. */
    public String textMessageStarted() {
        String id = runId + "-m" + (++messages);
        openMessages.add(id);
        emit(AguiEvent.TEXT_MESSAGE_START, Map.of("messageId", id, "role", "assistant"));
        return id;
    }

    /** {@code TEXT_MESSAGE_CONTENT}: visible text of an open message; nothing for empty text. */
    public void textMessageContent(String messageId, String delta) {
        if (!delta.isEmpty()) {
            emit(AguiEvent.TEXT_MESSAGE_CONTENT, Map.of("messageId", messageId, "delta", delta));
        }
    }

    /** {@code TEXT_MESSAGE_END}. */
    public void textMessageEnded(String messageId) {
        openMessages.remove(messageId);
        emit(AguiEvent.TEXT_MESSAGE_END, v1() ? Map.of("messageId", messageId)
                : Map.of("messageId", messageId, "role", "assistant", "status", "success"));
    }

    /**
     * {@code TOOL_CALL_START} for a detected event.
     *
     * @param eventId         the event's id in the batch (unique within the run)
     * @param name            the event name
     * @param parentMessageId the assistant message whose answer asked for it
     */
    public void toolCallStarted(String eventId, String name, String parentMessageId) {
        String id = toolCallId(eventId);
        positions.putIfAbsent(eventId, positions.size() + 1);
        parents.put(id, parentMessageId);
        names.put(id, name);
        openToolCalls.add(id);
        if (v1()) {
            emit(AguiEvent.TOOL_CALL_START, Map.of("toolCallId", id, "toolCallName", name,
                    "parentMessageId", parentMessageId));
        } else {
            emit(AguiEvent.TOOL_CALL_START, dialectToolFields(id));
        }
    }

    /**
     * {@code TOOL_CALL_ARGS}: the event's final arguments, as canonical JSON text (keys sorted) in AG-UI 1.0 and as an
     * object in the social dialect.
     */
    public void toolCallArgs(EventResult event) {
        String id = toolCallId(event.eventId());
        if (v1()) {
            emit(AguiEvent.TOOL_CALL_ARGS, Map.of("toolCallId", id, "delta",
                    CanonicalJson.write(event.arguments())));
        } else {
            Map<String, Object> fields = dialectToolFields(id);
            fields.put("args", event.arguments());
            emit(AguiEvent.TOOL_CALL_ARGS, fields);
        }
    }

    /** {@code TOOL_CALL_END}: the arguments are complete. */
    public void toolCallEnded(String eventId) {
        String id = toolCallId(eventId);
        openToolCalls.remove(id);
        emit(AguiEvent.TOOL_CALL_END, v1() ? Map.of("toolCallId", id) : dialectToolFields(id));
    }

    /**
     * {@code TOOL_CALL_RESULT}: how the event ended, as a tool message of its own. The content is JSON text
     * {@code {"status": success|failure|partial, "outcome": <outcome>, "error": ..., "reason": ..., "duplicateOf": n}};
     * partial means the event needs clarification, and a deduplicated or replayed event reports the outcome it shares.
     * {@code reason} ({@link EventOutcome#reasonName()}) and {@code duplicateOf} (the 1-based batch position of the event a
     * deduplicated one duplicates) are there so a client outside the process can judge what a suite's
     * {@code events[].reason} and {@code duplicateOf} say (docs/wire.md#stream); each is left out when it has no value.
     */
    public void toolCallResult(EventResult event) {
        String id = toolCallId(event.eventId());
        EventOutcome outcome = event.outcome();
        EventOutcome effective = outcome instanceof EventOutcome.Deduplicated d ? d.primaryOutcome()
                : outcome instanceof EventOutcome.Replayed r ? r.originalOutcome() : outcome;
        String status = effective instanceof EventOutcome.Succeeded ? "success"
                : effective instanceof EventOutcome.NeedsClarification ? "partial" : "failure";
        // a clarification without a question carries no error field, as the Python runtime's (docs/wire.md#outcomes)
        String error = (effective.isFailure() || effective instanceof EventOutcome.NeedsClarification)
                && !effective.describe().isEmpty() ? effective.describe() : null;
        Map<String, Object> fields = new LinkedHashMap<>();
        if (v1()) {
            Map<String, Object> content = new LinkedHashMap<>();
            content.put("status", status);
            content.put("outcome", outcome.status());
            if (error != null) {
                content.put("error", error);
            }
            outcome.reasonName().ifPresent(reason -> content.put("reason", reason));
            if (outcome instanceof EventOutcome.Deduplicated deduplicated
                    && positions.containsKey(deduplicated.primaryEventId())) {
                content.put("duplicateOf", positions.get(deduplicated.primaryEventId()));
            }
            fields.put("messageId", id + "-result");
            fields.put("toolCallId", id);
            fields.put("content", Json.write(content));
            fields.put("role", "tool");
        } else {
            fields.put("messageId", parents.get(id));
            fields.put("role", "tool");
            fields.put("stage", STAGE);
            fields.put("tool_name", event.name());
            fields.put("tool_call_id", id);
            fields.put("tool_call_args", event.arguments());
            fields.put("status", status);
            fields.put("result", Map.of("outcome", outcome.status()));
            fields.put("error", error);
        }
        emit(AguiEvent.TOOL_CALL_RESULT, fields);
    }

    /** {@code RUN_FINISHED}: the run completed. */
    public void runFinished() {
        Map<String, Object> fields = run();
        if (v1()) {
            fields.put("outcome", Map.of("type", "success"));
        }
        end(AguiEvent.RUN_FINISHED, fields);
    }

    /** {@code RUN_ERROR}: the run failed. */
    public void runError(String message, String code) {
        Map<String, Object> fields = v1() ? new LinkedHashMap<>() : run();
        fields.put("message", message);
        fields.put("code", code);
        end(AguiEvent.RUN_ERROR, fields);
    }

    /**
     * The run was stopped by the user. AG-UI 1.0: whatever is open is closed (tool calls, text messages, steps,
     * innermost first), then {@code RUN_FINISHED} with outcome {@code cancelled}. The social dialect:
     * {@code RUN_ERROR} with code {@code RUN_CANCELED}.
     */
    public void runCancelled(String message) {
        if (!v1()) {
            runError(message, "RUN_CANCELED");
            return;
        }
        for (String id : List.copyOf(openToolCalls)) {
            openToolCalls.remove(id);
            emit(AguiEvent.TOOL_CALL_END, Map.of("toolCallId", id));
        }
        for (String id : reversed(openMessages)) {
            textMessageEnded(id);
        }
        for (String step : reversed(openSteps)) {
            stepFinished(step);
        }
        Map<String, Object> fields = run();
        fields.put("outcome", Map.of("type", "cancelled"));
        end(AguiEvent.RUN_FINISHED, fields);
    }

    /** The event's tool-call id; a result for an event that never started still gets one, and the checker says so. */
    private String toolCallId(String eventId) {
        return toolCallIds.computeIfAbsent(eventId, e -> runId + "-" + e);
    }

    /** The social dialect's tool-call fields: the parent as messageId, the name and the stage on every event. */
    private Map<String, Object> dialectToolFields(String id) {
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("messageId", parents.get(id));
        fields.put("toolCallId", id);
        fields.put("toolCallName", names.get(id));
        fields.put("stage", STAGE);
        return fields;
    }

    private static List<String> reversed(Set<String> open) {
        List<String> list = new ArrayList<>(open);
        Collections.reverse(list);
        return list;
    }

    private Map<String, Object> run() {
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("threadId", threadId);
        fields.put("runId", runId);
        return fields;
    }

    private void end(String type, Map<String, Object> fields) {
        if (ended) {
            throw new IllegalStateException("run " + runId + " has already ended");
        }
        ended = true;
        add(new AguiEvent(type, fields));
    }

    private void add(AguiEvent event) {
        events.add(event);
        listener.accept(event);
    }

    /** Adds an event; the social dialect puts the thread and run on every event. */
    private void emit(String type, Map<String, Object> fields) {
        if (ended) {
            throw new IllegalStateException(type + " after the end of run " + runId);
        }
        if (v1() || type.equals(AguiEvent.RUN_STARTED)) {
            add(new AguiEvent(type, fields));
        } else {
            Map<String, Object> all = run();
            all.putAll(fields);
            add(new AguiEvent(type, all));
        }
    }

    private boolean v1() {
        return profile == AguiProfile.AGUI_1_0;
    }
}
