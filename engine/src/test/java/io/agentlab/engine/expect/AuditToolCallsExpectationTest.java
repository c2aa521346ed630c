package io.agentlab.engine.expect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.agentlab.engine.internal.yaml.Position;
import io.agentlab.kernel.api.EventOutcome;
import io.agentlab.kernel.api.EventResult;
import io.agentlab.kernel.api.EventTimings;
import io.agentlab.kernel.api.ResolutionReport;
import io.agentlab.runtime.audit.AguiEmitter;
import io.agentlab.agui.AguiEvent;
import io.agentlab.agui.AguiProfile;
import io.agentlab.runtime.llm.Json;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import io.agentlab.runtime.TurnRuntime;

/**
 * {@code auditToolCalls} reads what the runtime's emitter writes, in both profiles, and goes red on each wrong meaning
 * a stream can carry (docs/design.md#audit-tool-call-lifecycle, docs/design.md#audit-failure-result): arguments that
 * are not the event's final ones, a deduplicated or replayed success reported as a failure, a clarification reported
 * as a failure, a failure without its error, a missing result, other tool calls.
 */
class AuditToolCallsExpectationTest {

    /** In this order, as a suite writes them (Map.of's order differs from one JVM to the next). */
    private static final Map<String, Object> THIRTY = ordered("mode", "absolute", "value", 30);
    private static final EventOutcome SUCCESS = new EventOutcome.Succeeded(Map.of(), 1);

    private static Map<String, Object> ordered(String key, Object value, String key2, Object value2) {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put(key, value);
        map.put(key2, value2);
        return map;
    }

    private static EventResult result(String id, String name, Map<String, Object> arguments, EventOutcome outcome) {
        return new EventResult(id, name, 0, arguments, ResolutionReport.notAttempted(), new EventTimings(Duration.ZERO,
                Optional.of(Duration.ZERO), Optional.empty(), Duration.ZERO), outcome);
    }

    /** The stream the runtime writes for a batch of {@code results}, as TurnRuntime drives the emitter. */
    private static List<AguiEvent> stream(AguiProfile profile, EventResult... results) {
        AguiEmitter agui = new AguiEmitter(profile, "session", "turn-1");
        agui.runStarted();
        String message = agui.textMessageStarted();
        agui.textMessageContent(message, "On it.");
        agui.textMessageEnded(message);
        for (EventResult result : results) {
            agui.toolCallStarted(result.eventId(), result.name(), message);
        }
        for (EventResult result : results) {
            agui.toolCallArgs(result);
            agui.toolCallEnded(result.eventId());
            agui.toolCallResult(result);
        }
        agui.runFinished();
        return agui.events();
    }

    private static AuditToolCallsExpectation expect(AuditToolCallsExpectation.ToolCall... calls) {
        return new AuditToolCallsExpectation(List.of(calls), Position.UNKNOWN);
    }

    private static AuditToolCallsExpectation.ToolCall call(String name, Map<String, Object> arguments, String status,
                                                           Boolean error) {
        return new AuditToolCallsExpectation.ToolCall(name, Optional.ofNullable(arguments), Optional.ofNullable(status),
                Optional.ofNullable(error), Position.UNKNOWN);
    }

    private static List<String> failures(AuditToolCallsExpectation expectation, List<AguiEvent> audit) {
        List<String> failures = new ArrayList<>();
        expectation.check(audit, failures);
        return failures;
    }

    /** {@code audit} with each event of {@code type} changed (its fields, {@code type} included, replaced). */
    private static List<AguiEvent> changing(List<AguiEvent> audit, String type,
                                            UnaryOperator<Map<String, Object>> change) {
        return audit.stream().map(event -> event.type().equals(type)
                ? new AguiEvent(type, change.apply(new LinkedHashMap<>(event.fields()))) : event).toList();
    }

