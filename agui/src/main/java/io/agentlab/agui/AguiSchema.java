package io.agentlab.agui;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * AG-UI 1.0's event definitions, transcribed from {@code @ag-ui/core} 1.0.0's generated schemas
 * ({@code @ag-ui/core/schemas}): which fields each event has, which are required, and their types. Validation
 * reports two kinds of finding, as the official client distinguishes them: a required field missing or a field of the
 * wrong type (the client's validator throws: rule AGUI1-03), and material the definition does not describe (the
 * client strips it with a warning: rule AGUI1-04). Positions the protocol leaves open (metadata, rawEvent, state,
 * result, value, ...) are not looked into; JSON Patch operations keep unknown members, as RFC 6902 requires.
 */
final class AguiSchema {

    /** A finding: {@code undefined} true for material the definition lacks (AGUI1-04), false for AGUI1-03. */
    record Finding(String path, String message, boolean undefined) {
    }

    private AguiSchema() {
    }

    /** The event types AG-UI 1.0 defines, in its own order. */
    static Set<String> types() {
        return EVENTS.keySet();
    }

    /** Checks one event's fields against its type's definition; the type must be one of {@link #types()}. */
    static void check(Map<String, Object> event, List<Finding> findings) {
        EVENTS.get((String) event.get("type")).check(event, "", findings);
    }

    // ---- the type language: just enough of zod to say what the generated schemas say ----

    private sealed interface Type permits Str, Int, Bool, Present, NonNull, Obj, Enum, Lit, Arr, Union, Struct, Tagged {
        /** Checks a value that is present (possibly JSON null). */
        void check(Object value, String path, List<Finding> findings);

        /** A short description for messages. */
        String describe();
    }

    private record Str(Pattern pattern) implements Type {
        public void check(Object value, String path, List<Finding> findings) {
            if (!(value instanceof String text)) {
                wrong(value, path, this, findings);
            } else if (pattern != null && !pattern.matcher(text).matches()) {
                findings.add(new Finding(path, "'" + text + "' is not a JSON Pointer", false));
            }
        }

        public String describe() {
            return pattern == null ? "a string" : "a JSON Pointer string";
        }
    }

    private record Int(long min) implements Type {
        private static final long SAFE = 9007199254740991L;

        public void check(Object value, String path, List<Finding> findings) {
            if (!(value instanceof Number number) || !integral(number) || number.doubleValue() < min
                    || number.doubleValue() > SAFE) {
                wrong(value, path, this, findings);
            }
        }

        private static boolean integral(Number number) {
            if (number instanceof Integer || number instanceof Long || number instanceof Short
                    || number instanceof Byte || number instanceof BigInteger) {
                return true;
            }
            if (number instanceof BigDecimal decimal) {
                return decimal.stripTrailingZeros().scale() <= 0;
            }
            double d = number.doubleValue();
            return d == Math.rint(d) && !Double.isInfinite(d);
        }

        public String describe() {
            return min == 0 ? "a non-negative integer" : "an integer";
        }
    }

    private record Bool() implements Type {
        public void check(Object value, String path, List<Finding> findings) {
            if (!(value instanceof Boolean)) {
                wrong(value, path, this, findings);
            }
        }

        public String describe() {
            return "true or false";
        }
    }

    /** Any JSON value, null included (zod's {@code any} refined to "not undefined"). */
    private record Present() implements Type {
        public void check(Object value, String path, List<Finding> findings) {
        }

        public String describe() {
            return "any JSON value";
        }
    }

    /** Any JSON value but null (zod's {@code any} refined to "not null"). */
    private record NonNull() implements Type {
        public void check(Object value, String path, List<Finding> findings) {
            if (value == null) {
                wrong(null, path, this, findings);
            }
        }

        public String describe() {
            return "any JSON value but null";
        }
    }

    /** An open JSON object (metadata, activity content, response schemas). */
    private record Obj() implements Type {
        public void check(Object value, String path, List<Finding> findings) {
            if (!(value instanceof Map)) {
                wrong(value, path, this, findings);
            }
        }

