package io.agentlab.providers.recorded;

import io.agentlab.kernel.runtime.llm.Json;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * The OpenAI-compatible provider families whose streams the kit writes and accepts, each with the {@link ChunkProfile}
 * of what its servers really send on every {@code chat.completion.chunk} (see {@code docs/recording.md#provider-families}
 * and {@code docs/design.md#provider-recordings}). One profile drives the three places that must agree on it: the
 * {@link StreamSynthesizer} and the fixtures write chunks with {@link #stream}, and {@link Recordings} refuses, at load,
 * a recording whose chunks lack what its family always sends ({@link #violations}).
 */
public enum ProviderFamily {

    /** OpenAI: usage on a final chunk with {@code choices: []}, cache in {@code prompt_tokens_details.cached_tokens}. */
    OPENAI(new ChunkProfile(IdStyle.OPENAI, "fp_%s", "default", true, true, true, false, false,
            ToolContinuation.ARGUMENTS_ONLY, UsagePlacement.FINAL_CHUNK, List.of("prompt_tokens_details.cached_tokens"),
            true, true, false)),
    /** DeepSeek: usage on the finish chunk, cache hits and misses in {@code prompt_cache_hit/miss_tokens}. */
    DEEPSEEK(new ChunkProfile(IdStyle.UUID, "fp_%s_prod0820_fp8_kvcache", null, true, true, false, false, true,
            ToolContinuation.ARGUMENTS_ONLY, UsagePlacement.FINISH_CHUNK,
            List.of("prompt_cache_hit_tokens", "prompt_cache_miss_tokens"), false, true, false)),
    /**
     * DashScope's OpenAI-compatible mode: {@code system_fingerprint: null}, tool-call continuations that repeat
     * {@code "id": ""}, usage on a final chunk with {@code choices: []}, cache in
     * {@code prompt_tokens_details.cached_tokens}.
     */
    DASHSCOPE(new ChunkProfile(IdStyle.CHATCMPL_UUID, null, null, false, true, false, false, false,
            ToolContinuation.EMPTY_ID_AND_TYPE, UsagePlacement.FINAL_CHUNK, List.of("prompt_tokens_details.cached_tokens"),
            false, true, false)),
    /**
     * llama.cpp's {@code llama-server} (also the shape of many local servers built on it): {@code chatcmpl-} and 32
     * letters and digits, {@code system_fingerprint} naming the build ({@code b<build>-<commit>}), {@code finish_reason}
     * but no {@code logprobs} on every choice, a first delta with {@code "content": null}, a first tool-call delta that
     * already carries an argument fragment, usage on a final chunk with {@code choices: []} next to a non-standard
     * {@code timings} object (and no {@code "usage": null} before it), and, when the output does not parse, an
     * in-stream {@code error} object instead of the usage and {@code [DONE]}.
     */
    LLAMACPP(new ChunkProfile(IdStyle.CHATCMPL_32, "b1-%.7s", null, true, false, false, true, false,
            ToolContinuation.FIRST_FRAGMENT_THEN_ARGUMENTS_ONLY, UsagePlacement.FINAL_CHUNK,
            List.of("prompt_tokens_details.cached_tokens"), false, false, true));

    /** The fields every chunk of every family carries, whatever the family (besides its own {@link ChunkProfile}). */
    public static final List<String> CHUNK_FIELDS = List.of("id", "object", "created", "model", "system_fingerprint",
            "choices");
    /** The {@code object} of every chunk. */
    public static final String CHUNK_OBJECT = "chat.completion.chunk";

    /** How a family's completion ids look (one id on every chunk of a stream). */
    public enum IdStyle {
        /** {@code chatcmpl-} and 29 letters and digits. */
        OPENAI,
        /** A bare UUID. */
        UUID,
        /** {@code chatcmpl-} and a UUID. */
        CHATCMPL_UUID,
        /** {@code chatcmpl-} and 32 letters and digits. */
        CHATCMPL_32
    }

    /** How the deltas of a tool call after its first one look. */
    public enum ToolContinuation {
        /**
         * Only {@code index} and {@code function.arguments}; the first delta carries {@code id}, {@code type},
         * {@code function.name} and empty arguments.
         */
        ARGUMENTS_ONLY,
        /**
         * {@code index}, {@code "id": ""}, {@code "type": "function"} and {@code function.arguments}; the first delta
         * carries the first argument fragment with the name. A client must not take the empty id for a new call.
         */
        EMPTY_ID_AND_TYPE,
        /**
         * Only {@code index} and {@code function.arguments}, as {@link #ARGUMENTS_ONLY}; but the first delta, with the
         * name, already carries the first argument fragment.
         */
        FIRST_FRAGMENT_THEN_ARGUMENTS_ONLY
    }

    /** Where a family puts the usage. */
    public enum UsagePlacement {
        /** A separate final chunk with {@code choices: []}, after the finish reason (OpenAI's {@code include_usage}). */
        FINAL_CHUNK,
        /** On the chunk that carries the finish reason; no usage-only chunk. */
        FINISH_CHUNK
    }

    /**
     * What a family's chunks carry besides {@link #CHUNK_FIELDS}: {@code index} and {@code delta} on every choice, and
     * the role ({@code assistant}) on the first delta, are common to all.
     *
     * @param idStyle            how the completion id looks
     * @param fingerprint        the {@code system_fingerprint} format ({@code %s}: ten hex digits), or null when the
     *                           family sends it as JSON {@code null}
     * @param serviceTier        the {@code service_tier} on every chunk, or null when the family sends none
     * @param fullChoices        whether every choice carries {@code finish_reason} (null until the end), and
     *                           {@code "logprobs": null} when {@code logprobs} says so, checked when true
     * @param logprobs           whether choices carry {@code "logprobs": null} at all
     * @param refusal            whether the first delta carries {@code "refusal": null}
     * @param nullFirstContent   whether the first delta's content is {@code null} rather than {@code ""}
     * @param contentOnFinish    whether the finish chunk's delta is {@code {"content": ""}} rather than {@code {}}
     * @param toolContinuation   how later tool-call deltas look
     * @param usagePlacement     where the usage goes (checked whenever usage comes)
     * @param cacheFields        the usage fields (dotted paths) the family reports its prompt cache in (checked whenever
     *                           usage comes)
     * @param completionDetails  whether usage carries {@code completion_tokens_details} and audio token counts
     * @param usageNulls         whether every chunk before the usage says {@code "usage": null} (when usage comes)
     * @param timings            whether the usage chunk also carries llama.cpp's {@code timings} object (checked
     *                           whenever usage comes)
     */
    public record ChunkProfile(IdStyle idStyle, String fingerprint, String serviceTier, boolean fullChoices,
                               boolean logprobs, boolean refusal, boolean nullFirstContent, boolean contentOnFinish,
                               ToolContinuation toolContinuation, UsagePlacement usagePlacement,
                               List<String> cacheFields, boolean completionDetails, boolean usageNulls,
                               boolean timings) {
        /** Rejects nulls where a value is required and copies the list. */
        public ChunkProfile {
            Objects.requireNonNull(idStyle, "idStyle");
            Objects.requireNonNull(toolContinuation, "toolContinuation");
            Objects.requireNonNull(usagePlacement, "usagePlacement");
            cacheFields = List.copyOf(cacheFields);
        }
    }

    private final ChunkProfile profile;

    ProviderFamily(ChunkProfile profile) {
        this.profile = profile;
    }

    /** What this family's chunks carry. */
    public ChunkProfile profile() {
        return profile;
    }

    /** The name in recordings and suites: {@code openai}, {@code deepseek}, {@code dashscope}, {@code llamacpp}. */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * The family named {@code name} (case ignored).
     *
     * @throws IllegalArgumentException naming the families there are
     */
    public static ProviderFamily fromWireName(String name) {
        for (ProviderFamily family : values()) {
            if (family.wireName().equalsIgnoreCase(name.strip())) {
                return family;
            }
        }
        List<String> names = java.util.Arrays.stream(values()).map(ProviderFamily::wireName).toList();
        throw new IllegalArgumentException("unknown provider family '" + name + "'; expected "
                + String.join(", ", names.subList(0, names.size() - 1)) + " or " + names.get(names.size() - 1));
    }

    /**
     * A stream writer in this family's shape.
     *
     * @param model the model every chunk names
     * @param key   what the completion id and {@code created} derive from (reproducibly), e.g. the recording id
     * @param day   the day {@code created} falls on
     */
    public ProviderStream stream(String model, String key, LocalDate day) {
        return new ProviderStream(this, model, key, day);
    }

    /**
     * What the SSE {@code data:} payloads of a stream lack of what this family always sends, one message per finding
     * ({@code event 3 lacks 'created' ...}), in event order. {@code [DONE]}, payloads that are not JSON objects (a
     * malformed-chunk fault) and in-stream {@code error} objects are not chunks and are not checked.
     */
    public List<String> violations(List<String> payloads) {
        List<String> found = new ArrayList<>();
        boolean roleSeen = false;
        Set<Long> toolCallsSeen = new HashSet<>();
        for (int event = 0; event < payloads.size(); event++) {
            JsonNode chunk = chunk(payloads.get(event));
            if (chunk == null) {
                continue;
            }
            String at = "event " + event;
            for (String field : CHUNK_FIELDS) {
                if (!chunk.has(field)) {
                    found.add(at + " lacks '" + field + "', which every " + wireName() + " chunk carries");
                }
            }
            if (chunk.has("object") && !CHUNK_OBJECT.equals(chunk.get("object").asString(""))) {
                found.add(at + ": 'object' is " + chunk.get("object") + ", not \"" + CHUNK_OBJECT + "\"");
            }
            if (chunk.has("created") && !chunk.get("created").isIntegralNumber()) {
                found.add(at + ": 'created' is " + chunk.get("created") + ", not an integer (Unix seconds)");
            }
            for (String field : List.of("id", "model")) {
                if (chunk.has(field) && !chunk.get(field).isString()) {
                    found.add(at + ": '" + field + "' is " + chunk.get(field) + ", not a string");
                }
            }
            JsonNode choices = chunk.path("choices");
            if (chunk.has("choices") && !choices.isArray()) {
                found.add(at + ": 'choices' is " + choices + ", not an array");
                continue;
            }
            boolean finishHere = false;
            for (int c = 0; c < choices.size(); c++) {
                JsonNode choice = choices.get(c);
                String path = "choices[" + c + "]";
                if (!choice.path("index").isIntegralNumber()) {
                    found.add(at + " lacks '" + path + ".index'");
                }
                if (!choice.path("delta").isObject()) {
                    found.add(at + " lacks '" + path + ".delta'");
                }
                List<String> choiceFields = !profile.fullChoices() ? List.of()
                        : profile.logprobs() ? List.of("logprobs", "finish_reason") : List.of("finish_reason");
                for (String field : choiceFields) {
                    if (!choice.has(field)) {
                        found.add(at + " lacks '" + path + "." + field + "', which every " + wireName()
                                + " choice carries");
                    }
                }
                finishHere |= choice.hasNonNull("finish_reason");
                if (!roleSeen && !"assistant".equals(choice.path("delta").path("role").asString(""))) {
                    found.add(at + " lacks '" + path + ".delta.role': the first delta of a " + wireName()
                            + " stream says \"assistant\"");
                }
                roleSeen = true;
                toolCalls(choice.path("delta").path("tool_calls"), at, path + ".delta.tool_calls", toolCallsSeen,
                        found);
            }
            JsonNode usage = chunk.get("usage");
            if (usage != null && usage.isObject()) {
                usage(usage, choices.size(), finishHere, at, found);
                if (profile.timings() && !chunk.path("timings").isObject()) {
                    found.add(at + " lacks 'timings' next to 'usage', which " + wireName() + " always sends");
                }
            }
        }
        return found;
    }

    private void toolCalls(JsonNode calls, String at, String path, Set<Long> seen, List<String> found) {
        for (int k = 0; k < calls.size(); k++) {
            JsonNode call = calls.get(k);
            String here = path + "[" + k + "]";
            if (!call.path("index").isIntegralNumber()) {
                found.add(at + " lacks '" + here + ".index'");
                continue;
            }
            if (seen.add(call.get("index").asLong())) {
                // the first delta of a call names it; later ones may carry arguments only
                if (call.path("id").asString("").isBlank()) {
                    found.add(at + " lacks '" + here + ".id' on the first delta of tool call "
                            + call.get("index").asLong());
                }
                if (!call.has("type")) {
                    found.add(at + " lacks '" + here + ".type' on the first delta of tool call "
                            + call.get("index").asLong());
                }
                if (!call.path("function").path("name").isString()) {
                    found.add(at + " lacks '" + here + ".function.name' on the first delta of tool call "
                            + call.get("index").asLong());
                }
            }
        }
    }

    private void usage(JsonNode usage, int choices, boolean finishHere, String at, List<String> found) {
        if (profile.usagePlacement() == UsagePlacement.FINAL_CHUNK && choices > 0) {
            found.add(at + ": 'usage' rides on a chunk with " + choices + " choice(s); " + wireName()
                    + " sends it on a final chunk with empty 'choices'");
        }
        if (profile.usagePlacement() == UsagePlacement.FINISH_CHUNK && !finishHere) {
            found.add(at + ": 'usage' rides on a chunk without a finish reason; " + wireName()
                    + " sends it on the chunk that carries the finish reason");
        }
        for (String field : List.of("prompt_tokens", "completion_tokens", "total_tokens")) {
            if (!usage.has(field)) {
                found.add(at + " lacks 'usage." + field + "'");
            }
        }
        for (String field : profile.cacheFields()) {
            JsonNode node = usage;
            for (String part : field.split("\\.")) {
                node = node.path(part);
            }
            if (node.isMissingNode()) {
                found.add(at + " lacks 'usage." + field + "', where " + wireName() + " reports its prompt cache");
            }
        }
    }

    /** The payload as a chunk to check, or null when it is not one ({@code [DONE]}, not JSON, an error object). */
    private static JsonNode chunk(String payload) {
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
        return node != null && node.isObject() && !node.has("error") ? node : null;
    }
}
