package io.agentlab.contracts;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentlab.agui.AguiEvent;
import io.agentlab.agui.AguiProfile;
import io.agentlab.agui.AguiStreamChecker;
import io.agentlab.agui.AguiStreamChecker.Violation;
import io.agentlab.runtime.llm.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The defects the official AG-UI 1.0 client found in the kit's former audit stream, each rejected by the AG-UI 1.0
 * rules with a violation naming the rule, the event (position and type) and the field. (Every rule, broken once:
 * {@link AguiRuleCatalogueTest}.)
 */
class AguiDefectsTest {

    /** A valid AG-UI 1.0 run: an answer, one tool call with its result, the end. Event n is line n. */
    private static final List<String> GOOD = AguiRuleCatalogueTest.GOOD;

    private static List<AguiEvent> events(List<String> lines) {
        List<AguiEvent> events = new ArrayList<>();
        for (String line : lines) {
            Map<String, Object> fields = Json.object(Json.tree(line.replace('\'', '"')));
            events.add(new AguiEvent(String.valueOf(fields.get("type")), fields));
        }
        return events;
    }

    private static List<String> with(int line, String replacement) {
        List<String> lines = new ArrayList<>(GOOD);
        lines.set(line - 1, replacement);
        return lines;
    }

    private static List<Violation> check(List<String> lines) {
        return AguiStreamChecker.check(AguiProfile.AGUI_1_0, events(lines), null);
    }

    private static Tuple v(String rule, int event, String type, String field) {
        return new Tuple(rule, event, type, field);
    }

    @Test
    @DisplayName("the good run passes")
    void good() {
        assertThat(check(GOOD)).isEmpty();
    }

    @Test
    @DisplayName("TOOL_CALL_ARGS with an args object instead of the delta string")
    void argsObject() {
        List<Violation> violations = check(with(6, "{'type':'TOOL_CALL_ARGS','toolCallId':'s1-t1-e1','args':{'value':30}}"));
        assertThat(violations).extracting(Violation::rule, Violation::event, Violation::type, Violation::field)
                .containsExactlyInAnyOrder(v("AGUI1-03", 6, "TOOL_CALL_ARGS", "/delta"),
                        v("AGUI1-04", 6, "TOOL_CALL_ARGS", "/args"));
        assertThat(violations.get(0).toString()).isEqualTo("AGUI1-03 at event 6 TOOL_CALL_ARGS, field /delta: is "
                + "missing; TOOL_CALL_ARGS requires it (a string)");
    }

    @Test
    @DisplayName("TOOL_CALL_RESULT with snake_case fields instead of toolCallId and content")
    void snakeCaseResult() {
        assertThat(check(with(8, "{'type':'TOOL_CALL_RESULT','messageId':'s1-t1-e1-result','role':'tool',"
                + "'tool_call_id':'s1-t1-e1','tool_call_args':{},'status':'success','result':{}}")))
                .extracting(Violation::rule, Violation::event, Violation::type, Violation::field)
                .containsExactlyInAnyOrder(v("AGUI1-03", 8, "TOOL_CALL_RESULT", "/toolCallId"),
                        v("AGUI1-03", 8, "TOOL_CALL_RESULT", "/content"),
                        v("AGUI1-04", 8, "TOOL_CALL_RESULT", "/tool_call_id"),
                        v("AGUI1-04", 8, "TOOL_CALL_RESULT", "/tool_call_args"),
                        v("AGUI1-04", 8, "TOOL_CALL_RESULT", "/status"),
                        v("AGUI1-04", 8, "TOOL_CALL_RESULT", "/result"));
    }

    @Test
    @DisplayName("a tool result that reuses the assistant message's id")
    void resultReusesMessageId() {
        List<Violation> violations = check(with(8, "{'type':'TOOL_CALL_RESULT','messageId':'s1-t1-m1',"
                + "'toolCallId':'s1-t1-e1','content':'ok','role':'tool'}"));
        assertThat(violations).extracting(Violation::rule, Violation::event, Violation::type, Violation::field)
                .containsExactly(v("AGUI1-15", 8, "TOOL_CALL_RESULT", "/messageId"));
        assertThat(violations.get(0).message()).contains("already names an assistant message");
    }

