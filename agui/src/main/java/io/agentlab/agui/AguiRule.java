package io.agentlab.agui;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.List;
import java.util.NoSuchElementException;
import org.apiguardian.api.API;

/**
 * One rule of an AG-UI stream, in the style of a TCK entry: an id that never changes meaning, what it checks, and
 * what to look at when it breaks. The AG-UI 1.0 rules ({@code AGUI1-*}) are read off {@code @ag-ui/core} 1.0.0's event
 * schemas and {@code @ag-ui/client} 1.0.0's {@code verifyEvents} and {@code runAgent}; {@code source} says which. The
 * endpoint rules ({@code ENDPOINT-*}) hold for every profile.
 *
 * @param id       e.g. {@code AGUI1-03}
 * @param checks   what the rule requires, one sentence
 * @param lookAt   where to look when it breaks
 * @param source   where the rule comes from
 * @param profiles the profiles whose rule list holds it
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record AguiRule(String id, String checks, String lookAt, String source, List<AguiProfile> profiles) {

    private static final List<AguiProfile> V1 = List.of(AguiProfile.AGUI_1_0);
    private static final List<AguiProfile> SOCIAL = List.of(AguiProfile.SOCIAL_DIALECT);
    private static final List<AguiProfile> BOTH = List.of(AguiProfile.AGUI_1_0, AguiProfile.SOCIAL_DIALECT);

    /** Copies the profiles. */
    public AguiRule {
        profiles = List.copyOf(profiles);
    }

    private static final String SCHEMAS = "@ag-ui/core 1.0.0 EventSchemas";
    private static final String VERIFY = "@ag-ui/client 1.0.0 verifyEvents";
    private static final String RUN_AGENT = "@ag-ui/client 1.0.0 runAgent (the conversation it rebuilds)";

    private static final List<AguiRule> CATALOGUE = List.of(
            new AguiRule("AGUI1-01", "every SSE data frame is one JSON object with a non-empty string 'type'",
                    "the frame's data: lines (several data: lines are joined with newlines before parsing)",
                    "@ag-ui/client 1.0.0 parseSSEStream and transformHttpEventStream", V1),
            new AguiRule("AGUI1-02", "'type' is one of the 31 event types AG-UI 1.0 defines",
                    "the event's type: the client drops an event of an unknown type with a warning", SCHEMAS, V1),
            new AguiRule("AGUI1-03", "every field the event's definition requires is present and every field present "
                    + "has the defined type; an optional field is absent, never null",
                    "the named field, e.g. TOOL_CALL_ARGS.delta must be a string (the arguments as JSON text)",
                    SCHEMAS, V1),
            new AguiRule("AGUI1-04", "no field the event's definition lacks, at any depth (metadata, rawEvent, "
                    + "result, state and value are open)",
                    "the named field: the client strips it with a warning, so whatever it carried never arrives",
                    SCHEMAS + " and the client's enforcement stage", V1),
            new AguiRule("AGUI1-05", "the first event is RUN_STARTED (a lone RUN_ERROR is also accepted)",
                    "the start of the stream", VERIFY, V1),
            new AguiRule("AGUI1-06", "no RUN_STARTED while a run is active; after RUN_ERROR only a new RUN_STARTED; "
                    + "after RUN_FINISHED only a new RUN_STARTED or RUN_ERROR",
                    "the events after the terminal event, or the second RUN_STARTED", VERIFY, V1),
            new AguiRule("AGUI1-07", "a run that started ends with RUN_FINISHED or RUN_ERROR before the stream closes",
                    "the end of the stream: without a terminal event the client cannot tell a cut-off run from a "
                            + "finished one", RUN_AGENT + "; stricter than the client, which resolves such a run as "
                            + "finished, as the protocol's run lifecycle is (docs/runtime.md#strictness)", V1),
            new AguiRule("AGUI1-08", "TEXT_MESSAGE_START opens a message id that is not open; TEXT_MESSAGE_CONTENT "
                    + "and TEXT_MESSAGE_END name an open message", "the messageId", VERIFY, V1),
            new AguiRule("AGUI1-09", "TOOL_CALL_START opens a tool-call id that is not open; TOOL_CALL_ARGS and "
                    + "TOOL_CALL_END name an open tool call", "the toolCallId", VERIFY, V1),
            new AguiRule("AGUI1-10", "STEP_STARTED opens a step name that is not active; STEP_FINISHED names an "
                    + "active step", "the stepName", VERIFY, V1),
            new AguiRule("AGUI1-11", "REASONING_START and REASONING_MESSAGE_START open an id that is not open; their "
                    + "content and end events name an open one", "the messageId", VERIFY, V1),
            new AguiRule("AGUI1-12", "SUBAGENT_STARTED opens a subagentRunId not used before in the run (its parent, "
                    + "if named, has started); SUBAGENT_FINISHED and SUBAGENT_ERROR name an active one",
                    "the subagentRunId", VERIFY, V1),
            new AguiRule("AGUI1-13", "RUN_FINISHED only when no step, text message, tool call, reasoning message or "
                    + "span, or subagent is still open", "what the message lists as still open", VERIFY, V1),
            new AguiRule("AGUI1-14", "a run never reuses a message id or tool-call id of an earlier run of the same "
                    + "thread, whether the runs share a stream or not", "the id: the client merges the new content "
                    + "into the earlier run's message, or the calls of two runs into one, concatenating their "
                    + "arguments", RUN_AGENT + "; stricter than the client, which merges silently or with a warning "
                    + "(docs/runtime.md#strictness)", V1),
            new AguiRule("AGUI1-15", "a TOOL_CALL_RESULT has its own message id: no other message of the thread "
                    + "(the assistant message, a text message, another result) uses it",
                    "TOOL_CALL_RESULT.messageId: the client would hold two messages with one id", RUN_AGENT, V1),
            new AguiRule("AGUI1-16", "TOOL_CALL_START.parentMessageId, when it names a message already in the thread, "
                    + "names an assistant message", "the parentMessageId: the client warns and files the call elsewhere",
                    RUN_AGENT, V1),
            new AguiRule("AGUI1-17", "RUN_STARTED.protocolVersion, when present, is MAJOR.MINOR and not newer than 1.0",
                    "the protocolVersion: the client warns that it may strip what a newer producer sends",
                    RUN_AGENT, V1),
            new AguiRule("AGUI1-18", "SSE lines end with LF alone", "the line ends: the client splits frames only at "
                    + "LF LF, so CR LF framing runs every event into one frame", "@ag-ui/client 1.0.0 parseSSEStream",
                    V1),
            new AguiRule("AGUI1-19", "an event that continues a text message, tool call, reasoning message or activity "
                    + "names no other subagent (subagentRunId) than the one that opened it; a tool call belongs to its "
                    + "parent message's subagent; an untagged event agrees with any, and an empty subagentRunId is "
                    + "a tag of its own, not the parent", "the subagentRunId, and the "
                    + "opener's", VERIFY + " and chunk expansion", V1),

            new AguiRule("SOCIAL-01", "the first event of the run is RUN_STARTED", "the start of the stream",
                    "the social dialect", SOCIAL),
            new AguiRule("SOCIAL-02", "per toolCallId: TOOL_CALL_START, TOOL_CALL_ARGS (an 'args' object), "
                    + "TOOL_CALL_END, TOOL_CALL_RESULT, each once; the result's tool_call_id equals the toolCallId, "
                    + "its tool_call_args is an object and its status is success, failure or partial",
                    "the tool call's events in order and the result's snake_case fields", "the social dialect", SOCIAL),
            new AguiRule("SOCIAL-03", "no RUN_FINISHED while a text message or tool call is open",
                    "what the message lists as still open", "the social dialect", SOCIAL),
            new AguiRule("SOCIAL-04", "exactly one terminal event (RUN_FINISHED or RUN_ERROR), and it is the last",
                    "the events after the terminal event, or the end of the stream", "the social dialect", SOCIAL),
            new AguiRule("SOCIAL-05", "the SSE event: field equals data.type", "the frame's event: line",
                    "the social dialect", SOCIAL),
            new AguiRule("SOCIAL-06", "every event carries the threadId and runId of the run",
                    "the event's runId: another run's event leaked into this stream", "the social dialect", SOCIAL),
            new AguiRule("SOCIAL-07", "no internal usage field (inputTokens, outputTokens, cost, latencyMs, model)",
                    "the named field: backend statistics stay off the wire", "the social dialect", SOCIAL),

            new AguiRule("ENDPOINT-01", "the endpoint answers 200 with Content-Type text/event-stream",
                    "the response status and headers", "the endpoint contract", BOTH),
            new AguiRule("ENDPOINT-02", "the stream does not close in the middle of a frame",
                    "the last frame: an SSE client drops a frame no blank line ends", "the endpoint contract", BOTH),
            new AguiRule("ENDPOINT-03", "the stream is the requested run's: RUN_STARTED names the requested runId",
                    "RUN_STARTED.runId", "the endpoint contract", BOTH),
            new AguiRule("ENDPOINT-04", "SSE ids, when sent, are unique", "the id: lines: Last-Event-ID resumes after "
                    + "the id it names", "the endpoint contract", BOTH),
            new AguiRule("ENDPOINT-05", "reconnecting with Last-Event-ID yields exactly the frames after that id",
                    "the second response's ids", "the endpoint contract", BOTH));

    /** Every rule, AG-UI 1.0 first, then the social dialect's, then the endpoint's. */
    public static List<AguiRule> catalogue() {
        return CATALOGUE;
    }

    /**
     * The rule with {@code id}.
     *
     * @throws NoSuchElementException for an id no rule has
     */
    public static AguiRule byId(String id) {
        return CATALOGUE.stream().filter(rule -> rule.id.equals(id)).findFirst()
                .orElseThrow(() -> new NoSuchElementException("no AG-UI rule " + id));
    }
}
