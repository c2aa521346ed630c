package io.agentlab.providers.recorded;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.agentlab.runtime.llm.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.apiguardian.api.API;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * What the OpenAI chat-streaming protocol itself requires of a {@code chat.completion.chunk}: exactly what the
 * official OpenAI Java SDK needs to read one ({@code ChatCompletionChunk.validate()}), no more
 * (docs/recording.md#protocol-and-notes). A recording is refused only for these; where a chunk departs from what its
 * provider family usually sends, that is a note ({@link ProviderFamily#deviations}). The oracle module holds this list
 * to the SDK both ways: every chunk refused here the SDK refuses, and every variant the SDK reads is accepted here.
 *
 * <p>Required: {@code id} and {@code model} strings, {@code created} a number, {@code choices} an array; on each choice a number {@code index} and an object {@code delta}; and
 * {@code usage} null or an object with number {@code prompt_tokens}, {@code completion_tokens} and {@code total_tokens}
 * (or the replay's placeholders for them, docs/recording.md#format). Optional, but of the right type when present:
 * {@code system_fingerprint} (a string), a choice's {@code logprobs} (an object), a delta's
 * {@code content} and {@code refusal} (strings), {@code tool_calls} (an array, each with a number {@code index}, a
 * string {@code id} and an object {@code function} with string {@code name} and {@code arguments}), and the usage's
 * {@code prompt_tokens_details} and {@code completion_tokens_details} (objects of numbers); null is always allowed.
 * Everything else may be absent, null or unknown: the SDK keeps unknown fields, and so does the replay, byte for byte.
 * This list is what the SDK was measured to refuse, field by field and JSON type by JSON type
 * ({@code ChunkProtocolAgreementTest} in the oracle module), not what its documentation suggests.
 *
 * <p>Deliberately not refused, although the SDK's strict {@code validate()} refuses them: values of its enums it does
 * not know ({@code finish_reason}, {@code role}, tool-call {@code type}, {@code service_tier}), of whatever JSON type,
 * and an {@code object} other than {@code "chat.completion.chunk"} (Azure OpenAI's first chunk says {@code ""}). The
 * SDK's own client reads them (its response validation is off by default, and its accumulator never reads
 * {@code object}), and servers do send such chunks.
 */
@API(status = INTERNAL, since = "0.1")
public final class ChunkProtocol {

    /** The {@code object} of every chunk. */
    public static final String CHUNK_OBJECT = "chat.completion.chunk";
    /** The replay's placeholders for prompt and total tokens (TimedReplay#fill). */
    private static final Pattern PLACEHOLDER = Pattern.compile("@prompt_tokens@|@total_tokens_plus@\\d+@");

    private ChunkProtocol() {
    }

    /**
     * What the SSE {@code data:} payloads of a stream break of the protocol, one message per finding
     * ({@code event 3 lacks 'created'}), in event order. {@code [DONE]}, payloads that are not JSON objects (a
     * malformed-chunk fault) and in-stream {@code error} objects are not chunks and are not checked: the runtime
     * reports those as the provider failures they are.
     */
    public static List<String> violations(List<String> payloads) {
        List<String> found = new ArrayList<>();
        for (int event = 0; event < payloads.size(); event++) {
            JsonNode chunk = chunk(payloads.get(event));
            if (chunk != null) {
                check(chunk, "event " + event, found);
            }
        }
        return found;
    }

    private static void check(JsonNode chunk, String at, List<String> found) {
        string(chunk, "id", at, found);
        string(chunk, "model", at, found);
        if (!chunk.path("created").isNumber()) {
            found.add(at + ": 'created' is " + shown(chunk.get("created")) + ", not a number (Unix seconds)");
        }
        JsonNode fingerprint = chunk.get("system_fingerprint");
        if (fingerprint != null && !fingerprint.isNull() && !fingerprint.isString()) {
            found.add(at + ": 'system_fingerprint' is " + shown(fingerprint) + ", not a string or null");
        }
        JsonNode choices = chunk.get("choices");
        if (choices == null || !choices.isArray()) {
            found.add(at + ": 'choices' is " + shown(choices) + ", not an array");
        } else {
            for (int c = 0; c < choices.size(); c++) {
                choice(choices.get(c), at, "choices[" + c + "]", found);
            }
        }
        JsonNode usage = chunk.get("usage");
        if (usage != null && !usage.isNull()) {
            if (!usage.isObject()) {
                found.add(at + ": 'usage' is " + shown(usage) + ", not an object or null");
            } else {
                for (String field : List.of("prompt_tokens", "completion_tokens", "total_tokens")) {
                    JsonNode tokens = usage.get(field);
                    boolean placeholder = tokens != null && tokens.isString()
                            && PLACEHOLDER.matcher(tokens.asString()).matches();
                    if (tokens == null || !(tokens.isNumber() || placeholder)) {
                        found.add(at + ": 'usage." + field + "' is " + shown(tokens) + ", not an integer");
                    }
                }
                details(usage, "prompt_tokens_details", List.of("audio_tokens", "cached_tokens"), at, found);
                details(usage, "completion_tokens_details", List.of("accepted_prediction_tokens", "audio_tokens",
                        "reasoning_tokens", "rejected_prediction_tokens"), at, found);
            }
        }
    }

    private static void choice(JsonNode choice, String at, String path, List<String> found) {
        if (!choice.isObject()) {
            found.add(at + ": '" + path + "' is " + shown(choice) + ", not an object");
            return;
        }
        if (!choice.path("index").isNumber()) {
            found.add(at + ": '" + path + ".index' is " + shown(choice.get("index")) + ", not an integer");
        }
        JsonNode logprobs = choice.get("logprobs");
        if (logprobs != null && !logprobs.isNull() && !logprobs.isObject()) {
            found.add(at + ": '" + path + ".logprobs' is " + shown(logprobs) + ", not an object or null");
        }
        JsonNode delta = choice.get("delta");
        if (delta == null || !delta.isObject()) {
            found.add(at + ": '" + path + ".delta' is " + shown(delta) + ", not an object");
            return;
        }
        nullableString(delta, "content", at, path + ".delta", found);
        nullableString(delta, "refusal", at, path + ".delta", found);
        // role and finish_reason are enums: a value the SDK does not know is read as unknown, whatever its type
        JsonNode calls = delta.get("tool_calls");
        if (calls == null || calls.isNull()) {
            return;
        }
        if (!calls.isArray()) {
            found.add(at + ": '" + path + ".delta.tool_calls' is " + shown(calls) + ", not an array or null");
            return;
        }
        for (int k = 0; k < calls.size(); k++) {
            JsonNode call = calls.get(k);
            String here = path + ".delta.tool_calls[" + k + "]";
            if (!call.path("index").isNumber()) {
                found.add(at + ": '" + here + ".index' is " + shown(call.get("index")) + ", not an integer");
            }
            nullableString(call, "id", at, here, found);
            JsonNode function = call.get("function");
            if (function != null && !function.isNull()) {
                if (!function.isObject()) {
                    found.add(at + ": '" + here + ".function' is " + shown(function) + ", not an object or null");
                    continue;
                }
                nullableString(function, "name", at, here + ".function", found);
                nullableString(function, "arguments", at, here + ".function", found);
            }
        }
    }

    private static void details(JsonNode usage, String field, List<String> counts, String at, List<String> found) {
        JsonNode details = usage.get(field);
        if (details == null || details.isNull()) {
            return;
        }
        if (!details.isObject()) {
            found.add(at + ": 'usage." + field + "' is " + shown(details) + ", not an object or null");
            return;
        }
        for (String count : counts) {
            JsonNode value = details.get(count);
            if (value != null && !value.isNull() && !value.isNumber()) {
                found.add(at + ": 'usage." + field + "." + count + "' is " + shown(value) + ", not an integer or null");
            }
        }
    }

    private static void string(JsonNode node, String field, String at, List<String> found) {
        if (!node.path(field).isString()) {
            found.add(at + ": '" + field + "' is " + shown(node.get(field)) + ", not a string");
        }
    }

    private static void nullableString(JsonNode node, String field, String at, String path, List<String> found) {
        JsonNode value = node.get(field);
        if (value != null && !value.isNull() && !value.isString()) {
            found.add(at + ": '" + path + "." + field + "' is " + shown(value) + ", not a string or null");
        }
    }

    private static String shown(JsonNode value) {
        if (value == null || value.isMissingNode()) {
            return "missing";
        }
        String text = value.toString();
        return text.length() <= 40 ? text : text.substring(0, 40) + "…";
    }

    /** The payload as a chunk to check, or null when it is not one ({@code [DONE]}, not JSON, an error object). */
    static JsonNode chunk(String payload) {
        String trimmed = payload.trim();
        if (trimmed.equals("[DONE]")) {
            return null;
        }
        JsonNode node;
        try {
            node = Json.tree(trimmed);
        } catch (JacksonException e) {
            return null;
        }
        return node != null && node.isObject() && !node.hasNonNull("error") ? node : null;
    }
}