        public String describe() {
            return "a JSON object";
        }
    }

    private record Enum(List<String> values) implements Type {
        public void check(Object value, String path, List<Finding> findings) {
            if (!(value instanceof String) || !values.contains(value)) {
                wrong(value, path, this, findings);
            }
        }

        public String describe() {
            return "one of " + values;
        }
    }

    private record Lit(String value) implements Type {
        public void check(Object actual, String path, List<Finding> findings) {
            if (!value.equals(actual)) {
                wrong(actual, path, this, findings);
            }
        }

        public String describe() {
            return "\"" + value + "\"";
        }
    }

    private record Arr(Type element, int minItems) implements Type {
        public void check(Object value, String path, List<Finding> findings) {
            if (!(value instanceof List<?> list)) {
                wrong(value, path, this, findings);
                return;
            }
            if (list.size() < minItems) {
                findings.add(new Finding(path, "has " + list.size() + " item(s), at least " + minItems
                        + " required", false));
            }
            for (int i = 0; i < list.size(); i++) {
                element.check(list.get(i), path + "/" + i, findings);
            }
        }

        public String describe() {
            return "an array of " + element.describe();
        }
    }

    /** A string or an array (tool and user message content). */
    private record Union(Type text, Type array) implements Type {
        public void check(Object value, String path, List<Finding> findings) {
            if (value instanceof List) {
                array.check(value, path, findings);
            } else if (value instanceof String) {
                text.check(value, path, findings);
            } else {
                wrong(value, path, this, findings);
            }
        }

        public String describe() {
            return "a string or " + array.describe();
        }
    }

    private record Field(Type type, boolean required) {
    }

    /** An object with named fields; closed unless {@code open} (RFC 6902 operations). */
    private record Struct(String name, Map<String, Field> fields, boolean open) implements Type {
        public void check(Object value, String path, List<Finding> findings) {
            if (!(value instanceof Map<?, ?> map)) {
                wrong(value, path, this, findings);
                return;
            }
            fields.forEach((key, field) -> {
                String at = path + "/" + key;
                if (!map.containsKey(key)) {
                    if (field.required) {
                        findings.add(new Finding(at, "is missing; " + name + " requires it ("
                                + field.type.describe() + ")", false));
                    }
                } else if (map.get(key) == null && !field.required && !(field.type instanceof Present)) {
                    findings.add(new Finding(at, "is null; an optional field is left out, never null", false));
                } else {
                    field.type.check(map.get(key), at, findings);
                }
            });
            if (!open) {
                for (Object key : map.keySet()) {
                    if (!fields.containsKey(String.valueOf(key))) {
                        findings.add(new Finding(path + "/" + key, "is not a field of " + name, true));
                    }
                }
            }
        }

        public String describe() {
            return name;
        }
    }

    /** A union discriminated by {@code key}. */
    private record Tagged(String name, String key, Map<String, Struct> variants) implements Type {
        public void check(Object value, String path, List<Finding> findings) {
            if (!(value instanceof Map<?, ?> map)) {
                wrong(value, path, this, findings);
                return;
            }
            Struct variant = map.get(key) instanceof String tag ? variants.get(tag) : null;
            if (variant == null) {
                findings.add(new Finding(path + "/" + key, "is " + show(map.get(key)) + ", not a " + name + " ("
                        + variants.keySet() + "); the client drops what it does not recognise", true));
                return;
            }
            variant.check(value, path, findings);
        }

        public String describe() {
            return name;
        }
    }

    private static void wrong(Object value, String path, Type expected, List<Finding> findings) {
        findings.add(new Finding(path, "is " + show(value) + ", expected " + expected.describe(), false));
    }

