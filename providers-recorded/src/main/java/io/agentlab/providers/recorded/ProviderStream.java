package io.agentlab.providers.recorded;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.agentlab.runtime.llm.Json;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import org.apiguardian.api.API;

/**
 * Writes one stream's SSE {@code data:} payloads in a {@link ProviderFamily}'s shape: every chunk with the family's
 * envelope (one completion id, {@code created}, the model, its {@code system_fingerprint}), a first delta with the
 * role, content and tool-call deltas as the family streams them, the finish reason, and the usage where and as the
 * family reports it. Used by the {@link StreamSynthesizer} and by every fixture the repository ships.
 *
 * <pre>{@code
 * List<String> payloads = ProviderFamily.DEEPSEEK.stream("deepseek-chat", "usage-deepseek-cache", day)
 *         .content("How about ", "Mochi?")
 *         .finish("stop", ProviderStream.Usage.of(120, 6).cached(64))
 *         .done().payloads();
 * }</pre>
 */
@API(status = INTERNAL, since = "0.1")
public final class ProviderStream {

    /** Stands for the {@code "usage": null} a chunk carries only when the stream reports usage at all. */
    private static final Object USAGE_SLOT = new Object();
    private static final String ALPHANUMERIC = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

    /**
     * Token usage to report. The family decides where it goes and how the cache is spelled.
     *
     * @param promptTokens     prompt tokens, or null for the replay's placeholder (the tokens of the request received)
     * @param completionTokens completion tokens
     * @param cachedTokens     prompt tokens served from the provider's cache
     * @param extra            further fields as the provider sends them (e.g. a {@code cost})
     */
    public record Usage(Integer promptTokens, int completionTokens, int cachedTokens, Map<String, Object> extra) {
        /** Copies the extra fields. */
        public Usage {
            extra = Collections.unmodifiableMap(new LinkedHashMap<>(extra));
            if (promptTokens == null && cachedTokens != 0) {
                throw new IllegalArgumentException("cached tokens need fixed prompt tokens (a miss count is derived)");
            }
        }

        /** Fixed prompt and completion tokens, nothing cached. */
        public static Usage of(int promptTokens, int completionTokens) {
            return new Usage(promptTokens, completionTokens, 0, Map.of());
        }

        /** Prompt tokens filled in by the replay from the request it receives ({@link TimedReplay#fill}). */
        public static Usage filledByReplay(int completionTokens) {
            return new Usage(null, completionTokens, 0, Map.of());
        }

        /** The same usage with {@code tokens} of the prompt served from the cache. */
        public Usage cached(int tokens) {
            return new Usage(promptTokens, completionTokens, tokens, extra);
        }

        /** The same usage with a further field (e.g. {@code cost}). */
        public Usage with(String field, Object value) {
            Map<String, Object> more = new LinkedHashMap<>(extra);
            more.put(field, value);
            return new Usage(promptTokens, completionTokens, cachedTokens, more);
        }
    }

    private final ProviderFamily family;
    private final ProviderFamily.ChunkProfile profile;
    private final String model;
    private final String id;
    private final long created;
    private final String fingerprint;
    /** Chunks as ordered maps (serialized at the end, once it is known whether usage comes) or raw payloads. */
    private final List<Object> items = new ArrayList<>();
    private final List<Integer> namedToolCalls = new ArrayList<>();
    private boolean roleSent;
    private boolean usage;

    ProviderStream(ProviderFamily family, String model, String key, LocalDate day) {
        this.family = Objects.requireNonNull(family, "family");
        this.profile = family.profile();
        this.model = Objects.requireNonNull(model, "model");
        byte[] hash = sha256(family.wireName() + "\n" + Objects.requireNonNull(key, "key"));
        this.id = switch (profile.idStyle()) {
            case OPENAI -> "chatcmpl-" + alphanumeric(hash, 29);
            case UUID -> UUID.nameUUIDFromBytes(hash).toString();
            case CHATCMPL_UUID -> "chatcmpl-" + UUID.nameUUIDFromBytes(hash);
            case CHATCMPL_32 -> "chatcmpl-" + alphanumeric(hash, 32);
        };
        long seconds = Math.floorMod(((hash[0] & 0xffL) << 16) | ((hash[1] & 0xffL) << 8) | (hash[2] & 0xffL), 86_400L);
        this.created = day.atStartOfDay(ZoneOffset.UTC).toEpochSecond() + seconds;
        this.fingerprint = profile.fingerprint() == null ? null
                : String.format(profile.fingerprint(), HexFormat.of().formatHex(sha256(model)).substring(0, 10));
    }

    /** The family whose shape this stream has. */
    public ProviderFamily family() {
        return family;
    }

    /** One content delta per piece. */
    public ProviderStream content(String... pieces) {
        for (String piece : pieces) {
            Map<String, Object> delta = new LinkedHashMap<>();
            delta.put("content", piece);
            choiceChunk(delta, null, true);
        }
        return this;
    }