    @Test
    @DisplayName("tool-call ids e1, e2 that restart every turn of the thread")
    void toolCallIdsRestartEachTurn() {
        List<String> first = new ArrayList<>();
        List<String> second = new ArrayList<>();
        for (String line : GOOD) {
            first.add(line.replace("s1-t1-e1", "e1"));
            second.add(line.replace("s1-t1", "s1-t2").replace("s1-t2-e1", "e1"));
        }
        AguiStreamChecker.ThreadCheck thread = AguiStreamChecker.thread(AguiProfile.AGUI_1_0);
        AguiStreamChecker.StreamCheck one = thread.stream(null);
        events(first).forEach(one::event);
        assertThat(one.finish()).isEmpty();
        AguiStreamChecker.StreamCheck two = thread.stream(null);
        events(second).forEach(two::event);
        assertThat(two.finish()).extracting(Violation::rule, Violation::event, Violation::type, Violation::field)
                .containsExactly(v("AGUI1-14", 5, "TOOL_CALL_START", "/toolCallId"),
                        v("AGUI1-14", 8, "TOOL_CALL_RESULT", "/messageId"));
    }

    @Test
    @DisplayName("a tool call naming its message as messageId where AG-UI 1.0 has parentMessageId")
    void messageIdForParent() {
        assertThat(check(with(5, "{'type':'TOOL_CALL_START','toolCallId':'s1-t1-e1','toolCallName':'x',"
                + "'messageId':'s1-t1-m1'}")))
                .extracting(Violation::rule, Violation::event, Violation::type, Violation::field)
                .containsExactly(v("AGUI1-04", 5, "TOOL_CALL_START", "/messageId"));
    }

    @Test
    @DisplayName("cancellation as the kit sent it: RUN_ERROR RUN_CANCELED carrying threadId and runId")
    void cancellationAsRunError() {
        assertThat(check(with(9, "{'type':'RUN_ERROR','threadId':'s1','runId':'s1-t1','message':'run canceled by user',"
                + "'code':'RUN_CANCELED'}")))
                .extracting(Violation::rule, Violation::event, Violation::type, Violation::field)
                .containsExactly(v("AGUI1-04", 9, "RUN_ERROR", "/threadId"), v("AGUI1-04", 9, "RUN_ERROR", "/runId"));
    }

    @Test
    @DisplayName("run ids on every event and the dialect's extra fields on steps and messages are not AG-UI 1.0")
    void undefinedFields() {
        assertThat(check(with(4, "{'type':'TEXT_MESSAGE_END','threadId':'s1','runId':'s1-t1','messageId':'s1-t1-m1',"
                + "'role':'assistant','status':'success'}")))
                .extracting(Violation::rule, Violation::field)
                .containsExactly(new Tuple("AGUI1-04", "/threadId"), new Tuple("AGUI1-04", "/runId"),
                        new Tuple("AGUI1-04", "/role"), new Tuple("AGUI1-04", "/status"));
    }

    @Test
    @DisplayName("a whole social-dialect turn passes its own rules and breaks AG-UI 1.0's")
    void socialDialectIsNotAgui10() {
        List<AguiEvent> social = new ArrayList<>();
        for (AguiEvent event : events(GOOD)) {
            Map<String, Object> fields = new java.util.LinkedHashMap<>(event.fields());
            fields.put("threadId", "s1");
            fields.put("runId", "s1-t1");
            if (event.type().equals(AguiEvent.TOOL_CALL_ARGS)) {
                fields.remove("delta");
                fields.put("args", Map.of("value", 30));
            }
            if (event.type().equals(AguiEvent.TOOL_CALL_RESULT)) {
                fields.remove("toolCallId");
                fields.remove("content");
                fields.put("tool_call_id", "s1-t1-e1");
                fields.put("tool_call_args", Map.of("value", 30));
                fields.put("status", "success");
            }
            social.add(new AguiEvent(event.type(), fields));
        }
        assertThat(AguiStreamChecker.check(AguiProfile.SOCIAL_DIALECT, social, "s1-t1")).isEmpty();
        assertThat(AguiStreamChecker.check(AguiProfile.AGUI_1_0, social, "s1-t1")).extracting(Violation::rule)
                .contains("AGUI1-03", "AGUI1-04").doesNotContain("AGUI1-05", "AGUI1-07");
    }