    private static String show(Object value) {
        if (value == null) {
            return "null";
        }
        if (value instanceof String text) {
            return "the string \"" + (text.length() > 40 ? text.substring(0, 40) + "…" : text) + "\"";
        }
        if (value instanceof Map) {
            return "an object";
        }
        if (value instanceof List) {
            return "an array";
        }
        return (value instanceof Boolean ? "the boolean " : "the number ") + value;
    }

    // ---- the definitions ----

    private static final Type STR = new Str(null);
    private static final Type POINTER = new Str(Pattern.compile("(/([^/~]|~[01])*)*"));
    private static final Type INT = new Int(-9007199254740991L);
    private static final Type COUNT = new Int(0);
    private static final Type OBJ = new Obj();
    private static final Type ANY = new Present();
    private static final Type NON_NULL = new NonNull();

    /** Field list builder: {@code req("a", STR)}, {@code opt("b", INT)}. */
    private static final class Fields {
        private final Map<String, Field> fields = new LinkedHashMap<>();

        Fields req(String name, Type type) {
            fields.put(name, new Field(type, true));
            return this;
        }

        Fields opt(String name, Type type) {
            fields.put(name, new Field(type, false));
            return this;
        }

        Struct closed(String name) {
            return new Struct(name, Collections.unmodifiableMap(new LinkedHashMap<>(fields)), false);
        }
    }

    private static Fields fields() {
        return new Fields();
    }

    private static Tagged tagged(String name, String key, Struct... variants) {
        Map<String, Struct> map = new LinkedHashMap<>();
        for (Struct variant : variants) {
            map.put(variant.name(), variant);
        }
        return new Tagged(name, key, map);
    }

    /** A tagged variant's struct, named by its tag value. */
    private static Struct variant(String key, String tag, Fields fields) {
        Fields all = fields().req(key, new Lit(tag));
        all.fields.putAll(fields.fields);
        return all.closed(tag);
    }

    private static final Tagged PART_SOURCE = tagged("part source", "type",
            variant("type", "data", fields().req("value", STR).req("mimeType", STR)),
            variant("type", "url", fields().req("value", STR).opt("mimeType", STR)),
            variant("type", "file", fields().req("value", STR).opt("provider", STR).opt("mimeType", STR)));

    private static final Tagged CONTENT_PART = tagged("content part", "type",
            variant("type", "text", fields().opt("id", STR).req("text", STR).opt("metadata", NON_NULL)),
            variant("type", "image", fields().opt("id", STR).req("source", PART_SOURCE).opt("metadata", NON_NULL)),
            variant("type", "audio", fields().opt("id", STR).req("source", PART_SOURCE).opt("metadata", NON_NULL)),
            variant("type", "video", fields().opt("id", STR).req("source", PART_SOURCE).opt("metadata", NON_NULL)),
            variant("type", "document", fields().opt("id", STR).req("source", PART_SOURCE).opt("metadata", NON_NULL)));

    private static final Type CONTENT = new Union(STR, new Arr(CONTENT_PART, 0));

    private static Struct patchOp(String op, Fields fields) {
        Fields all = fields().req("op", new Lit(op));
        all.fields.putAll(fields.fields);
        return new Struct(op, Collections.unmodifiableMap(all.fields), true);
    }

    private static final Type JSON_PATCH = new Arr(tagged("JSON Patch operation", "op",
            patchOp("add", fields().req("path", POINTER).req("value", ANY)),
            patchOp("remove", fields().req("path", POINTER)),
            patchOp("replace", fields().req("path", POINTER).req("value", ANY)),
            patchOp("move", fields().req("from", POINTER).req("path", POINTER)),
            patchOp("copy", fields().req("from", POINTER).req("path", POINTER)),
            patchOp("test", fields().req("path", POINTER).req("value", ANY))), 0);

    private static final Type TOKEN_USAGE = new Arr(fields().opt("provider", STR).opt("model", STR)
            .opt("inputTokens", COUNT).opt("outputTokens", COUNT).opt("totalTokens", COUNT)
            .opt("reasoningTokens", COUNT).opt("cachedInputTokens", COUNT).opt("cacheWriteInputTokens", COUNT)
            .closed("token usage"), 0);