    /** An AG-UI 1.0 result's content with {@code key} set to {@code value} (null: removed). */
    private static Map<String, Object> content(Map<String, Object> fields, String key, Object value) {
        Map<String, Object> content = new LinkedHashMap<>(Json.object(Json.tree((String) fields.get("content"))));
        if (value == null) {
            content.remove(key);
        } else {
            content.put(key, value);
        }
        fields.put("content", Json.write(content));
        return fields;
    }

    @ParameterizedTest
    @EnumSource(AguiProfile.class)
    @DisplayName("the emitter's streams read as the events ended, in either profile")
    void readsTheEmitter(AguiProfile profile) {
        List<AguiEvent> audit = stream(profile,
                result("e1", "device.volume.adjust", THIRTY, SUCCESS),
                result("e2", "device.volume.adjust", THIRTY, new EventOutcome.Deduplicated("e1", SUCCESS)),
                result("e3", "probe.fast", Map.of(), new EventOutcome.Replayed(SUCCESS)),
                result("e4", "device.volume.adjust", Map.of(), new EventOutcome.NeedsClarification("Up or down?",
                        Set.of("mode"))),
                result("e5", "probe.broken", Map.of(), new EventOutcome.Failed("device_offline", "offline", false, 1)));
        assertThat(failures(expect(
                call("device.volume.adjust", THIRTY, "success", false),
                call("device.volume.adjust", Map.of("value", 30), "success", false),
                call("probe.fast", Map.of(), "success", false),
                call("device.volume.adjust", null, "partial", null),
                call("probe.broken", null, "failure", true)), audit)).isEmpty();
    }

    @Test
    @DisplayName("TOOL_CALL_ARGS that are not the event's final arguments fail, naming what was expected and what came")
    void wrongArguments() {
        List<AguiEvent> right = stream(AguiProfile.AGUI_1_0, result("e1", "device.volume.adjust", THIRTY, SUCCESS));
        AuditToolCallsExpectation expectation = expect(call("device.volume.adjust", THIRTY, null, null));
        List<AguiEvent> empty = changing(right, AguiEvent.TOOL_CALL_ARGS, fields -> {
            fields.put("delta", "{}");
            return fields;
        });
        assertThat(failures(expectation, empty)).singleElement().asString()
                .startsWith("tool call 1 (device.volume.adjust, turn-1-e1): expected TOOL_CALL_ARGS carrying "
                        + "{\"mode\":\"absolute\",\"value\":30} but mode: expected \"absolute\" but it is absent")
                .endsWith("; it carried {}");
        List<AguiEvent> none = right.stream().filter(event -> !event.type().equals(AguiEvent.TOOL_CALL_ARGS)).toList();
        assertThat(failures(expectation, none)).singleElement().asString().endsWith("but it had no TOOL_CALL_ARGS");
        List<AguiEvent> text = changing(right, AguiEvent.TOOL_CALL_ARGS, fields -> {
            fields.put("delta", "{mode:");
            return fields;
        });
        assertThat(failures(expectation, text)).singleElement().asString()
                .endsWith("but its arguments are not JSON: {mode:");
    }

    @Test
    @DisplayName("a deduplicated or replayed success, or a clarification, reported as a failure fails")
    void wrongStatus() {
        AuditToolCallsExpectation success = expect(call("probe.fast", null, "success", false));
        for (EventOutcome shared : List.of(new EventOutcome.Deduplicated("e0", SUCCESS),
                new EventOutcome.Replayed(SUCCESS))) {
            List<AguiEvent> right = stream(AguiProfile.AGUI_1_0, result("e1", "probe.fast", Map.of(), shared));
            assertThat(failures(success, right)).as(shared.status()).isEmpty();
            List<AguiEvent> failure = changing(right, AguiEvent.TOOL_CALL_RESULT,
                    fields -> content(fields, "status", "failure"));
            assertThat(failures(success, failure)).as(shared.status()).singleElement().asString()
                    .startsWith("tool call 1 (probe.fast, turn-1-e1): expected TOOL_CALL_RESULT status success but "
                            + "was failure; the result was {");
        }
        List<AguiEvent> social = changing(stream(AguiProfile.SOCIAL_DIALECT,
                        result("e1", "probe.fast", Map.of(), new EventOutcome.Replayed(SUCCESS))),
                AguiEvent.TOOL_CALL_RESULT, fields -> {
                    fields.put("status", "failure");
                    return fields;
                });
        assertThat(failures(success, social)).singleElement().asString()
                .contains("expected TOOL_CALL_RESULT status success but was failure");
        List<AguiEvent> clarification = changing(stream(AguiProfile.AGUI_1_0, result("e1", "probe.fast", Map.of(),
                        new EventOutcome.NeedsClarification("Which one?", Set.of("target")))),
                AguiEvent.TOOL_CALL_RESULT, fields -> content(fields, "status", "failure"));
        assertThat(failures(expect(call("probe.fast", null, "partial", null)), clarification)).singleElement()
                .asString().contains("expected TOOL_CALL_RESULT status partial but was failure");
    }

