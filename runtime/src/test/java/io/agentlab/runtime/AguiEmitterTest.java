package io.agentlab.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.agentlab.kernel.api.EventOutcome;
import io.agentlab.kernel.api.EventResult;
import io.agentlab.kernel.api.EventTimings;
import io.agentlab.kernel.api.ResolutionReport;
import io.agentlab.runtime.audit.AguiEmitter;
import io.agentlab.agui.AguiEvent;
import io.agentlab.agui.AguiProfile;
import io.agentlab.agui.AguiStreamChecker;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The emitter writes each profile's wire shape exactly, owns the ids, and closes what is open when a run is cancelled. */
class AguiEmitterTest {

    private static EventResult volume(String eventId, EventOutcome outcome) {
        return new EventResult(eventId, "device.volume.adjust", 0, Map.of("mode", "absolute", "value", 30),
                ResolutionReport.notAttempted(), new EventTimings(Duration.ZERO, Optional.empty(), Optional.empty(),
                Duration.ZERO), outcome);
    }

    /** One turn: an answer, one event through to its result, the end. */
    private static List<AguiEvent> turn(AguiProfile profile, String runId, EventOutcome outcome) {
        AguiEmitter agui = new AguiEmitter(profile, "s1", runId);
        agui.runStarted();
        agui.stepStarted("chat");
        String message = agui.textMessageStarted();
        agui.textMessageContent(message, "Volume 30.");
        agui.textMessageContent(message, "");
        agui.textMessageEnded(message);
        agui.stepFinished("chat");
        agui.stepStarted("events");
        agui.toolCallStarted("e1", "device.volume.adjust", message);
        agui.toolCallArgs(volume("e1", outcome));
        agui.toolCallEnded("e1");
        agui.toolCallResult(volume("e1", outcome));
        agui.stepFinished("events");
        agui.runFinished();
        return agui.events();
    }

    private static List<Map<String, Object>> fields(List<AguiEvent> events) {
        return events.stream().map(AguiEvent::fields).toList();
    }

    /**
     * The clause this checks: {@code docs/design.md#audit-no-internal-usage} (exactly the fields: no internal
     * accounting field on the wire).
     */
    @Test
    @DisplayName("AG-UI 1.0: exactly the fields each event defines, arguments as delta text, the result's own message "
            + "id, parentMessageId, run ids only on the run events")
    void agui10() {
        assertThat(fields(turn(AguiProfile.AGUI_1_0, "s1-t1", new EventOutcome.Succeeded(Map.of(), 1))))
                .containsExactly(
                        Map.of("type", "RUN_STARTED", "threadId", "s1", "runId", "s1-t1", "protocolVersion", "1.0"),
                        Map.of("type", "STEP_STARTED", "stepName", "chat"),
                        Map.of("type", "TEXT_MESSAGE_START", "messageId", "s1-t1-m1", "role", "assistant"),
                        Map.of("type", "TEXT_MESSAGE_CONTENT", "messageId", "s1-t1-m1", "delta", "Volume 30."),
                        Map.of("type", "TEXT_MESSAGE_END", "messageId", "s1-t1-m1"),
                        Map.of("type", "STEP_FINISHED", "stepName", "chat"),
                        Map.of("type", "STEP_STARTED", "stepName", "events"),
                        Map.of("type", "TOOL_CALL_START", "toolCallId", "s1-t1-e1", "toolCallName",
                                "device.volume.adjust", "parentMessageId", "s1-t1-m1"),
                        Map.of("type", "TOOL_CALL_ARGS", "toolCallId", "s1-t1-e1",
                                "delta", "{\"mode\":\"absolute\",\"value\":30}"),
                        Map.of("type", "TOOL_CALL_END", "toolCallId", "s1-t1-e1"),
                        Map.of("type", "TOOL_CALL_RESULT", "messageId", "s1-t1-e1-result", "toolCallId", "s1-t1-e1",
                                "content", "{\"status\":\"success\",\"outcome\":\"succeeded\"}", "role", "tool"),
                        Map.of("type", "STEP_FINISHED", "stepName", "events"),
                        Map.of("type", "RUN_FINISHED", "threadId", "s1", "runId", "s1-t1",
                                "outcome", Map.of("type", "success")));
    }

