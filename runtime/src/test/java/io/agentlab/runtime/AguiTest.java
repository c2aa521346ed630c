package io.agentlab.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.agentlab.agui.AguiEvent;
import io.agentlab.agui.AguiProfile;
import io.agentlab.agui.AguiSseCodec;
import io.agentlab.agui.AguiStreamChecker;
import io.agentlab.agui.AguiStreamChecker.Violation;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The SSE codec, and the social dialect's rules, each broken once. */
class AguiTest {

    private static AguiEvent e(String type, Map<String, Object> more) {
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("threadId", "thread");
        fields.put("runId", "run-1");
        fields.putAll(more);
        return new AguiEvent(type, fields);
    }

    /** A valid social-dialect run: a message, one tool call through to its result, the end. */
    static List<AguiEvent> valid() {
        return List.of(
                e(AguiEvent.RUN_STARTED, Map.of()),
                e(AguiEvent.TEXT_MESSAGE_START, Map.of("messageId", "m1")),
                e(AguiEvent.TEXT_MESSAGE_CONTENT, Map.of("messageId", "m1", "delta", "hi")),
                e(AguiEvent.TEXT_MESSAGE_END, Map.of("messageId", "m1")),
                e(AguiEvent.TOOL_CALL_START, Map.of("toolCallId", "e1")),
                e(AguiEvent.TOOL_CALL_ARGS, Map.of("toolCallId", "e1", "args", Map.of())),
                e(AguiEvent.TOOL_CALL_END, Map.of("toolCallId", "e1")),
                e(AguiEvent.TOOL_CALL_RESULT, Map.of("tool_call_id", "e1", "tool_call_args", Map.of(),
                        "status", "success")),
                e(AguiEvent.RUN_FINISHED, Map.of()));
    }

    private static List<String> rules(List<Violation> violations) {
        return violations.stream().map(Violation::rule).distinct().toList();
    }

    private static List<String> social(List<AguiEvent> events) {
        return rules(AguiStreamChecker.check(AguiProfile.SOCIAL_DIALECT, events, "run-1"));
    }

    /** The clause this checks: {@code docs/design.md#audit-sse-framing}. */
    @Test
    @DisplayName("resume: after Last-Event-ID the rest of the run, ids kept; an unknown id is refused")
    void resume() {
        List<AguiSseCodec.Frame> all = AguiSseCodec.decode(AguiSseCodec.resume(valid(), null));
        List<AguiSseCodec.Frame> rest = AguiSseCodec.decode(AguiSseCodec.resume(valid(), "3"));
        assertThat(rest).isEqualTo(all.subList(3, all.size()));
        assertThat(rest.get(0).id()).isEqualTo("4");
        assertThat(AguiSseCodec.resume(valid(), "9")).isEmpty();
        assertThatThrownBy(() -> AguiSseCodec.resume(valid(), "10")).hasMessageContaining("not an id of this run");
        assertThatThrownBy(() -> AguiSseCodec.resume(valid(), "x")).hasMessageContaining("not an id of this run");
    }

    /** The clause this checks: {@code docs/design.md#audit-sse-framing}. */
    @Test
    @DisplayName("encode → decode round-trips, keep-alive comments are skipped, and a valid stream passes")
    void roundTrip() {
        String sse = AguiSseCodec.encode(valid().subList(0, 4), 1) + AguiSseCodec.keepAlive()
                + AguiSseCodec.encode(valid().subList(4, 9), 5);
        List<AguiSseCodec.Frame> frames = AguiSseCodec.decode(sse);
        assertThat(frames).hasSize(9);
        assertThat(frames.get(0).id()).isEqualTo("1");
        assertThat(frames.get(0).event()).isEqualTo("RUN_STARTED");
        assertThat(AguiSseCodec.events(frames)).isEqualTo(valid());
        assertThat(AguiStreamChecker.checkFrames(AguiProfile.SOCIAL_DIALECT, frames, "run-1")).isEmpty();
    }

    /**
     * The clause this checks: {@code docs/design.md#audit-no-internal-usage} (SOCIAL-07 finds an internal usage field).
     */
    @Test
    @DisplayName("each social-dialect rule names itself when broken")
    void socialRules() {
        assertThat(social(valid())).isEmpty();
        assertThat(social(valid().subList(1, 9))).contains("SOCIAL-01");

        List<AguiEvent> outOfOrder = new ArrayList<>(valid());
        outOfOrder.set(5, e(AguiEvent.TOOL_CALL_END, Map.of("toolCallId", "e1")));
        outOfOrder.set(6, e(AguiEvent.TOOL_CALL_ARGS, Map.of("toolCallId", "e1", "args", Map.of())));
        assertThat(social(outOfOrder)).containsExactly("SOCIAL-02");

        List<AguiEvent> badStatus = new ArrayList<>(valid());
        badStatus.set(7, e(AguiEvent.TOOL_CALL_RESULT, Map.of("tool_call_id", "e1", "tool_call_args", Map.of(),
                "status", "ok")));
        assertThat(social(badStatus)).containsExactly("SOCIAL-02");

        List<AguiEvent> deltaArgs = new ArrayList<>(valid());
        deltaArgs.set(5, e(AguiEvent.TOOL_CALL_ARGS, Map.of("toolCallId", "e1", "delta", "{}")));
        assertThat(social(deltaArgs)).containsExactly("SOCIAL-02");

        List<AguiEvent> openMessage = new ArrayList<>(valid());
        openMessage.remove(3);
        assertThat(social(openMessage)).containsExactly("SOCIAL-03");

        List<AguiEvent> twoTerminals = new ArrayList<>(valid());
        twoTerminals.add(e(AguiEvent.RUN_ERROR, Map.of("code", "X")));
        assertThat(social(twoTerminals)).containsExactly("SOCIAL-04");

        List<AguiEvent> otherRun = new ArrayList<>(valid());
        otherRun.add(4, new AguiEvent(AguiEvent.STEP_STARTED, Map.of("threadId", "thread", "runId", "run-2",
                "stepName", "x")));
        assertThat(social(otherRun)).containsExactly("SOCIAL-06");

        List<AguiEvent> leaky = new ArrayList<>(valid());
        leaky.set(3, e(AguiEvent.TEXT_MESSAGE_END, Map.of("messageId", "m1", "inputTokens", 12)));
        assertThat(social(leaky)).containsExactly("SOCIAL-07");
    }

    /** The clause this checks: {@code docs/design.md#audit-sse-framing}. */
    @Test
    @DisplayName("social-dialect SSE framing: event: equals data.type; SSE ids unique")
    void socialFraming() {
        String sse = "id: 1\nevent: RUN_STARTED\ndata: {\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"run-1\"}\n\n"
                + "id: 1\nevent: RUN_ERROR\ndata: {\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"run-1\"}\n\n";
        assertThat(rules(AguiStreamChecker.checkFrames(AguiProfile.SOCIAL_DIALECT, AguiSseCodec.decode(sse), "run-1")))
                .containsExactlyInAnyOrder("ENDPOINT-04", "SOCIAL-05");
    }
}