    private static final Struct TOOL_CALL = fields().req("id", STR).req("type", new Lit("function"))
            .req("function", fields().req("name", STR).req("arguments", STR).closed("function call"))
            .opt("encryptedValue", STR).opt("metadata", OBJ).closed("tool call");

    private static Fields named() {
        return fields().opt("subagentRunId", STR).req("id", STR).opt("name", STR).opt("encryptedValue", STR)
                .opt("metadata", OBJ);
    }

    private static final Tagged MESSAGE = tagged("message", "role",
            variant("role", "developer", named().req("content", STR)),
            variant("role", "system", named().req("content", STR)),
            variant("role", "assistant", named().opt("content", STR).opt("toolCalls", new Arr(TOOL_CALL, 0))),
            variant("role", "user", named().req("content", CONTENT)),
            variant("role", "tool", fields().opt("subagentRunId", STR).req("id", STR).req("content", CONTENT)
                    .req("toolCallId", STR).opt("error", STR).opt("encryptedValue", STR).opt("metadata", OBJ)),
            variant("role", "activity", fields().opt("subagentRunId", STR).req("id", STR).req("activityType", STR)
                    .req("content", OBJ).opt("metadata", OBJ)),
            variant("role", "reasoning", fields().opt("subagentRunId", STR).req("id", STR).req("content", STR)
                    .opt("encryptedValue", STR).opt("metadata", OBJ)));

    private static final Struct INTERRUPT = fields().opt("subagentRunId", STR).req("id", STR).req("reason", STR)
            .opt("message", STR).opt("toolCallId", STR).opt("responseSchema", OBJ).opt("expiresAt", STR)
            .opt("metadata", OBJ).closed("interrupt");

    private static final Struct RUN_AGENT_INPUT = fields().req("threadId", STR).req("runId", STR)
            .opt("protocolVersion", STR).opt("parentRunId", STR).opt("state", ANY)
            .req("messages", new Arr(MESSAGE, 0))
            .opt("tools", new Arr(fields().req("name", STR).req("description", STR).opt("parameters", NON_NULL)
                    .opt("metadata", OBJ).closed("tool"), 0))
            .opt("context", new Arr(fields().req("description", STR).req("value", STR).closed("context"), 0))
            .opt("forwardedProps", NON_NULL)
            .opt("resume", new Arr(fields().req("interruptId", STR).req("status", new Enum(List.of("resolved",
                    "cancelled"))).opt("payload", NON_NULL).opt("metadata", OBJ).closed("resume entry"), 0))
            .closed("RunAgentInput");

    private static final Tagged RUN_OUTCOME = tagged("RUN_FINISHED outcome", "type",
            variant("type", "success", fields().opt("pendingToolCallIds", new Arr(STR, 0))),
            variant("type", "interrupt", fields().req("interrupts", new Arr(INTERRUPT, 1))),
            variant("type", "cancelled", fields()));

    private static final Tagged SUBAGENT_OUTCOME = tagged("SUBAGENT_FINISHED outcome", "type",
            variant("type", "success", fields()),
            variant("type", "suspended", fields().opt("interruptIds", new Arr(STR, 0))));

    private static final Type TEXT_ROLE = new Enum(List.of("developer", "system", "assistant", "user"));

    /** Base fields; attributable events add {@code subagentRunId}. */
    private static Fields base(boolean attributable) {
        Fields fields = fields().req("type", STR).opt("timestamp", INT).opt("rawEvent", NON_NULL)
                .opt("metadata", OBJ);
        return attributable ? fields.opt("subagentRunId", STR) : fields;
    }

    private static final Map<String, Struct> EVENTS = new LinkedHashMap<>();

    private static void event(String type, boolean attributable, Fields more) {
        Fields all = base(attributable);
        all.fields.putAll(more.fields);
        EVENTS.put(type, all.closed(type));
    }