    @Test
    @DisplayName("a failure without its error fails, and so does an error where none is expected")
    void wrongError() {
        List<AguiEvent> right = stream(AguiProfile.AGUI_1_0, result("e1", "probe.broken", Map.of(),
                new EventOutcome.Failed("device_offline", "offline", false, 1)));
        List<AguiEvent> bare = changing(right, AguiEvent.TOOL_CALL_RESULT, fields -> content(fields, "error", null));
        assertThat(failures(expect(call("probe.broken", null, "failure", true)), bare)).singleElement().asString()
                .startsWith("tool call 1 (probe.broken, turn-1-e1): expected the TOOL_CALL_RESULT to carry an error "
                        + "but it carried none");
        List<AguiEvent> social = changing(stream(AguiProfile.SOCIAL_DIALECT, result("e1", "probe.broken", Map.of(),
                new EventOutcome.Failed("device_offline", "offline", false, 1))), AguiEvent.TOOL_CALL_RESULT, fields -> {
                    fields.put("error", null); // the dialect writes "no error" as null
                    return fields;
                });
        assertThat(failures(expect(call("probe.broken", null, null, true)), social)).singleElement().asString()
                .contains("expected the TOOL_CALL_RESULT to carry an error but it carried none");
        assertThat(failures(expect(call("probe.broken", null, null, false)), right)).singleElement().asString()
                .startsWith("tool call 1 (probe.broken, turn-1-e1): expected the TOOL_CALL_RESULT to carry no error "
                        + "but it carried \"device_offline: offline\"");
    }

    @Test
    @DisplayName("other tool calls than expected, or one without a result, fail")
    void wrongCalls() {
        List<AguiEvent> right = stream(AguiProfile.AGUI_1_0, result("e1", "probe.fast", Map.of(), SUCCESS));
        assertThat(failures(expect(call("probe.fast", null, null, null), call("probe.fast", null, null, null)), right))
                .containsExactly("expected the AG-UI stream's tool calls [probe.fast, probe.fast] but it started "
                        + "[probe.fast]");
        List<AguiEvent> open = right.stream().filter(event -> !event.type().equals(AguiEvent.TOOL_CALL_RESULT))
                .toList();
        assertThat(failures(expect(call("probe.fast", null, "success", null)), open)).containsExactly(
                "tool call 1 (probe.fast, turn-1-e1): expected a TOOL_CALL_RESULT with status success but the stream "
                        + "has none for it");
        assertThat(failures(expect(call("probe.fast", null, null, null)), open)).as("nothing asked of the result")
                .isEmpty();
    }

    @Test
    @DisplayName("an expected tool call refuses a blank name and an unknown status")
    void refusesWhatDoesNotFit() {
        assertThatThrownBy(() -> call(" ", null, null, null)).hasMessage("an expected tool call needs a name");
        assertThatThrownBy(() -> call("probe.fast", null, "done", null))
                .hasMessage("unknown tool-call result status 'done'; expected one of [failure, partial, success]");
    }
}
