package io.agentlab.agui;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.agentlab.kernel.api.rule.Rule;
import java.util.Arrays;
import java.util.List;
import java.util.NoSuchElementException;
import org.apiguardian.api.API;

/**
 * The AG-UI rule catalogue, one constant per rule, so the checker and the endpoint contract name a rule by its
 * constant ({@code AguiRules.AGUI1_04}), never by a written id (docs/api.md#rules). Each rule is a {@link Rule}, the
 * type the contract catalogues share, in the style of a TCK entry: an id that never changes meaning (the constant's
 * name with dashes), what it checks, where it comes from ({@link Rule#clause()}), and here also what to look at when
 * it breaks. The AG-UI 1.0 rules ({@code AGUI1-*}) are read off {@code @ag-ui/core} 1.0.0's event schemas and
 * {@code @ag-ui/client} 1.0.0's {@code verifyEvents} and {@code runAgent}; the endpoint rules ({@code ENDPOINT-*})
 * hold for every profile. Every AG-UI rule is required: a stream that breaks one fails.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public enum AguiRules {

    AGUI1_01("frame_is_a_typed_json_object",
            "every SSE data frame is one JSON object with a non-empty string 'type'",
            "the frame's data: lines (several data: lines are joined with newlines before parsing)",
            "@ag-ui/client 1.0.0 parseSSEStream and transformHttpEventStream", Profiles.V1),
    AGUI1_02("type_is_defined",
            "'type' is one of the 31 event types AG-UI 1.0 defines",
            "the event's type: the client drops an event of an unknown type with a warning", Source.SCHEMAS, Profiles.V1),
    AGUI1_03("fields_required_and_typed",
            "every field the event's definition requires is present and every field present "
            + "has the defined type; an optional field is absent, never null",
            "the named field, e.g. TOOL_CALL_ARGS.delta must be a string (the arguments as JSON text)",
            Source.SCHEMAS, Profiles.V1),
    AGUI1_04("no_undefined_field",
            "no field the event's definition lacks, at any depth (metadata, rawEvent, "
            + "result, state and value are open)",
            "the named field: the client strips it with a warning, so whatever it carried never arrives",
            Source.SCHEMAS + " and the client's enforcement stage", Profiles.V1),
    AGUI1_05("run_started_first",
            "the first event is RUN_STARTED (a lone RUN_ERROR is also accepted)",
            "the start of the stream", Source.VERIFY, Profiles.V1),
    AGUI1_06("run_lifecycle_in_order",
            "no RUN_STARTED while a run is active; after RUN_ERROR only a new RUN_STARTED; "
            + "after RUN_FINISHED only a new RUN_STARTED or RUN_ERROR",
            "the events after the terminal event, or the second RUN_STARTED", Source.VERIFY, Profiles.V1),
    AGUI1_07("started_run_terminates",
            "a run that started ends with RUN_FINISHED or RUN_ERROR before the stream closes",
            "the end of the stream: without a terminal event the client cannot tell a cut-off run from a "
                    + "finished one", Source.RUN_AGENT + "; stricter than the client, which resolves such a run as "
                    + "finished, as the protocol's run lifecycle is (docs/runtime.md#strictness)", Profiles.V1),
    AGUI1_08("text_messages_open_once",
            "TEXT_MESSAGE_START opens a message id that is not open; TEXT_MESSAGE_CONTENT "
            + "and TEXT_MESSAGE_END name an open message", "the messageId", Source.VERIFY, Profiles.V1),
    AGUI1_09("tool_calls_open_once",
            "TOOL_CALL_START opens a tool-call id that is not open; TOOL_CALL_ARGS and "
            + "TOOL_CALL_END name an open tool call", "the toolCallId", Source.VERIFY, Profiles.V1),
    AGUI1_10("steps_open_once",
            "STEP_STARTED opens a step name that is not active; STEP_FINISHED names an "
            + "active step", "the stepName", Source.VERIFY, Profiles.V1),
    AGUI1_11("reasoning_opens_once",
            "REASONING_START and REASONING_MESSAGE_START open an id that is not open; their "
            + "content and end events name an open one", "the messageId", Source.VERIFY, Profiles.V1),
    AGUI1_12("subagents_open_once",
            "SUBAGENT_STARTED opens a subagentRunId not used before in the run (its parent, "
            + "if named, has started); SUBAGENT_FINISHED and SUBAGENT_ERROR name an active one",
            "the subagentRunId", Source.VERIFY, Profiles.V1),
    AGUI1_13("nothing_open_at_finish",
            "RUN_FINISHED only when no step, text message, tool call, reasoning message or "
            + "span, or subagent is still open", "what the message lists as still open", Source.VERIFY, Profiles.V1),
    AGUI1_14("no_id_of_an_earlier_run",
            "a run never reuses a message id or tool-call id of an earlier run of the same "
            + "thread, whether the runs share a stream or not", "the id: the client merges the new content "
            + "into the earlier run's message, or the calls of two runs into one, concatenating their "
            + "arguments", Source.RUN_AGENT + "; stricter than the client, which merges silently or with a warning "
            + "(docs/runtime.md#strictness)", Profiles.V1),
    AGUI1_15("tool_result_has_its_own_message_id",
            "a TOOL_CALL_RESULT has its own message id: no other message of the thread "
            + "(the assistant message, a text message, another result) uses it",
            "TOOL_CALL_RESULT.messageId: the client would hold two messages with one id", Source.RUN_AGENT, Profiles.V1),
    AGUI1_16("tool_call_parent_is_assistant",
            "TOOL_CALL_START.parentMessageId, when it names a message already in the thread, "
            + "names an assistant message", "the parentMessageId: the client warns and files the call elsewhere",
            Source.RUN_AGENT, Profiles.V1),
    AGUI1_17("protocol_version_supported",
            "RUN_STARTED.protocolVersion, when present, is MAJOR.MINOR and not newer than 1.0",
            "the protocolVersion: the client warns that it may strip what a newer producer sends",
            Source.RUN_AGENT, Profiles.V1),
    AGUI1_18("lines_end_with_lf",
            "SSE lines end with LF alone", "the line ends: the client splits frames only at "
            + "LF LF, so CR LF framing runs every event into one frame", "@ag-ui/client 1.0.0 parseSSEStream",
            Profiles.V1),
    AGUI1_19("continuation_keeps_its_subagent",
            "an event that continues a text message, tool call, reasoning message or activity "
            + "names no other subagent (subagentRunId) than the one that opened it; a tool call belongs to its "
            + "parent message's subagent; an untagged event agrees with any, and an empty subagentRunId is "
            + "a tag of its own, not the parent", "the subagentRunId, and the "
            + "opener's", Source.VERIFY + " and chunk expansion", Profiles.V1),

    SOCIAL_01("run_started_first",
            "the first event of the run is RUN_STARTED", "the start of the stream",
            "the social dialect", Profiles.SOCIAL),
    SOCIAL_02("tool_call_sequence_complete",
            "per toolCallId: TOOL_CALL_START, TOOL_CALL_ARGS (an 'args' object), "
            + "TOOL_CALL_END, TOOL_CALL_RESULT, each once; the result's tool_call_id equals the toolCallId, "
            + "its tool_call_args is an object and its status is success, failure or partial",
            "the tool call's events in order and the result's snake_case fields", "the social dialect", Profiles.SOCIAL),
    SOCIAL_03("nothing_open_at_finish",
            "no RUN_FINISHED while a text message or tool call is open",
            "what the message lists as still open", "the social dialect", Profiles.SOCIAL),
    SOCIAL_04("one_terminal_event_last",
            "exactly one terminal event (RUN_FINISHED or RUN_ERROR), and it is the last",
            "the events after the terminal event, or the end of the stream", "the social dialect", Profiles.SOCIAL),
    SOCIAL_05("event_field_equals_type",
            "the SSE event: field equals data.type", "the frame's event: line",
            "the social dialect", Profiles.SOCIAL),
    SOCIAL_06("events_name_their_run",
            "every event carries the threadId and runId of the run",
            "the event's runId: another run's event leaked into this stream", "the social dialect", Profiles.SOCIAL),
    SOCIAL_07("no_usage_fields",
            "no internal usage field (inputTokens, outputTokens, cost, latencyMs, model)",
            "the named field: backend statistics stay off the wire", "the social dialect", Profiles.SOCIAL),

    ENDPOINT_01("answers_an_event_stream",
            "the endpoint answers 200 with Content-Type text/event-stream",
            "the response status and headers", "the endpoint contract", Profiles.BOTH),
    ENDPOINT_02("no_frame_cut_off",
            "the stream does not close in the middle of a frame",
            "the last frame: an SSE client drops a frame no blank line ends", "the endpoint contract", Profiles.BOTH),
    ENDPOINT_03("the_requested_run",
            "the stream is the requested run's: RUN_STARTED names the requested runId",
            "RUN_STARTED.runId", "the endpoint contract", Profiles.BOTH),
    ENDPOINT_04("sse_ids_unique",
            "SSE ids, when sent, are unique", "the id: lines: Last-Event-ID resumes after "
            + "the id it names", "the endpoint contract", Profiles.BOTH),
    ENDPOINT_05("resumes_after_last_event_id",
            "reconnecting with Last-Event-ID yields exactly the frames after that id",
            "the second response's ids", "the endpoint contract", Profiles.BOTH);

    private final Rule rule;
    private final String lookAt;
    private final List<AguiProfile> profiles;

    AguiRules(String name, String checks, String lookAt, String source, List<AguiProfile> profiles) {
        this.rule = Rule.required(name().replace('_', '-'), name, source, checks);
        this.lookAt = lookAt;
        this.profiles = profiles;
    }

    /** The rule: its id ({@code AGUI1-03}), name, what it checks ({@link Rule#description()}) and source. */
    public Rule rule() {
        return rule;
    }

    /** The rule's id, e.g. {@code AGUI1-03}. */
    public String id() {
        return rule.id();
    }

    /** Where to look when it breaks. */
    public String lookAt() {
        return lookAt;
    }

    /** The profiles whose rule list holds it. */
    public List<AguiProfile> profiles() {
        return profiles;
    }

    private static final List<Rule> CATALOGUE = Rule.catalogue(Arrays.stream(values()).map(AguiRules::rule).toList());

    /** Every rule, AG-UI 1.0 first, then the social dialect's, then the endpoint's. */
    public static List<Rule> catalogue() {
        return CATALOGUE;
    }

    /**
     * The rule with {@code id}.
     *
     * @throws NoSuchElementException for an id no rule has
     */
    public static AguiRules byId(String id) {
        return Arrays.stream(values()).filter(rule -> rule.id().equals(id)).findFirst()
                .orElseThrow(() -> new NoSuchElementException("no AG-UI rule " + id));
    }

    /** Where the rules come from; a holder, as enum constants cannot read the enum's own static fields. */
    private static final class Source {
        static final String SCHEMAS = "@ag-ui/core 1.0.0 EventSchemas";
        static final String VERIFY = "@ag-ui/client 1.0.0 verifyEvents";
        static final String RUN_AGENT = "@ag-ui/client 1.0.0 runAgent (the conversation it rebuilds)";
    }

    /** The profile lists the rules are in. */
    private static final class Profiles {
        static final List<AguiProfile> V1 = List.of(AguiProfile.AGUI_1_0);
        static final List<AguiProfile> SOCIAL = List.of(AguiProfile.SOCIAL_DIALECT);
        static final List<AguiProfile> BOTH = List.of(AguiProfile.AGUI_1_0, AguiProfile.SOCIAL_DIALECT);
    }
}