    /**
     * One tool call: its first delta names it ({@code id}, {@code type}, {@code function.name}), the argument
     * fragments follow as the family streams them.
     *
     * @param index     the tool call's index
     * @param id        the tool call id
     * @param name      the function name
     * @param fragments the arguments, in the pieces they stream in (empty pieces are not sent)
     */
    public ProviderStream toolCall(int index, String id, String name, List<String> fragments) {
        if (namedToolCalls.contains(index)) {
            throw new IllegalArgumentException("tool call " + index + " was already streamed");
        }
        namedToolCalls.add(index);
        List<String> rest = new ArrayList<>(fragments.stream().filter(f -> !f.isEmpty()).toList());
        boolean firstCarriesArguments = profile.toolContinuation() != ProviderFamily.ToolContinuation.ARGUMENTS_ONLY;
        boolean emptyIds = profile.toolContinuation() == ProviderFamily.ToolContinuation.EMPTY_ID_AND_TYPE;
        Map<String, Object> function = new LinkedHashMap<>();
        function.put("name", name);
        function.put("arguments", firstCarriesArguments && !rest.isEmpty() ? rest.remove(0) : "");
        toolCallChunk(index, id, function, true);
        for (String fragment : rest) {
            Map<String, Object> arguments = new LinkedHashMap<>();
            arguments.put("arguments", fragment);
            toolCallChunk(index, emptyIds ? "" : null, arguments, !emptyIds);
        }
        return this;
    }

    /**
     * One tool call whose first delta also carries visible content: a provider that sends its text and its first
     * tool call in one chunk ({@code docs/design.md#modes-visible-withheld-recorded}: nothing was withheld).
     *
     * @param content   the visible text of the first tool-call chunk
     * @param index     the tool call's index
     * @param id        the tool call id
     * @param name      the function name
     * @param fragments the arguments, as for {@link #toolCall}
     */
    @SuppressWarnings("unchecked")
    public ProviderStream contentWithToolCall(String content, int index, String id, String name, List<String> fragments) {
        int before = items.size();
        toolCall(index, id, name, fragments);
        for (Object item : items.subList(before, items.size())) {
            Map<String, Object> chunk = (Map<String, Object>) item;
            Map<String, Object> choice = ((List<Map<String, Object>>) chunk.get("choices")).get(0);
            Map<String, Object> delta = (Map<String, Object>) choice.get("delta");
            if (delta.containsKey("tool_calls")) {
                Map<String, Object> both = new LinkedHashMap<>();
                both.put("content", content);
                both.putAll(delta);
                choice.put("delta", both);
                return this;
            }
        }
        throw new IllegalStateException("no tool-call chunk was streamed");
    }

    /**
     * The finish reason, and the usage where the family puts it: on this chunk (DeepSeek) or on a final chunk with
     * empty choices (OpenAI, DashScope).
     *
     * @param reason the finish reason ({@code stop}, {@code tool_calls}, ...)
     * @param usage  the usage, or null for a stream that reports none
     */
    public ProviderStream finish(String reason, Usage usage) {
        Map<String, Object> delta = new LinkedHashMap<>();
        if (profile.contentOnFinish()) {
            delta.put("content", "");
        }
        Map<String, Object> chunk = choiceChunk(delta, reason, true);
        if (usage != null) {
            this.usage = true;
            if (profile.usagePlacement() == ProviderFamily.UsagePlacement.FINISH_CHUNK) {
                chunk.put("usage", usage(usage));
            } else {
                Map<String, Object> last = envelope();
                last.put("choices", List.of());
                last.put("usage", usage(usage));
                if (profile.timings()) {
                    last.put("timings", timings(usage));
                }
                items.add(last);
            }
        }
        return this;
    }

    /** A payload as given (for faults: JSON cut short, an error object). */
    public ProviderStream raw(String payload) {
        items.add(payload);
        return this;
    }

    /** The terminating {@code [DONE]}. */
    public ProviderStream done() {
        return raw("[DONE]");
    }

    /** The payloads, in order. */
    public List<String> payloads() {
        List<String> payloads = new ArrayList<>();
        for (Object item : items) {
            if (item instanceof String raw) {
                payloads.add(raw);
                continue;
            }
            @SuppressWarnings("unchecked")
            Map<String, Object> chunk = new LinkedHashMap<>((Map<String, Object>) item);
            if (chunk.get("usage") == USAGE_SLOT) {
                // with include_usage every chunk says "usage": null until the one that carries it
                if (usage && profile.usageNulls()) {
                    chunk.put("usage", null);
                } else {
                    chunk.remove("usage");
                }
            }
            payloads.add(Json.write(chunk));
        }
        return payloads;
    }

