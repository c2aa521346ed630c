package io.agentlab.kernel.runtime.audit;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Checks an AG-UI stream against the audit rules ({@code docs/design.md#audit-run-lifecycle} and the clauses after it).
 * Each rule has an id; a violation names the rule, the event index and what to look at.
 *
 * <table>
 *   <caption>Rules</caption>
 *   <tr><td>AGUI-01</td><td>the first event of the run is RUN_STARTED</td></tr>
 *   <tr><td>AGUI-02</td><td>per toolCallId: START → ARGS → END → RESULT, each once; RESULT status is success,
 *       failure or partial and its tool_call_id equals the toolCallId</td></tr>
 *   <tr><td>AGUI-03</td><td>no RUN_FINISHED while a text message or tool call is open</td></tr>
 *   <tr><td>AGUI-04</td><td>exactly one terminal event (RUN_FINISHED or RUN_ERROR), and it is the last</td></tr>
 *   <tr><td>AGUI-05</td><td>the SSE {@code event:} equals {@code data.type}</td></tr>
 *   <tr><td>AGUI-06</td><td>only events of the requested run are delivered</td></tr>
 * <tr><td>AGUI-07</td><td>internal usage fields (inputTokens, outputTokens, cost, latencyMs, model) are
 * absent</td></tr>
 *   <tr><td>AGUI-08</td><td>SSE ids are unique</td></tr>
 * </table>
 */
public final class AguiStreamChecker {

    /** Fields that are backend-internal statistics and must never reach the wire. */
    public static final Set<String> INTERNAL_FIELDS = Set.of("inputTokens", "outputTokens", "cost", "latencyMs", "model");
    private static final Set<String> RESULT_STATUSES = Set.of("success", "failure", "partial");

    private AguiStreamChecker() {
    }

    /**
     * A broken rule.
     *
     * @param rule    the rule id, e.g. {@code AGUI-02}
     * @param index   the event index (0-based), or -1 for the stream as a whole
     * @param message what is wrong and where to look
     */
    public record Violation(String rule, int index, String message) {
        @Override
        public String toString() {
            return rule + (index >= 0 ? " at event " + index : "") + ": " + message;
        }
    }

    /** Checks decoded SSE frames of one run (rules 01–08). */
    public static List<Violation> checkFrames(List<AguiSseCodec.Frame> frames, String runId) {
        List<Violation> violations = new ArrayList<>();
        Set<String> ids = new HashSet<>();
        for (int i = 0; i < frames.size(); i++) {
            AguiSseCodec.Frame frame = frames.get(i);
            if (frame.id() != null && !ids.add(frame.id())) {
                violations.add(new Violation("AGUI-08", i, "SSE id " + frame.id() + " repeats"));
            }
        }
        List<AguiEvent> events = AguiSseCodec.events(frames);
        for (int i = 0; i < events.size(); i++) {
            String event = frames.get(i).event();
            if (event == null || !event.equals(events.get(i).type())) {
                violations.add(new Violation("AGUI-05", i, "event: " + event + " but data.type is "
                        + events.get(i).type()));
            }
        }
        violations.addAll(check(events, runId));
        return violations;
    }

    /** Checks the events of one run (rules 01–04, 06, 07). */
    public static List<Violation> check(List<AguiEvent> events, String runId) {
        List<Violation> violations = new ArrayList<>();
        Map<String, List<String>> toolPhases = new HashMap<>();
        Set<String> openMessages = new HashSet<>();
        int terminals = 0;
        for (int i = 0; i < events.size(); i++) {
            AguiEvent event = events.get(i);
            if (!runId.equals(event.runId())) {
                violations.add(new Violation("AGUI-06", i, "event of run " + event.runId() + " in the stream of run "
                        + runId));
                continue;
            }
            for (String field : INTERNAL_FIELDS) {
                if (event.fields().containsKey(field)) {
                    violations.add(new Violation("AGUI-07", i, event.type() + " carries internal field '" + field
                            + "'"));
                }
            }
            if (i == 0 && !AguiEvent.RUN_STARTED.equals(event.type())) {
                violations.add(new Violation("AGUI-01", i, "the first event is " + event.type()));
            }
            if (terminals > 0) {
                violations.add(new Violation("AGUI-04", i, event.type() + " after the terminal event"));
            }
            switch (event.type()) {
                case AguiEvent.TEXT_MESSAGE_START -> openMessages.add(event.text("messageId"));
                case AguiEvent.TEXT_MESSAGE_END -> openMessages.remove(event.text("messageId"));
                case AguiEvent.TOOL_CALL_START, AguiEvent.TOOL_CALL_ARGS, AguiEvent.TOOL_CALL_END ->
                        toolPhase(violations, toolPhases, i, event.text("toolCallId"), event.type(), event);
                case AguiEvent.TOOL_CALL_RESULT -> {
                    toolPhase(violations, toolPhases, i, event.text("tool_call_id"), event.type(), event);
                    if (!RESULT_STATUSES.contains(event.text("status"))) {
                        violations.add(new Violation("AGUI-02", i, "TOOL_CALL_RESULT status '" + event.text("status")
                                + "' is not success, failure or partial"));
                    }
                }
                case AguiEvent.RUN_FINISHED -> {
                    terminals++;
                    List<String> open = new ArrayList<>(openMessages);
                    toolPhases.forEach((id, phases) -> {
                        if (!phases.contains(AguiEvent.TOOL_CALL_RESULT)) {
                            open.add(id);
                        }
                    });
                    if (!open.isEmpty()) {
                        violations.add(new Violation("AGUI-03", i, "RUN_FINISHED while still open: " + open));
                    }
                }
                case AguiEvent.RUN_ERROR -> terminals++;
                default -> { }
            }
        }
        if (terminals != 1) {
            violations.add(new Violation("AGUI-04", -1, "expected exactly one terminal event, found " + terminals));
        }
        return violations;
    }

    private static void toolPhase(List<Violation> violations, Map<String, List<String>> phases, int index, String id,
                                  String type, AguiEvent event) {
        if (id == null) {
            violations.add(new Violation("AGUI-02", index, type + " without a tool call id"));
            return;
        }
        List<String> seen = phases.computeIfAbsent(id, k -> new ArrayList<>());
        List<String> order = List.of(AguiEvent.TOOL_CALL_START, AguiEvent.TOOL_CALL_ARGS, AguiEvent.TOOL_CALL_END,
                AguiEvent.TOOL_CALL_RESULT);
        int expected = seen.size();
        if (expected >= order.size() || !order.get(expected).equals(type)) {
            violations.add(new Violation("AGUI-02", index, "tool call " + id + ": " + type + " after " + seen
                    + " (expected " + (expected < order.size() ? order.get(expected) : "nothing more") + ")"));
        }
        seen.add(type);
    }
}