    @Test
    @DisplayName("a failed event's result says failure and why, as content text")
    void failure() {
        List<AguiEvent> events = turn(AguiProfile.AGUI_1_0, "s1-t1",
                new EventOutcome.Failed("device_offline", "the speaker is offline", false, 1));
        assertThat(events).filteredOn(e -> e.type().equals(AguiEvent.TOOL_CALL_RESULT)).singleElement()
                .satisfies(e -> assertThat(e.text("content")).startsWith("{\"status\":\"failure\",\"outcome\":\"failed\","
                        + "\"error\":").contains("device_offline"));
        assertThat(AguiStreamChecker.check(AguiProfile.AGUI_1_0, events, "s1-t1")).isEmpty();
    }

    /**
     * What a client outside the process judges a suite's {@code events[].reason} and {@code duplicateOf} on
     * (docs/wire.md#stream): the same value {@link EventOutcome#reasonName()} gives in-process, and the primary's 1-based
     * batch position; {@code error} is the outcome in words (docs/wire.md#outcomes), never a record's toString.
     */
    @Test
    @DisplayName("a tool result's content carries the reason (rejection, failure code, timeout limit) and duplicateOf")
    void reasonAndDuplicate() {
        assertThat(content(turn(AguiProfile.AGUI_1_0, "s1-t1",
                new EventOutcome.Failed("device_offline", "the speaker is offline", false, 1))))
                .containsEntry("reason", "device_offline")
                .containsEntry("error", "device_offline: the speaker is offline");
        assertThat(content(turn(AguiProfile.AGUI_1_0, "s1-t1", new EventOutcome.TimedOut(Duration.ofSeconds(1),
                EventOutcome.TimeoutScope.BATCH, true)))).containsEntry("reason", "batch")
                .containsEntry("error", "timed out after 1000 ms (batch)");
        assertThat(content(turn(AguiProfile.AGUI_1_0, "s1-t1", new EventOutcome.Rejected(
                EventOutcome.RejectionReason.INVALID_ARGUMENTS, "bad", List.of()))))
                .containsEntry("reason", "invalid_arguments").containsEntry("error", "invalid_arguments: bad");
        assertThat(content(turn(AguiProfile.AGUI_1_0, "s1-t1", new EventOutcome.Succeeded(Map.of(), 1))))
                .doesNotContainKeys("reason", "duplicateOf", "error");

        AguiEmitter agui = new AguiEmitter(AguiProfile.AGUI_1_0, "s1", "s1-t1");
        agui.runStarted();
        agui.stepStarted("events");
        for (String id : List.of("e1", "e2", "e3")) {
            agui.toolCallStarted(id, "device.volume.adjust", "s1-t1-m0");
        }
        EventOutcome primary = new EventOutcome.Succeeded(Map.of(), 1);
        for (String id : List.of("e1", "e2", "e3")) {
            EventResult result = volume(id, id.equals("e3") ? new EventOutcome.Deduplicated("e2", primary) : primary);
            agui.toolCallArgs(result);
            agui.toolCallEnded(id);
            agui.toolCallResult(result);
        }
        agui.stepFinished("events");
        agui.runFinished();
        assertThat(content(agui.events())).containsEntry("outcome", "deduplicated").containsEntry("duplicateOf", 2)
                .doesNotContainKey("reason");
        assertThat(AguiStreamChecker.check(AguiProfile.AGUI_1_0, agui.events(), "s1-t1")).isEmpty();
    }

    /** A server streams the run as it happens (docs/wire.md#endpoint): the listener is told every event, in order. */
    @Test
    @DisplayName("the listener is told each event as it is emitted, the same events in the same order")
    void listener() {
        List<AguiEvent> told = new java.util.ArrayList<>();
        AguiEmitter agui = new AguiEmitter(AguiProfile.AGUI_1_0, "s1", "s1-t1", told::add);
        agui.runStarted();
        String message = agui.textMessageStarted();
        assertThat(told).hasSize(2);
        agui.textMessageContent(message, "Hi.");
        agui.textMessageEnded(message);
        agui.runFinished();
        assertThat(told).isEqualTo(agui.events()).hasSize(5);
    }