    static {
        event("TEXT_MESSAGE_START", true, fields().req("messageId", STR).opt("role", TEXT_ROLE).opt("name", STR));
        event("TEXT_MESSAGE_CONTENT", true, fields().req("messageId", STR).req("delta", STR));
        event("TEXT_MESSAGE_END", true, fields().req("messageId", STR));
        event("TEXT_MESSAGE_CHUNK", true, fields().opt("messageId", STR).opt("role", TEXT_ROLE).opt("delta", STR)
                .opt("name", STR));
        event("TOOL_CALL_START", true, fields().req("toolCallId", STR).req("toolCallName", STR)
                .opt("parentMessageId", STR));
        event("TOOL_CALL_ARGS", true, fields().req("toolCallId", STR).req("delta", STR));
        event("TOOL_CALL_END", true, fields().req("toolCallId", STR));
        event("TOOL_CALL_CHUNK", true, fields().opt("toolCallId", STR).opt("toolCallName", STR)
                .opt("parentMessageId", STR).opt("delta", STR));
        event("TOOL_CALL_RESULT", true, fields().req("messageId", STR).req("toolCallId", STR).req("content", CONTENT)
                .opt("role", new Lit("tool")));
        event("STATE_SNAPSHOT", true, fields().req("snapshot", ANY));
        event("STATE_DELTA", true, fields().req("delta", JSON_PATCH));
        event("MESSAGES_SNAPSHOT", false, fields().req("messages", new Arr(MESSAGE, 0)));
        event("ACTIVITY_SNAPSHOT", true, fields().req("messageId", STR).req("activityType", STR).req("content", OBJ)
                .opt("replace", new Bool()));
        event("ACTIVITY_DELTA", true, fields().req("messageId", STR).req("activityType", STR)
                .req("patch", JSON_PATCH));
        event("RAW", true, fields().req("event", ANY).opt("source", STR));
        event("CUSTOM", true, fields().req("name", STR).req("value", ANY));
        event("RUN_STARTED", false, fields().req("threadId", STR).req("runId", STR).opt("protocolVersion", STR)
                .opt("parentRunId", STR).opt("input", RUN_AGENT_INPUT));
        event("RUN_FINISHED", false, fields().req("threadId", STR).req("runId", STR).opt("result", NON_NULL)
                .opt("outcome", RUN_OUTCOME).opt("usage", TOKEN_USAGE));
        event("RUN_ERROR", false, fields().req("message", STR).opt("code", STR).opt("usage", TOKEN_USAGE));
        event("STEP_STARTED", true, fields().req("stepName", STR));
        event("STEP_FINISHED", true, fields().req("stepName", STR));
        event("REASONING_START", true, fields().req("messageId", STR));
        event("REASONING_MESSAGE_START", true, fields().req("messageId", STR).req("role", new Lit("reasoning")));
        event("REASONING_MESSAGE_CONTENT", true, fields().req("messageId", STR).req("delta", STR));
        event("REASONING_MESSAGE_END", true, fields().req("messageId", STR));
        event("REASONING_MESSAGE_CHUNK", true, fields().opt("messageId", STR).opt("delta", STR));
        event("REASONING_END", true, fields().req("messageId", STR));
        event("REASONING_ENCRYPTED_VALUE", true, fields().req("subtype", new Enum(List.of("tool-call", "message")))
                .req("entityId", STR).req("encryptedValue", STR));
        event("SUBAGENT_STARTED", false, fields().req("subagentRunId", STR).req("name", STR).opt("description", STR)
                .opt("parentSubagentRunId", STR).opt("parentToolCallId", STR).opt("parentMessageId", STR));
        event("SUBAGENT_FINISHED", false, fields().req("subagentRunId", STR).opt("result", NON_NULL)
                .opt("outcome", SUBAGENT_OUTCOME));
        event("SUBAGENT_ERROR", false, fields().req("subagentRunId", STR).req("message", STR).opt("code", STR));
    }
}
