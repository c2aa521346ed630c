package io.agentlab.agui;

import static io.agentlab.agui.AguiRules.*;
import static org.apiguardian.api.API.Status.EXPERIMENTAL;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;
import org.apiguardian.api.API;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * Checks AG-UI streams against one profile's rule list ({@link AguiProfile#rules()}, catalogued in {@link AguiRules}).
 * A violation names the rule, the event (its 1-based position in the stream and its type) and the field.
 *
 * <p>A thread is checked stream by stream, in order: {@link #thread(AguiProfile)} keeps what AG-UI 1.0 requires to
 * stay unique across the runs of a thread (message and tool-call ids; a stream may carry several runs, each
 * {@code RUN_STARTED} beginning the next), and each {@link StreamCheck} reads one
 * response's frames or events incrementally, so memory grows with the ids a stream opens, never with its text. For a
 * single stream, {@link #check(AguiProfile, List, String)} and {@link #checkFrames(AguiProfile, List, String)}.
 *
 * <p>For AG-UI 1.0 the rules are those {@code @ag-ui/core} 1.0.0's event schemas, {@code @ag-ui/client} 1.0.0's
 * {@code verifyEvents} and the conversation its {@code runAgent} rebuilds enforce. The schemas are the package's own,
 * converted to JSON Schema and validated with networknt ({@link AguiSchema}, AGUI1-02 to AGUI1-04); this class holds
 * the rules no schema can say (framing, ordering, lifecycle, ids, threads). The build compares this checker's
 * verdict with the official packages' own on every stream of the shipped suites and on broken ones. Not modelled:
 * conversations that {@code MESSAGES_SNAPSHOT} or activity events rewrite (the id rules of AGUI1-14 to AGUI1-16 stop
 * at the first such event of a thread).
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class AguiStreamChecker {

    /** Violations kept per stream; the rest are counted. */
    public static final int MAX_VIOLATIONS = 100;

    /** Backend statistics the social dialect keeps off the wire. */
    public static final Set<String> INTERNAL_FIELDS = Set.of("inputTokens", "outputTokens", "cost", "latencyMs",
            "model");
    private static final Set<String> RESULT_STATUSES = Set.of("success", "failure", "partial");
    private static final Pattern VERSION = Pattern.compile("\\d+\\.\\d+");

    private AguiStreamChecker() {
    }

    /**
     * A broken rule.
     *
     * @param rule    the rule id, e.g. {@code AGUI1-03}
     * @param event   the event's (or frame's) 1-based position in the stream; 0 for the stream as a whole
     * @param type    the event type, or null
     * @param field   the field (a JSON Pointer below the event, e.g. {@code /delta}), or null
     * @param message what is wrong and where to look
     */
    public record Violation(String rule, int event, String type, String field, String message) {
        @Override
        public String toString() {
            return rule + (event > 0 ? " at event " + event : " in the stream") + (type != null ? " " + type : "")
                    + (field != null ? ", field " + field : "") + ": " + message;
        }
    }

    /** A new thread checked against {@code profile}. */
    public static ThreadCheck thread(AguiProfile profile) {
        return new ThreadCheck(profile);
    }

    /** Checks one run's events; {@code runId} is the run requested (ENDPOINT-03), or null. */
    public static List<Violation> check(AguiProfile profile, List<AguiEvent> events, String runId) {
        StreamCheck stream = thread(profile).stream(runId);
        events.forEach(stream::event);
        return stream.finish();
    }

    /** Checks one run's decoded SSE frames; {@code runId} is the run requested (ENDPOINT-03), or null. */
    public static List<Violation> checkFrames(AguiProfile profile, List<AguiSseCodec.Frame> frames, String runId) {
        StreamCheck stream = thread(profile).stream(runId);
        frames.forEach(stream::frame);
        return stream.finish();
    }

    /** A thread: the streams of its runs, checked in order against one profile. Not thread-safe. */
    public static final class ThreadCheck {
        private final AguiProfile profile;
        /** AG-UI 1.0: @ag-ui/core 1.0.0's event definitions, compiled once per process (docs/runtime.md#schemas). */
        private final AguiSchema schema;
        /** AG-UI 1.0: every message the client would hold, by id: its role and the run and stream that created it. */
        private final Map<String, Message> messages = new HashMap<>();
        /** AG-UI 1.0: every tool call, by id: the run and stream that started it. */
        private final Map<String, Origin> toolCalls = new HashMap<>();
        private int streams;
        /** The runs of the thread so far, counted across its streams: one stream may carry several runs. */
        private int runs;
        private boolean unmodelled;

        private ThreadCheck(AguiProfile profile) {
            this.profile = Objects.requireNonNull(profile, "profile");
            this.schema = profile == AguiProfile.AGUI_1_0 ? AguiSchema.of(profile) : null;
        }

        /** The profile. */
        public AguiProfile profile() {
            return profile;
        }

        /** The next stream of the thread; {@code runId} is the run requested (ENDPOINT-03), or null. */
        public StreamCheck stream(String runId) {
            return new StreamCheck(this, ++streams, runId);
        }
    }

    private record Message(String role, int run, int stream) {
    }

    /** Where an id was first used: the thread's run (counted across streams) and the stream that carried it. */
    private record Origin(int run, int stream) {
    }

    /** One stream (one response) of a thread, fed frame by frame or event by event, then finished. */
    public static final class StreamCheck {
        private final ThreadCheck thread;
        private final int stream;
        private final String runId;
        /** The thread's run the events belong to: the ids rule (AGUI1-14) is per run, not per stream. */
        private int run;
        private int runsInStream;
        private final List<Violation> violations = new ArrayList<>();
        private final Set<String> sseIds = new HashSet<>();
        private int dropped;
        private int position;
        private boolean finished;
        // AG-UI 1.0, as verifyEvents tracks a run
        private boolean first = true;
        private boolean runStarted;
        private boolean runFinished;
        private boolean runError;
        private boolean anyTerminal;
        private final Set<String> openMessages = new LinkedHashSet<>();
        private final Set<String> openToolCalls = new LinkedHashSet<>();
        private final Set<String> openSpans = new LinkedHashSet<>();
        private final Set<String> openReasoning = new LinkedHashSet<>();
        private final Set<List<String>> openSteps = new LinkedHashSet<>();
        private final Set<String> activeSubagents = new LinkedHashSet<>();
        private final Set<String> closedSubagents = new HashSet<>();
        /**
         * Who opened each message, tool call, reasoning message and activity of the run, as {@link #owner} keys: the
         * client tells an absent {@code subagentRunId} (the parent) from any string, the empty one included.
         */
        private final Map<String, Map<String, String>> owners = new HashMap<>();
        /** Chunk assembly: the pending stream of each lane (subagentRunId; "" for the parent). */
        private final Map<String, Pending> lanes = new LinkedHashMap<>();
        // the social dialect
        private final Map<String, List<String>> toolPhases = new HashMap<>();
        private int terminals;

        private StreamCheck(ThreadCheck thread, int stream, String runId) {
            this.thread = thread;
            this.stream = stream;
            this.runId = runId;
            this.run = ++thread.runs;
        }

        /** The events (or frames) read so far. */
        public int position() {
            return position;
        }

        /** Checks one SSE frame: its id, its event name and its data as one event. Data-less frames are skipped. */
        public void frame(AguiSseCodec.Frame frame) {
            if (frame.data() == null) {
                return;
            }
            int at = position + 1;
            if (frame.id() != null && !sseIds.add(frame.id())) {
                add(ENDPOINT_04, at, null, null, "SSE id " + frame.id() + " was already used by an earlier frame");
            }
            Map<String, Object> fields;
            try {
                JsonNode node = AguiJson.tree(frame.data());
                if (!node.isObject()) {
                    position++;
                    frameRule(at, "the data is " + node.getNodeType().name().toLowerCase() + ", not a JSON object");
                    return;
                }
                fields = AguiJson.object(node);
            } catch (JacksonException e) {
                position++;
                frameRule(at, "the data is not JSON: " + e.getOriginalMessage());
                return;
            }
            if (thread.profile == AguiProfile.SOCIAL_DIALECT && !Objects.equals(frame.event(), fields.get("type"))) {
                add(SOCIAL_05, at, text(fields.get("type")), null, "the frame's event: is " + frame.event()
                        + " but data.type is " + fields.get("type"));
            }
            event(new AguiEvent(String.valueOf(fields.get("type")), fields));
        }

        private void frameRule(int at, String message) {
            add(thread.profile == AguiProfile.AGUI_1_0 ? AGUI1_01 : SOCIAL_05, at, null, null, message);
        }

        /** Checks one event; its position is the number of events and frames before it, plus one. */
        public void event(AguiEvent event) {
            if (finished) {
                throw new IllegalStateException("the stream check has finished");
            }
            int at = ++position;
            if (thread.profile == AguiProfile.AGUI_1_0) {
                v1(at, event.fields());
            } else {
                social(at, event);
            }
        }

        /** The violations so far, without the end-of-stream rules. */
        public List<Violation> violations() {
            return List.copyOf(violations);
        }

        /** Records a violation found outside the events (the reader's, the endpoint's). */
        public void violation(Violation violation) {
            if (violations.size() < MAX_VIOLATIONS) {
                violations.add(violation);
            } else {
                dropped++;
            }
        }

        /** Ends the stream and returns every violation, the end-of-stream rules included. */
        public List<Violation> finish() {
            if (!finished) {
                finished = true;
                if (thread.profile == AguiProfile.AGUI_1_0) {
                    if (runStarted && !runFinished && !runError) {
                        add(AGUI1_07, 0, null, null, "the stream closed while its run was active: no RUN_FINISHED "
                                + "or RUN_ERROR after " + position + " event(s)");
                    } else if (!anyTerminal) {
                        add(AGUI1_07, 0, null, null, "the stream closed without a run ("
                                + position + " event(s), none of them RUN_FINISHED or RUN_ERROR)");
                    }
                } else if (terminals != 1) {
                    add(SOCIAL_04, 0, null, null, "expected exactly one terminal event, found " + terminals);
                }
                if (dropped > 0) {
                    violations.add(new Violation("…", 0, null, null, dropped + " more violation(s) not listed"));
                }
            }
            return List.copyOf(violations);
        }

        private void add(AguiRules rule, int at, String type, String field, String message) {
            violation(new Violation(rule.id(), at, type, field, message));
        }

        // ---- AG-UI 1.0 ----

        private void v1(int at, Map<String, Object> fields) {
            Object type = fields.get("type");
            if (!(type instanceof String name) || name.isEmpty()) {
                add(AGUI1_01, at, null, "/type", "the event has " + (type == null ? "no type"
                        : "type " + AguiJson.write(type)) + "; a frame's data must be an object with a non-empty "
                        + "string type");
                return;
            }
            if (!thread.schema.types().contains(name)) {
                add(AGUI1_02, at, name, "/type", "'" + name + "' is not an AG-UI 1.0 event type; the client "
                        + "drops the event");
                return;
            }
            List<AguiSchema.Finding> findings = new ArrayList<>();
            thread.schema.check(fields, findings);
            boolean malformed = false;
            for (AguiSchema.Finding finding : findings) {
                malformed |= !finding.undefined();
                add(finding.undefined() ? AGUI1_04 : AGUI1_03, at, name, finding.path(), finding.message());
            }
            if (malformed) {
                return; // the client's validator throws here; the event never reaches its state
            }
            for (Map<String, Object> expanded : expand(at, name, fields)) {
                verify(at, expanded);
                conversation(at, expanded);
            }
        }

        /** Chunk events as the client expands them (one lane per subagent); everything else as is. */
        private List<Map<String, Object>> expand(int at, String type, Map<String, Object> fields) {
            List<Map<String, Object>> out = new ArrayList<>();
            String tag = text(fields.get("subagentRunId"));
            switch (type) {
                case "TEXT_MESSAGE_CHUNK", "TOOL_CALL_CHUNK", "REASONING_MESSAGE_CHUNK" -> {
                    String kind = type.equals("TEXT_MESSAGE_CHUNK") ? "text"
                            : type.equals("TOOL_CALL_CHUNK") ? "tool" : "reasoning";
                    String idField = kind.equals("tool") ? "toolCallId" : "messageId";
                    String id = text(fields.get(idField));
                    String holder = id == null ? null : holder(kind, id);
                    if (holder != null && tag != null && !tag.equals(holder)) {
                        add(AGUI1_19, at, type, "/subagentRunId", "subagent " + tag + " cannot continue " + kind + " "
                                + id + ", which " + (holder.isEmpty() ? "the parent agent" : "subagent " + holder)
                                + " is streaming");
                        return out;
                    }
                    String lane = lane(kind, id, tag);
                    if (lane == null) {
                        add(AGUI1_19, at, type, "/subagentRunId", "the chunk names neither its " + idField
                                + " nor a subagentRunId, and several subagents are streaming a " + kind);
                        return out;
                    }
                    Pending open = lanes.get(lane);
                    AguiRules rule = kind.equals("text") ? AGUI1_08 : kind.equals("tool") ? AGUI1_09 : AGUI1_11;
                    if (open == null || !open.kind.equals(kind) || (id != null && !id.equals(open.id))) {
                        out.addAll(close(lane));
                        if (id == null) {
                            add(rule, at, type, "/" + idField, "the first " + type + " of a stream must carry a "
                                    + idField);
                            return out;
                        }
                        if (kind.equals("tool") && fields.get("toolCallName") == null) {
                            add(rule, at, type, "/toolCallName", "the first TOOL_CALL_CHUNK must carry a "
                                    + "toolCallName");
                            return out;
                        }
                        open = new Pending(kind, id, text(fields.get("role")), text(fields.get(kind.equals("tool")
                                ? "toolCallName" : "name")), text(fields.get("parentMessageId")), tag);
                        lanes.put(lane, open);
                        Map<String, Object> start = new LinkedHashMap<>();
                        switch (kind) {
                            case "text" -> {
                                start.put("type", "TEXT_MESSAGE_START");
                                start.put("messageId", id);
                                start.put("role", fields.getOrDefault("role", "assistant"));
                            }
                            case "tool" -> {
                                start.put("type", "TOOL_CALL_START");
                                start.put("toolCallId", id);
                                start.put("toolCallName", fields.get("toolCallName"));
                                if (fields.containsKey("parentMessageId")) {
                                    start.put("parentMessageId", fields.get("parentMessageId"));
                                }
                            }
                            default -> {
                                start.put("type", "REASONING_MESSAGE_START");
                                start.put("messageId", id);
                            }
                        }
                        putTag(start, tag);
                        out.add(start);
                    } else if (kind.equals("text") && fields.get("role") != null
                            && !fields.get("role").equals(open.role == null ? "assistant" : open.role)) {
                        add(rule, at, type, "/role", "a continuation chunk repeats role " + fields.get("role")
                                + " but the message opened as " + (open.role == null ? "assistant" : open.role));
                        return out;
                    } else if (kind.equals("text") && fields.get("name") != null
                            && !fields.get("name").equals(open.name)) {
                        add(rule, at, type, "/name", "a continuation chunk repeats name " + fields.get("name")
                                + " but the message opened with " + (open.name == null ? "none" : open.name));
                        return out;
                    } else if (kind.equals("tool") && fields.get("toolCallName") != null
                            && !fields.get("toolCallName").equals(open.name)) {
                        add(rule, at, type, "/toolCallName", "a continuation chunk repeats toolCallName "
                                + fields.get("toolCallName") + " but the call opened as " + open.name);
                        return out;
                    } else if (kind.equals("tool") && fields.get("parentMessageId") != null
                            && !fields.get("parentMessageId").equals(open.parent)) {
                        add(rule, at, type, "/parentMessageId", "a continuation chunk repeats parentMessageId "
                                + fields.get("parentMessageId") + " but the call opened under " + open.parent);
                        return out;
                    }
                    if (fields.containsKey("delta") || fields.containsKey("rawEvent")) {
                        Map<String, Object> content = new LinkedHashMap<>();
                        content.put("type", kind.equals("text") ? "TEXT_MESSAGE_CONTENT"
                                : kind.equals("tool") ? "TOOL_CALL_ARGS" : "REASONING_MESSAGE_CONTENT");
                        content.put(idField, open.id);
                        content.put("delta", fields.getOrDefault("delta", ""));
                        putTag(content, tag != null ? tag : open.tag);
                        out.add(content);
                    }
                }
                case "RUN_STARTED", "RUN_FINISHED", "RUN_ERROR", "MESSAGES_SNAPSHOT" -> {
                    for (String lane : List.copyOf(lanes.keySet())) {
                        out.addAll(close(lane));
                    }
                    out.add(fields);
                }
                case "RAW", "ACTIVITY_SNAPSHOT", "ACTIVITY_DELTA", "REASONING_ENCRYPTED_VALUE", "SUBAGENT_STARTED" ->
                        out.add(fields);
                case "SUBAGENT_FINISHED", "SUBAGENT_ERROR" -> {
                    if (tag != null) {
                        out.addAll(close(tag));
                    }
                    out.add(fields);
                }
                default -> {
                    out.addAll(close(tag == null ? "" : tag));
                    out.add(fields);
                }
            }
            return out;
        }

        /** The lane streaming {@code kind} {@code id} from chunks, or null. */
        private String holder(String kind, String id) {
            for (Map.Entry<String, Pending> entry : lanes.entrySet()) {
                if (entry.getValue().kind.equals(kind) && entry.getValue().id.equals(id)) {
                    return entry.getKey();
                }
            }
            return null;
        }

        private String lane(String kind, String id, String tag) {
            if (id != null) {
                for (Map.Entry<String, Pending> entry : lanes.entrySet()) {
                    if (entry.getValue().kind.equals(kind) && entry.getValue().id.equals(id)) {
                        return entry.getKey();
                    }
                }
                return tag == null ? "" : tag;
            }
            if (tag != null) {
                return tag;
            }
            Pending parent = lanes.get("");
            if (parent != null && parent.kind.equals(kind)) {
                return "";
            }
            List<String> candidates = lanes.entrySet().stream().filter(e -> e.getValue().kind.equals(kind))
                    .map(Map.Entry::getKey).toList();
            return candidates.size() == 1 ? candidates.get(0) : candidates.isEmpty() ? "" : null;
        }

        private List<Map<String, Object>> close(String lane) {
            Pending pending = lanes.remove(lane);
            if (pending == null) {
                return List.of();
            }
            Map<String, Object> end = new LinkedHashMap<>();
            switch (pending.kind) {
                case "text" -> {
                    end.put("type", "TEXT_MESSAGE_END");
                    end.put("messageId", pending.id);
                }
                case "tool" -> {
                    end.put("type", "TOOL_CALL_END");
                    end.put("toolCallId", pending.id);
                }
                default -> {
                    end.put("type", "REASONING_MESSAGE_END");
                    end.put("messageId", pending.id);
                }
            }
            putTag(end, pending.tag);
            return List.of(end);
        }

        private static void putTag(Map<String, Object> event, String tag) {
            if (tag != null) {
                event.put("subagentRunId", tag);
            }
        }

        /** The run lifecycle and the open/close discipline, as {@code verifyEvents} checks them. */
        private void verify(int at, Map<String, Object> event) {
            String type = (String) event.get("type");
            if (runError && !type.equals("RUN_STARTED")) {
                add(AGUI1_06, at, type, null, "the run has already ended with RUN_ERROR; only a new RUN_STARTED "
                        + "may follow");
                return;
            }
            if (runFinished && !type.equals("RUN_ERROR") && !type.equals("RUN_STARTED")) {
                add(AGUI1_06, at, type, null, "the run has already ended with RUN_FINISHED; only a new "
                        + "RUN_STARTED (or RUN_ERROR) may follow");
                return;
            }
            if (first) {
                first = false;
                if (!type.equals("RUN_STARTED") && !type.equals("RUN_ERROR")) {
                    add(AGUI1_05, at, type, null, "the first event is " + type + ", not RUN_STARTED");
                    return;
                }
            } else if (type.equals("RUN_STARTED")) {
                if (runStarted && !runFinished && !runError) {
                    add(AGUI1_06, at, type, null, "a run is still active; it must end with RUN_FINISHED or "
                            + "RUN_ERROR before the next RUN_STARTED");
                    return;
                }
                if (runFinished || runError) {
                    openMessages.clear();
                    openToolCalls.clear();
                    openSpans.clear();
                    openReasoning.clear();
                    openSteps.clear();
                    owners.clear();
                    activeSubagents.clear();
                    closedSubagents.clear();
                    runFinished = false;
                    runError = false;
                }
            }
            String tag = text(event.get("subagentRunId"));
            if (!attribution(at, type, tag, event)) {
                return;
            }
            switch (type) {
                case "TEXT_MESSAGE_START" -> open(at, type, "/messageId", event, openMessages, AGUI1_08,
                        "a text message");
                case "TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_END" -> continues(at, type, "/messageId", event,
                        openMessages, AGUI1_08, "text message", "TEXT_MESSAGE_START", type.endsWith("END"));
                case "TOOL_CALL_START" -> open(at, type, "/toolCallId", event, openToolCalls, AGUI1_09,
                        "a tool call");
                case "TOOL_CALL_ARGS", "TOOL_CALL_END" -> continues(at, type, "/toolCallId", event, openToolCalls,
                        AGUI1_09, "tool call", "TOOL_CALL_START", type.endsWith("END"));
                case "REASONING_START" -> open(at, type, "/messageId", event, openSpans, AGUI1_11,
                        "a reasoning span");
                case "REASONING_END" -> continues(at, type, "/messageId", event, openSpans, AGUI1_11,
                        "reasoning span", "REASONING_START", true);
                case "REASONING_MESSAGE_START" -> open(at, type, "/messageId", event, openReasoning, AGUI1_11,
                        "a reasoning message");
                case "REASONING_MESSAGE_CONTENT", "REASONING_MESSAGE_END" -> continues(at, type, "/messageId",
                        event, openReasoning, AGUI1_11, "reasoning message", "REASONING_MESSAGE_START",
                        type.endsWith("END"));
                case "STEP_STARTED" -> {
                    List<String> step = step(tag, event);
                    if (!openSteps.add(step)) {
                        add(AGUI1_10, at, type, "/stepName", "step \"" + step.get(1) + "\" is already active");
                    }
                }
                case "STEP_FINISHED" -> {
                    List<String> step = step(tag, event);
                    if (!openSteps.remove(step)) {
                        boolean elsewhere = openSteps.stream().anyMatch(s -> s.get(1).equals(step.get(1)));
                        add(AGUI1_10, at, type, "/stepName", "step \"" + step.get(1) + "\" "
                                + (elsewhere ? "is open under another owner (subagentRunId)" : "was not started"));
                    }
                }
                case "SUBAGENT_STARTED" -> {
                    String id = text(event.get("subagentRunId"));
                    String parent = text(event.get("parentSubagentRunId"));
                    if (activeSubagents.contains(id) || closedSubagents.contains(id)) {
                        add(AGUI1_12, at, type, "/subagentRunId", "subagent " + id + (activeSubagents.contains(id)
                                ? " is already active" : " has already finished in this run; ids are per invocation"));
                    } else if (parent != null && !activeSubagents.contains(parent)
                            && !closedSubagents.contains(parent)) {
                        add(AGUI1_12, at, type, "/parentSubagentRunId", "parent subagent " + parent
                                + " has not been started in this run");
                    } else {
                        activeSubagents.add(id);
                    }
                }
                case "SUBAGENT_FINISHED", "SUBAGENT_ERROR" -> {
                    String id = text(event.get("subagentRunId"));
                    if (!activeSubagents.remove(id)) {
                        add(AGUI1_12, at, type, "/subagentRunId", "no active subagent " + id);
                    } else {
                        closedSubagents.add(id);
                    }
                }
                case "RUN_STARTED" -> {
                    runStarted = true;
                    String version = text(event.get("protocolVersion"));
                    if (version != null && (!VERSION.matcher(version).matches() || newer(version))) {
                        add(AGUI1_17, at, type, "/protocolVersion", "'" + version + "' is "
                                + (VERSION.matcher(version).matches() ? "newer than 1.0" : "not MAJOR.MINOR"));
                    }
                    if (runId != null && !runId.equals(event.get("runId"))) {
                        add(ENDPOINT_03, at, type, "/runId", "the stream is run " + event.get("runId")
                                + ", the request was for run " + runId);
                    }
                }
                case "RUN_FINISHED" -> {
                    List<String> open = new ArrayList<>();
                    openSteps.forEach(s -> open.add("step " + s.get(1)));
                    openMessages.forEach(id -> open.add("text message " + id));
                    openReasoning.forEach(id -> open.add("reasoning message " + id));
                    openSpans.forEach(id -> open.add("reasoning span " + id));
                    openToolCalls.forEach(id -> open.add("tool call " + id));
                    activeSubagents.forEach(id -> open.add("subagent " + id));
                    if (!open.isEmpty()) {
                        add(AGUI1_13, at, type, null, "RUN_FINISHED while still open: " + String.join(", ", open));
                        return;
                    }
                    runFinished = true;
                    anyTerminal = true;
                }
                case "RUN_ERROR" -> {
                    runError = true;
                    anyTerminal = true;
                }
                default -> { }
            }
        }

        /**
         * The subagent attribution rules: a continuation never names another subagent than its opener, a tool call
         * belongs to its parent message's owner, and an untagged event agrees with any owner. Records the owners the
         * openers establish; false when the event breaks AGUI1-19 (the client stops there).
         */
        private boolean attribution(int at, String type, String tag, Map<String, Object> event) {
            String id = text(event.get(type.startsWith("TOOL_CALL_") && !type.equals("TOOL_CALL_RESULT") ? "toolCallId"
                    : type.equals("REASONING_ENCRYPTED_VALUE") ? "entityId" : "messageId"));
            switch (type) {
                case "TEXT_MESSAGE_START", "REASONING_START", "REASONING_MESSAGE_START" -> {
                    String kind = type.startsWith("TEXT") ? "message" : "reasoning";
                    if (!agrees(at, type, tag, kind, id)) {
                        return false;
                    }
                    owners(kind).putIfAbsent(id, owner(tag));
                }
                case "TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_END" -> {
                    return agrees(at, type, tag, "message", id);
                }
                case "REASONING_MESSAGE_CONTENT", "REASONING_MESSAGE_END", "REASONING_END" -> {
                    return agrees(at, type, tag, "reasoning", id);
                }
                case "TOOL_CALL_ARGS", "TOOL_CALL_END" -> {
                    return agrees(at, type, tag, "tool call", id);
                }
                case "TOOL_CALL_START" -> {
                    String parent = text(event.get("parentMessageId"));
                    String inherited = parent == null ? null : owners("message").get(parent);
                    if (inherited != null && tag != null && !owner(tag).equals(inherited)) {
                        add(AGUI1_19, at, type, "/subagentRunId", named(tag) + " does not own the parent "
                                + "message " + parent + " (" + who(inherited) + " does); a tool call belongs to the "
                                + "message that carries it");
                        return false;
                    }
                    String existing = owners("tool call").get(id);
                    if (existing != null) {
                        if (!agrees(at, type, tag, "tool call", id)) {
                            return false;
                        }
                        if (tag == null && inherited != null && !inherited.equals(existing)) {
                            add(AGUI1_19, at, type, "/parentMessageId", "tool call " + id + " is owned by "
                                    + who(existing) + " but its parent message " + parent + " by " + who(inherited));
                            return false;
                        }
                    } else {
                        owners("tool call").put(id, tag != null ? owner(tag) : inherited != null ? inherited
                                : owner(null));
                    }
                }
                case "TOOL_CALL_RESULT" -> owners("message").put(id, owner(tag));
                case "REASONING_ENCRYPTED_VALUE" -> {
                    String subtype = text(event.get("subtype"));
                    String owner = "tool-call".equals(subtype) ? owners("tool call").get(id)
                            : "message".equals(subtype) ? Objects.requireNonNullElse(owners("message").get(id),
                            owners("reasoning").get(id)) : owners("reasoning").get(id);
                    if (owner != null && tag != null && !owner(tag).equals(owner)) {
                        add(AGUI1_19, at, type, "/subagentRunId", named(tag) + " does not own " + subtype + " "
                                + id + " (" + who(owner) + " does)");
                        return false;
                    }
                }
                case "ACTIVITY_SNAPSHOT" -> {
                    if (!owners("activity").containsKey(id) || !Boolean.FALSE.equals(event.get("replace"))) {
                        owners("activity").put(id, owner(tag));
                    }
                }
                case "ACTIVITY_DELTA" -> {
                    return agrees(at, type, tag, "activity", id);
                }
                case "MESSAGES_SNAPSHOT" -> seed(event.get("messages"), true);
                case "RUN_STARTED" -> seed(event.get("input") instanceof Map<?, ?> input ? input.get("messages")
                        : null, false);
                default -> { }
            }
            return true;
        }

        /** A replayed conversation's owners: a snapshot replaces recorded ones, the run input only fills gaps. */
        private void seed(Object messages, boolean authoritative) {
            if (!(messages instanceof List<?> list)) {
                return;
            }
            for (Object item : list) {
                if (item instanceof Map<?, ?> message && message.get("id") instanceof String id) {
                    String owner = owner(message.get("subagentRunId") instanceof String s ? s : null);
                    String kind = "reasoning".equals(message.get("role")) ? "reasoning"
                            : "activity".equals(message.get("role")) ? "activity" : "message";
                    if (authoritative || !owners(kind).containsKey(id)) {
                        owners(kind).put(id, owner);
                    }
                    if (message.get("toolCalls") instanceof List<?> calls) {
                        for (Object call : calls) {
                            if (call instanceof Map<?, ?> c && c.get("id") instanceof String callId
                                    && (authoritative || !owners("tool call").containsKey(callId))) {
                                owners("tool call").put(callId, owner);
                            }
                        }
                    }
                }
            }
        }

        private boolean agrees(int at, String type, String tag, String kind, String id) {
            String owner = owners(kind).get(id);
            if (owner != null && tag != null && !owner(tag).equals(owner)) {
                add(AGUI1_19, at, type, "/subagentRunId", named(tag) + " is not the owner of " + kind + " "
                        + id + "; " + who(owner) + " opened it");
                return false;
            }
            return true;
        }

        private Map<String, String> owners(String kind) {
            return owners.computeIfAbsent(kind, k -> new HashMap<>());
        }

        private static String who(String owner) {
            return owner.isEmpty() ? "the parent agent" : named(owner.substring(2));
        }

        /** A subagent named in a message; an empty id said as such. */
        private static String named(String subagentRunId) {
            return subagentRunId.isEmpty() ? "subagent \"\" (an empty id)" : "subagent " + subagentRunId;
        }

        /**
         * The owner key of a {@code subagentRunId}: {@code ""} when the field is absent (the parent agent), else the
         * id behind a prefix, so that an empty id is a subagent of its own as the client sees it, not the parent.
         */
        private static String owner(String tag) {
            return tag == null ? "" : "s:" + tag;
        }

        private static boolean newer(String version) {
            String[] parts = version.split("\\.");
            int major = Integer.parseInt(parts[0].length() > 9 ? "999999999" : parts[0]);
            int minor = Integer.parseInt(parts[1].length() > 9 ? "999999999" : parts[1]);
            return major > 1 || (major == 1 && minor > 0);
        }

        private static List<String> step(String tag, Map<String, Object> event) {
            return List.of(tag == null ? "" : "s:" + tag, String.valueOf(event.get("stepName")));
        }

        private void open(int at, String type, String field, Map<String, Object> event, Set<String> open,
                          AguiRules rule, String what) {
            String id = String.valueOf(event.get(field.substring(1)));
            if (!open.add(id)) {
                add(rule, at, type, field, what + " with id " + id + " is already open; close it first");
            }
        }

        private void continues(int at, String type, String field, Map<String, Object> event, Set<String> open,
                               AguiRules rule, String what, String opener, boolean closes) {
            String id = String.valueOf(event.get(field.substring(1)));
            if (!open.contains(id)) {
                add(rule, at, type, field, "no open " + what + " " + id + "; " + opener + " must come first");
            } else if (closes) {
                open.remove(id);
            }
        }

        /** What the client's rebuilt conversation needs: ids that name one message, and one run's messages. */
        private void conversation(int at, Map<String, Object> event) {
            if (thread.unmodelled) {
                return;
            }
            String type = (String) event.get("type");
            switch (type) {
                case "MESSAGES_SNAPSHOT", "ACTIVITY_SNAPSHOT", "ACTIVITY_DELTA" -> thread.unmodelled = true;
                case "RUN_STARTED" -> {
                    if (runsInStream++ > 0) {
                        run = ++thread.runs; // a later run in the same stream: its ids must be new too
                    }
                }
                case "TEXT_MESSAGE_START" -> reuseOrCreate(at, type, "/messageId", text(event.get("messageId")),
                        text(event.getOrDefault("role", "assistant")));
                case "REASONING_MESSAGE_START" -> reuseOrCreate(at, type, "/messageId", text(event.get("messageId")),
                        "reasoning");
                case "TOOL_CALL_START" -> {
                    String id = text(event.get("toolCallId"));
                    Origin started = thread.toolCalls.get(id);
                    if (started != null) {
                        if (started.run() != run) {
                            add(AGUI1_14, at, type, "/toolCallId", "tool-call id " + id + " was used by "
                                    + earlier(started.stream()) + "; the client merges this call into that one, "
                                    + "appending these arguments to its arguments");
                        }
                        return; // restarting a call of this run is idempotent for the client
                    }
                    thread.toolCalls.put(id, new Origin(run, stream));
                    String parent = text(event.get("parentMessageId"));
                    if (parent == null || parent.isEmpty()) {
                        create(at, type, "/toolCallId", id, "assistant", "a TOOL_CALL_START without "
                                + "parentMessageId creates an assistant message named after its toolCallId");
                        return;
                    }
                    Message existing = thread.messages.get(parent);
                    if (existing == null) {
                        create(at, type, "/parentMessageId", parent, "assistant", null);
                    } else if (!existing.role.equals("assistant")) {
                        add(AGUI1_16, at, type, "/parentMessageId", "message " + parent + " is a " + existing.role
                                + " message, not an assistant message");
                        create(at, type, "/toolCallId", id, "assistant", "the client then creates an assistant "
                                + "message named after the toolCallId");
                    } else if (existing.run != run) {
                        add(AGUI1_14, at, type, "/parentMessageId", "message " + parent + " belongs to "
                                + earlier(existing.stream) + "; the client merges this run's call into that message");
                    }
                }
                case "TOOL_CALL_RESULT" -> create(at, type, "/messageId", text(event.get("messageId")), "tool",
                        "a TOOL_CALL_RESULT creates a tool message of its own");
                default -> { }
            }
        }

        private void reuseOrCreate(int at, String type, String field, String id, String role) {
            Message existing = thread.messages.get(id);
            if (existing == null) {
                thread.messages.put(id, new Message(role, run, stream));
            } else if (existing.run != run) {
                add(AGUI1_14, at, type, field, "message id " + id + " was used by " + earlier(existing.stream)
                        + "; the client merges the two into one message, appending this run's content to it");
            }
        }

        private void create(int at, String type, String field, String id, String role, String why) {
            Message existing = thread.messages.get(id);
            if (existing == null) {
                thread.messages.put(id, new Message(role, run, stream));
            } else if (existing.run != run) {
                add(AGUI1_14, at, type, field, "message id " + id + " was used by " + earlier(existing.stream)
                        + (why == null ? "" : "; " + why) + (type.equals("TOOL_CALL_RESULT")
                        ? ", so the client holds two messages with that id" : "; the client merges this run's call "
                        + "into that message"));
            } else {
                add(AGUI1_15, at, type, field, "message id " + id + " already names " + article(existing.role)
                        + " message of this run" + (why == null ? "" : "; " + why) + ", so the client holds two "
                        + "messages with one id");
            }
        }

        /** An earlier run, said with where it was: the client merges either way (docs/runtime.md#strictness). */
        private String earlier(int origin) {
            return origin == stream ? "an earlier run in this stream" : "an earlier run of this thread";
        }

        private static String article(String role) {
            return (role.startsWith("a") ? "an " : "a ") + role;
        }

        // ---- the social dialect ----

        private void social(int at, AguiEvent event) {
            String type = event.type();
            Map<String, Object> fields = event.fields();
            if (at == 1 && !AguiEvent.RUN_STARTED.equals(type)) {
                add(SOCIAL_01, at, type, null, "the first event is " + type);
            }
            Object eventRun = fields.get("runId");
            if (eventRun == null || fields.get("threadId") == null) {
                add(SOCIAL_06, at, type, eventRun == null ? "/runId" : "/threadId", "the event does not name its "
                        + "thread and run");
            } else if (runId != null && !runId.equals(eventRun)) {
                add(AguiEvent.RUN_STARTED.equals(type) ? ENDPOINT_03 : SOCIAL_06, at, type, "/runId",
                        "event of run " + eventRun + " in the stream of run " + runId);
            }
            for (String field : INTERNAL_FIELDS) {
                if (fields.containsKey(field)) {
                    add(SOCIAL_07, at, type, "/" + field, "internal usage field on the wire");
                }
            }
            if (terminals > 0) {
                add(SOCIAL_04, at, type, null, type + " after the terminal event");
            }
            switch (type) {
                case AguiEvent.TEXT_MESSAGE_START -> openMessages.add(text(fields.get("messageId")));
                case AguiEvent.TEXT_MESSAGE_END -> openMessages.remove(text(fields.get("messageId")));
                case AguiEvent.TOOL_CALL_START, AguiEvent.TOOL_CALL_END ->
                        toolPhase(at, text(fields.get("toolCallId")), type);
                case AguiEvent.TOOL_CALL_ARGS -> {
                    toolPhase(at, text(fields.get("toolCallId")), type);
                    if (!(fields.get("args") instanceof Map)) {
                        add(SOCIAL_02, at, type, "/args", "the arguments must be an 'args' object");
                    }
                }
                case AguiEvent.TOOL_CALL_RESULT -> {
                    toolPhase(at, text(fields.get("tool_call_id")), type);
                    if (!(fields.get("tool_call_args") instanceof Map)) {
                        add(SOCIAL_02, at, type, "/tool_call_args", "the input snapshot must be an object");
                    }
                    if (!RESULT_STATUSES.contains(text(fields.get("status")))) {
                        add(SOCIAL_02, at, type, "/status", "status '" + fields.get("status")
                                + "' is not success, failure or partial");
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
                        add(SOCIAL_03, at, type, null, "RUN_FINISHED while still open: " + open);
                    }
                }
                case AguiEvent.RUN_ERROR -> terminals++;
                default -> { }
            }
        }

        private void toolPhase(int at, String id, String type) {
            if (id == null) {
                add(SOCIAL_02, at, type, type.equals(AguiEvent.TOOL_CALL_RESULT) ? "/tool_call_id" : "/toolCallId",
                        "no tool call id");
                return;
            }
            List<String> seen = toolPhases.computeIfAbsent(id, k -> new ArrayList<>());
            List<String> order = List.of(AguiEvent.TOOL_CALL_START, AguiEvent.TOOL_CALL_ARGS, AguiEvent.TOOL_CALL_END,
                    AguiEvent.TOOL_CALL_RESULT);
            int expected = seen.size();
            if (expected >= order.size() || !order.get(expected).equals(type)) {
                add(SOCIAL_02, at, type, null, "tool call " + id + ": " + type + " after " + seen + " (expected "
                        + (expected < order.size() ? order.get(expected) : "nothing more") + ")");
            }
            seen.add(type);
        }
    }

    private record Pending(String kind, String id, String role, String name, String parent, String tag) {
    }

    private static String text(Object value) {
        return value == null ? null : String.valueOf(value);
    }
}