    /** The last tool result's content, parsed. */
    private static Map<String, Object> content(List<AguiEvent> events) {
        List<AguiEvent> results = events.stream().filter(e -> e.type().equals(AguiEvent.TOOL_CALL_RESULT)).toList();
        return io.agentlab.runtime.llm.Json.object(io.agentlab.runtime.llm.Json.tree(
                results.get(results.size() - 1).text("content")));
    }

    /** The clause this checks: {@code docs/design.md#audit-events}. */
    @Test
    @DisplayName("the social dialect: thread and run on every event, stage, an args object, snake_case result fields")
    void socialDialect() {
        List<AguiEvent> events = turn(AguiProfile.SOCIAL_DIALECT, "s1-t1", new EventOutcome.Succeeded(Map.of(), 1));
        assertThat(fields(events)).allSatisfy(f -> assertThat(f).containsEntry("threadId", "s1")
                .containsEntry("runId", "s1-t1"));
        assertThat(events.get(8).fields()).isEqualTo(Map.of("type", "TOOL_CALL_ARGS", "threadId", "s1",
                "runId", "s1-t1", "messageId", "s1-t1-m1", "toolCallId", "s1-t1-e1", "toolCallName",
                "device.volume.adjust", "stage", "events", "args", Map.of("mode", "absolute", "value", 30)));
        assertThat(events.get(10).fields()).containsEntry("messageId", "s1-t1-m1").containsEntry("role", "tool")
                .containsEntry("tool_name", "device.volume.adjust").containsEntry("tool_call_id", "s1-t1-e1")
                .containsEntry("tool_call_args", Map.of("mode", "absolute", "value", 30))
                .containsEntry("status", "success").containsEntry("result", Map.of("outcome", "succeeded"))
                .containsEntry("error", null);
        assertThat(AguiStreamChecker.check(AguiProfile.SOCIAL_DIALECT, events, "s1-t1")).isEmpty();
    }

    /** The clause this checks: {@code docs/design.md#audit-events}. */
    @Test
    @DisplayName("two turns of one thread whose batches both start at e1 still get distinct tool-call and message ids")
    void idsUniqueAcrossTurns() {
        List<AguiEvent> first = turn(AguiProfile.AGUI_1_0, "s1-t1", new EventOutcome.Succeeded(Map.of(), 1));
        List<AguiEvent> second = turn(AguiProfile.AGUI_1_0, "s1-t2", new EventOutcome.Succeeded(Map.of(), 1));
        assertThat(second.get(7).text("toolCallId")).isEqualTo("s1-t2-e1").isNotEqualTo(first.get(7).text("toolCallId"));
        AguiStreamChecker.ThreadCheck thread = AguiStreamChecker.thread(AguiProfile.AGUI_1_0);
        for (List<AguiEvent> run : List.of(first, second)) {
            AguiStreamChecker.StreamCheck stream = thread.stream(null);
            run.forEach(stream::event);
            assertThat(stream.finish()).isEmpty();
        }
    }

    @Test
    @DisplayName("cancelled mid-batch: open tool calls, messages and steps close, then RUN_FINISHED outcome cancelled")
    void cancelled() {
        AguiEmitter agui = new AguiEmitter(AguiProfile.AGUI_1_0, "s1", "s1-t1");
        agui.runStarted();
        agui.stepStarted("chat");
        String message = agui.textMessageStarted();
        agui.stepStarted("events");
        agui.toolCallStarted("e1", "device.volume.adjust", message);
        agui.runCancelled("run canceled by user");
        assertThat(agui.events()).extracting(AguiEvent::type).containsExactly("RUN_STARTED", "STEP_STARTED",
                "TEXT_MESSAGE_START", "STEP_STARTED", "TOOL_CALL_START", "TOOL_CALL_END", "TEXT_MESSAGE_END",
                "STEP_FINISHED", "STEP_FINISHED", "RUN_FINISHED");
        assertThat(agui.events().get(8).text("stepName")).isEqualTo("chat");
        assertThat(agui.events().get(9).fields()).containsEntry("outcome", Map.of("type", "cancelled"));
        assertThat(AguiStreamChecker.check(AguiProfile.AGUI_1_0, agui.events(), "s1-t1")).isEmpty();
        assertThatThrownBy(agui::runFinished).hasMessageContaining("already ended");
        assertThatThrownBy(() -> agui.stepStarted("late")).hasMessageContaining("after the end of run s1-t1");
    }
}
