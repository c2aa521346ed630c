package io.agentlab.providers.recorded;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import io.agentlab.kernel.reference.SchemaMessages;
import io.agentlab.runtime.llm.Json;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Pattern;
import org.apiguardian.api.API;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * An OpenAI-compatible provider family: what its servers usually send on every {@code chat.completion.chunk}
 * ({@link ChunkProfile}), as data (docs/recording.md#provider-families). A family is a description file validated by
 * {@code provider-family.schema.json}; the four built-ins ({@code openai}, {@code deepseek}, {@code dashscope},
 * {@code llamacpp}) ship as such files, and a user adds one (vLLM, SGLang, Ollama, Azure, LiteLLM…) with a file of
 * their own, found by name on the classpath ({@code agentlab/families/<name>.json}) or in folders the configuration
 * names, without recompiling the kit. {@link #OPENAI_COMPATIBLE} stands for a server no description covers.
 *
 * <p>One profile drives the places that must agree on it: the {@link StreamSynthesizer} and the fixtures write chunks
 * with {@link #stream}, and the loader reports, as notes, where a recording departs from its family's usual shape
 * ({@link #deviations}). A deviation is never a refusal: only what the protocol itself requires is
 * ({@link ChunkProtocol}), because a family's usual shape is what its servers mostly send, not what they guarantee.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class ProviderFamily {

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
     * What a family's chunks usually carry besides what the protocol requires ({@link ChunkProtocol}): {@code index} and {@code delta} on every choice, and
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

    /** The name of the family that stands for any OpenAI-compatible server no description covers. */
    public static final String OPENAI_COMPATIBLE_NAME = "openai-compatible";
    /** Where a user's family description is found on the classpath: {@code agentlab/families/<name>.json}. */
    public static final String CLASSPATH_FOLDER = "agentlab/families/";
    /** What a family name may look like: it is also a file name, so it can never leave its folder. */
    private static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9._-]*");
    private static final Schema SCHEMA = schema();
    /** The fields a family must have, itself or through {@code extends}. */
    private static final List<String> SCHEMA_FIELDS = List.of("id_style", "system_fingerprint", "service_tier",
            "full_choices", "logprobs", "refusal", "null_first_content", "content_on_finish", "tool_continuation",
            "usage_placement", "cache_fields", "completion_details", "usage_nulls", "timings");


    /** OpenAI: usage on a final chunk with {@code choices: []}, cache in {@code prompt_tokens_details.cached_tokens}. */
    public static final ProviderFamily OPENAI = builtIn("openai");
    /** DeepSeek: usage on the finish chunk, cache hits and misses in {@code prompt_cache_hit/miss_tokens}. */
    public static final ProviderFamily DEEPSEEK = builtIn("deepseek");
    /**
     * DashScope's OpenAI-compatible mode: {@code system_fingerprint: null}, tool-call continuations that repeat
     * {@code "id": ""}, usage on a final chunk with {@code choices: []}.
     */
    public static final ProviderFamily DASHSCOPE = builtIn("dashscope");
    /**
     * llama.cpp's {@code llama-server} (also the shape of many local servers built on it): {@code finish_reason} but no
     * {@code logprobs} on every choice, a first delta with {@code "content": null}, a first tool-call delta that
     * already carries an argument fragment, usage on a final chunk next to a non-standard {@code timings} object, and,
     * when the output does not parse, an in-stream {@code error} object instead of the usage and {@code [DONE]}.
     */
    public static final ProviderFamily LLAMACPP = builtIn("llamacpp");
    /**
     * Any OpenAI-compatible server: nothing is expected beyond the protocol ({@link #deviations} is always empty); a
     * recording without a family, or with one no description covers, is read as this. Streams written in it take
     * OpenAI's shape.
     */
    public static final ProviderFamily OPENAI_COMPATIBLE = new ProviderFamily(OPENAI_COMPATIBLE_NAME,
            "any OpenAI-compatible server: only the protocol is checked", OPENAI.profile, false);

    private static final List<ProviderFamily> BUILT_INS = List.of(OPENAI, DEEPSEEK, DASHSCOPE, LLAMACPP);

    private final String wireName;
    private final String description;
    private final ChunkProfile profile;
    private final boolean usualShape;

    private ProviderFamily(String wireName, String description, ChunkProfile profile, boolean usualShape) {
        this.wireName = wireName;
        this.description = description;
        this.profile = profile;
        this.usualShape = usualShape;
    }

    /** What this family's chunks usually carry. */
    public ChunkProfile profile() {
        return profile;
    }

    /** The name in recordings and suites, e.g. {@code openai}, {@code deepseek} or a user's {@code vllm}. */
    public String wireName() {
        return wireName;
    }

    /** One line saying which servers the family stands for. */
    public String description() {
        return description;
    }

    /** The four families the kit ships descriptions of, in a fixed order. */
    public static List<ProviderFamily> builtIns() {
        return BUILT_INS;
    }

    /**
     * The family named {@code name} (case ignored): a built-in, {@value #OPENAI_COMPATIBLE_NAME}, or a description on
     * the classpath at {@code agentlab/families/<name>.json}.
     *
     * @throws IllegalArgumentException naming the families there are, or what is wrong with the description
     */
    public static ProviderFamily fromWireName(String name) {
        return fromWireName(name, List.of());
    }

    /**
     * The family named {@code name}, looked up as {@link #fromWireName(String)} does and then as
     * {@code <folder>/<name>.json} in each folder, in order.
     *
     * @throws IllegalArgumentException naming the families there are, or what is wrong with the description
     */
    public static ProviderFamily fromWireName(String name, List<Path> folders) {
        String wanted = Objects.requireNonNull(name, "name").strip().toLowerCase(Locale.ROOT);
        for (ProviderFamily family : BUILT_INS) {
            if (family.wireName.equals(wanted)) {
                return family;
            }
        }
        if (wanted.equals(OPENAI_COMPATIBLE_NAME)) {
            return OPENAI_COMPATIBLE;
        }
        if (NAME.matcher(wanted).matches()) {
            return described(wanted, folders, new HashSet<>());
        }
        throw unknown(name, folders);
    }

    private static ProviderFamily described(String wanted, List<Path> folders, Set<String> seen) {
        if (!seen.add(wanted)) {
            throw new IllegalArgumentException("provider family '" + wanted + "' extends itself through " + seen);
        }
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        loader = loader == null ? ProviderFamily.class.getClassLoader() : loader;
        try (InputStream in = loader.getResourceAsStream(CLASSPATH_FOLDER + wanted + ".json")) {
            if (in != null) {
                return parse(new String(in.readAllBytes(), StandardCharsets.UTF_8),
                        "classpath:" + CLASSPATH_FOLDER + wanted + ".json", base -> base(base, folders, seen));
            }
            for (Path folder : folders) {
                Path file = folder.resolve(wanted + ".json");
                if (Files.isRegularFile(file)) {
                    return parse(Files.readString(file), file.toString(), base -> base(base, folders, seen));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the description of provider family '" + wanted + "'", e);
        }
        throw unknown(wanted, folders);
    }

    private static ProviderFamily base(String name, List<Path> folders, Set<String> seen) {
        for (ProviderFamily family : BUILT_INS) {
            if (family.wireName.equals(name)) {
                return family;
            }
        }
        if (name.equals(OPENAI_COMPATIBLE_NAME)) {
            return OPENAI_COMPATIBLE;
        }
        return described(name, folders, seen);
    }

    private static IllegalArgumentException unknown(String name, List<Path> folders) {
        return new IllegalArgumentException("unknown provider family '" + name + "'; the kit describes openai, "
                + "deepseek, dashscope and llamacpp (and " + OPENAI_COMPATIBLE_NAME + " for any other server); add "
                + "your own as " + CLASSPATH_FOLDER + "<name>.json on the classpath"
                + (folders.isEmpty() ? "" : " or <name>.json in " + folders)
                + " (docs/recording.md#provider-families)");
    }

    /**
     * A family from its description (the format of {@code provider-family.schema.json}).
     *
     * @param json   the description
     * @param source where it came from, for messages
     * @param bases  the family an {@code extends} names
     * @throws IllegalArgumentException naming {@code source} and what is wrong
     */
    public static ProviderFamily parse(String json, String source, Function<String, ProviderFamily> bases) {
        JsonNode root;
        try {
            root = Json.tree(json);
        } catch (JacksonException e) {
            throw new IllegalArgumentException(source + ": not JSON: " + e.getOriginalMessage(), e);
        }
        List<Error> errors = SCHEMA.validate(root);
        if (!errors.isEmpty()) {
            throw new IllegalArgumentException(source + ": not a valid provider family: "
                    + errors.stream().map(SchemaMessages::describe).toList());
        }
        ProviderFamily base = root.hasNonNull("extends") ? bases.apply(root.get("extends").asString()) : null;
        ObjectNode merged = base == null ? Json.MAPPER.createObjectNode() : base.describe();
        root.properties().forEach(e -> merged.set(e.getKey(), e.getValue()));
        merged.remove("extends");
        List<String> missing = new ArrayList<>();
        for (String field : SCHEMA_FIELDS) {
            if (!merged.has(field)) {
                missing.add(field);
            }
        }
        if (!missing.isEmpty()) {
            throw new IllegalArgumentException(source + ": provider family '" + root.get("name").asString()
                    + "' gives no " + missing + " and extends no family that does");
        }
        List<String> cacheFields = new ArrayList<>();
        merged.get("cache_fields").forEach(f -> cacheFields.add(f.asString()));
        ChunkProfile profile = new ChunkProfile(
                IdStyle.valueOf(merged.get("id_style").asString().toUpperCase(Locale.ROOT)),
                merged.get("system_fingerprint").isNull() ? null : merged.get("system_fingerprint").asString(),
                merged.get("service_tier").isNull() ? null : merged.get("service_tier").asString(),
                merged.get("full_choices").asBoolean(), merged.get("logprobs").asBoolean(),
                merged.get("refusal").asBoolean(), merged.get("null_first_content").asBoolean(),
                merged.get("content_on_finish").asBoolean(),
                ToolContinuation.valueOf(merged.get("tool_continuation").asString().toUpperCase(Locale.ROOT)),
                UsagePlacement.valueOf(merged.get("usage_placement").asString().toUpperCase(Locale.ROOT)),
                cacheFields, merged.get("completion_details").asBoolean(), merged.get("usage_nulls").asBoolean(),
                merged.get("timings").asBoolean());
        return new ProviderFamily(root.get("name").asString(), merged.path("description").asString(""), profile, true);
    }

    /** This family as a description (what {@link #parse} reads). */
    public ObjectNode describe() {
        ObjectNode node = Json.MAPPER.createObjectNode();
        node.put("name", wireName).put("description", description)
                .put("id_style", profile.idStyle().name().toLowerCase(Locale.ROOT))
                .put("system_fingerprint", profile.fingerprint()).put("service_tier", profile.serviceTier())
                .put("full_choices", profile.fullChoices()).put("logprobs", profile.logprobs())
                .put("refusal", profile.refusal()).put("null_first_content", profile.nullFirstContent())
                .put("content_on_finish", profile.contentOnFinish())
                .put("tool_continuation", profile.toolContinuation().name().toLowerCase(Locale.ROOT))
                .put("usage_placement", profile.usagePlacement().name().toLowerCase(Locale.ROOT));
        profile.cacheFields().forEach(node.putArray("cache_fields")::add);
        node.put("completion_details", profile.completionDetails()).put("usage_nulls", profile.usageNulls())
                .put("timings", profile.timings());
        return node;
    }

    private static ProviderFamily builtIn(String name) {
        String resource = "families/" + name + ".json";
        try (InputStream in = ProviderFamily.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException(resource + " is missing from the jar");
            }
            return parse(new String(in.readAllBytes(), StandardCharsets.UTF_8), resource, base -> {
                throw new IllegalStateException("a built-in family extends none");
            });
        } catch (IOException e) {
            throw new UncheckedIOException(resource + " is unreadable", e);
        }
    }

    private static Schema schema() {
        try (InputStream in = ProviderFamily.class.getResourceAsStream("provider-family.schema.json")) {
            return SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12)
                    .getSchema(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("provider-family.schema.json is missing from the jar", e);
        }
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof ProviderFamily family && family.wireName.equals(wireName);
    }

    @Override
    public int hashCode() {
        return wireName.hashCode();
    }

    @Override
    public String toString() {
        return wireName;
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
     * Where the SSE {@code data:} payloads of a stream depart from what this family usually sends, one note per finding
     * ({@code event 3 lacks 'system_fingerprint', which openai chunks usually carry}), in event order; always empty for
     * {@link #OPENAI_COMPATIBLE}. A deviation is a note on the recording, never a refusal (docs/recording.md#notes):
     * real servers differ from their family's usual shape between versions, deployments and proxies. What the protocol
     * itself requires is {@link ChunkProtocol}'s to check. {@code [DONE]}, payloads that are not JSON objects and
     * in-stream {@code error} objects are not chunks and are not checked.
     */
    public List<String> deviations(List<String> payloads) {
        List<String> found = new ArrayList<>();
        if (!usualShape) {
            return found;
        }
        boolean roleSeen = false;
        Set<Long> toolCallsSeen = new HashSet<>();
        for (int event = 0; event < payloads.size(); event++) {
            JsonNode chunk = ChunkProtocol.chunk(payloads.get(event));
            if (chunk == null) {
                continue;
            }
            String at = "event " + event;
            if (!chunk.has("system_fingerprint")) {
                found.add(at + " lacks 'system_fingerprint', which " + wireName + " chunks usually carry");
            }
            JsonNode choices = chunk.path("choices");
            boolean finishHere = false;
            for (int c = 0; c < choices.size(); c++) {
                JsonNode choice = choices.get(c);
                String path = "choices[" + c + "]";
                List<String> choiceFields = !profile.fullChoices() ? List.of()
                        : profile.logprobs() ? List.of("logprobs", "finish_reason") : List.of("finish_reason");
                for (String field : choiceFields) {
                    if (!choice.has(field)) {
                        found.add(at + " lacks '" + path + "." + field + "', which " + wireName
                                + " choices usually carry");
                    }
                }
                finishHere |= choice.hasNonNull("finish_reason");
                if (!roleSeen && !"assistant".equals(choice.path("delta").path("role").asString(""))) {
                    found.add(at + " lacks '" + path + ".delta.role': the first delta of a " + wireName
                            + " stream usually says \"assistant\"");
                }
                roleSeen = true;
                toolCalls(choice.path("delta").path("tool_calls"), at, path + ".delta.tool_calls", toolCallsSeen,
                        found);
            }
            JsonNode usage = chunk.get("usage");
            if (usage != null && usage.isObject()) {
                usage(usage, choices.size(), finishHere, at, found);
                if (profile.timings() && !chunk.path("timings").isObject()) {
                    found.add(at + " lacks 'timings' next to 'usage', which " + wireName + " usually sends");
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
                continue; // the protocol's to refuse (ChunkProtocol)
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
            found.add(at + ": 'usage' rides on a chunk with " + choices + " choice(s); " + wireName
                    + " usually sends it on a final chunk with empty 'choices'");
        }
        if (profile.usagePlacement() == UsagePlacement.FINISH_CHUNK && !finishHere) {
            found.add(at + ": 'usage' rides on a chunk without a finish reason; " + wireName
                    + " usually sends it on the chunk that carries the finish reason");
        }
        for (String field : profile.cacheFields()) {
            JsonNode node = usage;
            for (String part : field.split("\\.")) {
                node = node.path(part);
            }
            if (node.isMissingNode()) {
                found.add(at + " lacks 'usage." + field + "', where " + wireName + " usually reports its prompt cache");
            }
        }
    }
}