    /** {@link #GOOD} as run {@code t} of the thread, its ids renamed except those {@code kept} maps to themselves. */
    private static List<String> run(String turn, String... kept) {
        List<String> lines = new ArrayList<>();
        for (String line : GOOD) {
            String renamed = line.replace("s1-t1", "s1-" + turn);
            for (String id : kept) {
                renamed = renamed.replace(id.replace("s1-t1", "s1-" + turn), id);
            }
            lines.add(renamed);
        }
        return lines;
    }

    private static List<String> oneStream(List<String> first, List<String> second) {
        List<String> lines = new ArrayList<>(first);
        lines.addAll(second);
        return lines;
    }

    @Test
    @DisplayName("two runs in one stream with ids of their own pass")
    void twoRunsInOneStream() {
        assertThat(check(oneStream(GOOD, run("t2")))).isEmpty();
    }

    @Test
    @DisplayName("two runs in one stream reusing a tool-call id: AGUI1-14, the client would merge the calls")
    void toolCallIdReusedInOneStream() {
        // docs/runtime.md#strictness: the client merges the calls (arguments concatenated); the kit rejects
        List<Violation> violations = check(oneStream(GOOD, run("t2", "s1-t1-e1")));
        assertThat(violations).extracting(Violation::rule, Violation::event, Violation::type, Violation::field)
                .containsExactly(v("AGUI1-14", 14, "TOOL_CALL_START", "/toolCallId"),
                        v("AGUI1-14", 17, "TOOL_CALL_RESULT", "/messageId")); // its result id s1-t1-e1-result too
        assertThat(violations.get(0).message()).isEqualTo("tool-call id s1-t1-e1 was used by an earlier run in this "
                + "stream; the client merges this call into that one, appending these arguments to its arguments");
    }

    @Test
    @DisplayName("two runs in one stream reusing a message id: AGUI1-14, the client would merge the messages")
    void messageIdReusedInOneStream() {
        List<Violation> violations = check(oneStream(GOOD, run("t2", "s1-t1-m1")));
        assertThat(violations).extracting(Violation::rule, Violation::event, Violation::type, Violation::field)
                .containsExactly(v("AGUI1-14", 11, "TEXT_MESSAGE_START", "/messageId"),
                        v("AGUI1-14", 14, "TOOL_CALL_START", "/parentMessageId"));
        assertThat(violations).extracting(Violation::message).allMatch(message -> message.contains("earlier run in "
                + "this stream") && message.contains("the client merges"));
    }

    @Test
    @DisplayName("a run that ends with the stream after a state snapshot: AGUI1-07, stricter than the client")
    void snapshotOnlyRunWithoutTerminal() {
        // docs/runtime.md#strictness: @ag-ui/client 1.0.0 resolves runAgent as if the run had finished
        assertThat(check(List.of("{'type':'RUN_STARTED','threadId':'s1','runId':'s1-t1'}",
                "{'type':'STATE_SNAPSHOT','snapshot':{'volume':30}}")))
                .extracting(Violation::rule, Violation::event).containsExactly(new Tuple("AGUI1-07", 0));
        assertThat(check(List.of("{'type':'RUN_STARTED','threadId':'s1','runId':'s1-t1'}",
                "{'type':'STATE_SNAPSHOT','snapshot':{'volume':30}}",
                "{'type':'RUN_FINISHED','threadId':'s1','runId':'s1-t1'}"))).isEmpty();
    }
}