    private void toolCallChunk(int index, String id, Map<String, Object> function, boolean fullChoice) {
        Map<String, Object> call = new LinkedHashMap<>();
        call.put("index", index);
        if (id != null) {
            call.put("id", id);
            call.put("type", "function");
        }
        call.put("function", function);
        Map<String, Object> delta = new LinkedHashMap<>();
        delta.put("tool_calls", List.of(call));
        choiceChunk(delta, null, fullChoice);
    }

    private Map<String, Object> choiceChunk(Map<String, Object> delta, String finishReason, boolean fullChoice) {
        if (!roleSent) {
            roleSent = true;
            Map<String, Object> first = new LinkedHashMap<>();
            first.put("role", "assistant");
            first.put("content", profile.nullFirstContent() ? null : "");
            if (profile.refusal()) {
                first.put("refusal", null);
            }
            choiceChunk(first, null, true);
        }
        Map<String, Object> choice = new LinkedHashMap<>();
        choice.put("index", 0);
        choice.put("delta", delta);
        // DashScope leaves logprobs and finish_reason off its tool-call continuations
        if (fullChoice || profile.fullChoices()) {
            if (profile.logprobs()) {
                choice.put("logprobs", null);
            }
            choice.put("finish_reason", finishReason);
        }
        Map<String, Object> chunk = envelope();
        chunk.put("choices", List.of(choice));
        chunk.put("usage", USAGE_SLOT);
        items.add(chunk);
        return chunk;
    }

    private Map<String, Object> envelope() {
        Map<String, Object> chunk = new LinkedHashMap<>();
        chunk.put("id", id);
        chunk.put("object", ChunkProtocol.CHUNK_OBJECT);
        chunk.put("created", created);
        chunk.put("model", model);
        if (profile.serviceTier() != null) {
            chunk.put("service_tier", profile.serviceTier());
        }
        chunk.put("system_fingerprint", fingerprint);
        return chunk;
    }

    private Map<String, Object> usage(Usage usage) {
        // Placeholders the replay fills from the request it receives (TimedReplay.fill)
        Object prompt = usage.promptTokens() == null ? unquoted(TimedReplay.PROMPT_TOKENS) : usage.promptTokens();
        Object total = usage.promptTokens() == null
                ? unquoted(TimedReplay.TOTAL_TOKENS_PLUS) + usage.completionTokens() + "@"
                : (Object) (usage.promptTokens() + usage.completionTokens());
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("prompt_tokens", prompt);
        out.put("completion_tokens", usage.completionTokens());
        out.put("total_tokens", total);
        Map<String, Object> promptDetails = new LinkedHashMap<>();
        promptDetails.put("cached_tokens", usage.cachedTokens());
        if (profile.completionDetails()) {
            promptDetails.put("audio_tokens", 0);
        }
        out.put("prompt_tokens_details", promptDetails);
        if (profile.completionDetails()) {
            Map<String, Object> completionDetails = new LinkedHashMap<>();
            completionDetails.put("reasoning_tokens", 0);
            completionDetails.put("audio_tokens", 0);
            completionDetails.put("accepted_prediction_tokens", 0);
            completionDetails.put("rejected_prediction_tokens", 0);
            out.put("completion_tokens_details", completionDetails);
        }
        if (profile.cacheFields().contains("prompt_cache_hit_tokens")) {
            out.put("prompt_cache_hit_tokens", usage.cachedTokens());
            out.put("prompt_cache_miss_tokens", usage.promptTokens() == null ? prompt
                    : (Object) (usage.promptTokens() - usage.cachedTokens()));
        }
        out.putAll(usage.extra());
        return out;
    }

    /**
     * llama.cpp's {@code timings} for a synthesized stream: a fixed, modelled rate (8 ms per prompt token, 50 ms per
     * completion token), not a measurement; the prompt's share is left out while the prompt tokens are a placeholder.
     */
    private static Map<String, Object> timings(Usage usage) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("cache_n", usage.cachedTokens());
        out.put("prompt_n", usage.promptTokens() == null ? unquoted(TimedReplay.PROMPT_TOKENS) : usage.promptTokens());
        if (usage.promptTokens() != null) {
            out.put("prompt_ms", usage.promptTokens() * 8.0);
        }
        out.put("prompt_per_token_ms", 8.0);
        out.put("prompt_per_second", 125.0);
        out.put("predicted_n", usage.completionTokens());
        out.put("predicted_ms", usage.completionTokens() * 50.0);
        out.put("predicted_per_token_ms", 50.0);
        out.put("predicted_per_second", 20.0);
        return out;
    }

    private static String unquoted(String placeholder) {
        return placeholder.replace("\"", "");
    }

    private static String alphanumeric(byte[] hash, int length) {
        StringBuilder out = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            out.append(ALPHANUMERIC.charAt((hash[i % hash.length] & 0xff) % ALPHANUMERIC.length()));
        }
        return out.toString();
    }

    private static byte[] sha256(String text) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }
}
