package io.agentlab.tokens;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.EncodingRegistry;
import com.knuddels.jtokkit.api.EncodingType;
import com.knuddels.jtokkit.api.ModelType;
import io.agentlab.runtime.llm.ChatMessage;
import io.agentlab.runtime.llm.ChatRequest;
import io.agentlab.runtime.llm.ChatRequestJson;
import io.agentlab.runtime.llm.Json;
import io.agentlab.runtime.llm.ToolCall;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.ToIntFunction;
import org.apiguardian.api.API;
import tools.jackson.databind.JsonNode;

/**
 * Prompt tokens of a Chat Completions request body as received, counted in {@code o200k_base} unless the model names
 * another encoding (then with jtokkit): per message 3 tokens of framing plus its role and content (and tool-call
 * arguments), 3 tokens of reply priming, plus the {@code tools} array as JSON text. The framing follows OpenAI's
 * published counting recipe; providers' exact tool-schema accounting differs, so treat the figure as a faithful
 * estimate of what each mode sends, not a bill.
 *
 * <p>A run counts every request, and every request of a runtime repeats the same system prompt and tool list, which
 * were most of a run's token-counting time (docs/performance.md). A count depends only on the encoding and the text,
 * so long texts are remembered with their count: the figures are the same, only not computed again.
 *
 * <p>Texts are counted as ordinary text: a message that contains a special-token marker such as
 * {@code <|endoftext|>} is counted character for character, as a provider counts a user's message, never refused.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class PromptTokens {

    private static final EncodingRegistry REGISTRY = Encodings.newLazyEncodingRegistry();
    /** Texts at least this long are remembered with their count (shorter ones cost less to count than to look up). */
    static final int REMEMBERED_LENGTH = 256;
    /** Texts remembered at most; past it the memory starts again, so it stays bounded whatever a run sends. */
    static final int REMEMBERED_TEXTS = 128;
    private static final ConcurrentMap<Text, Integer> COUNTS = new ConcurrentHashMap<>();
    private static final AtomicBoolean LOADING = new AtomicBoolean();

    private PromptTokens() {
    }

    /** Counts the body's prompt tokens. */
    public static int count(String requestBody) {
        JsonNode root = Json.tree(requestBody);
        EncodingType type = encodingFor(root.path("model").asString(""));
        ToIntFunction<String> encoding = encoding(type);
        String name = type.getName();
        int tokens = 3;
        for (JsonNode message : root.path("messages")) {
            tokens += 3 + tokens(name, encoding, message.path("role").asString(""));
            JsonNode content = message.get("content");
            if (content != null && content.isString()) {
                tokens += tokens(name, encoding, content.asString());
            }
            for (JsonNode call : message.path("tool_calls")) {
                tokens += tokens(name, encoding, call.path("function").path("name").asString(""))
                        + tokens(name, encoding, call.path("function").path("arguments").asString(""));
            }
        }
        JsonNode tools = root.get("tools");
        if (tools != null && tools.isArray()) {
            tokens += tokens(name, encoding, Json.write(tools));
        }
        return tokens;
    }

    /**
     * The same count as {@link #count(String)} of {@code ChatRequestJson.write(request)}, from the request itself:
     * no body written and read back (the case runner counts every turn's first request, and the report's growth
     * curve about a hundred of them). {@code PromptTokensTest} checks that both agree.
     */
    public static int count(ChatRequest request) {
        EncodingType type = encodingFor(request.model());
        ToIntFunction<String> encoding = encoding(type);
        String name = type.getName();
        int tokens = 3;
        for (ChatMessage message : request.messages()) {
            tokens += 3 + tokens(name, encoding, message.role().name().toLowerCase(Locale.ROOT));
            if (message.content() != null) {
                tokens += tokens(name, encoding, message.content());
            }
            for (ToolCall call : message.toolCalls()) {
                tokens += tokens(name, encoding, Objects.requireNonNullElse(call.name(), ""))
                        + tokens(name, encoding, Objects.requireNonNullElse(call.arguments(), ""));
            }
        }
        if (!request.tools().isEmpty()) {
            tokens += tokens(name, encoding, ChatRequestJson.toolsJson(request));
        }
        return tokens;
    }

    private static ToIntFunction<String> encoding(EncodingType type) {
        return type == EncodingType.O200K_BASE ? O200kBase::count : REGISTRY.getEncoding(type)::countTokensOrdinary;
    }

    /**
     * The encoding jtokkit's registry picks for a model name (an exact model name, else the {@code gpt-4o},
     * {@code gpt-4} and {@code gpt-3.5-turbo} prefixes), {@code o200k_base} for any other name; chosen here so that
     * no encoding is loaded only to learn its name.
     */
    static EncodingType encodingFor(String model) {
        return ModelType.fromName(model).map(ModelType::getEncodingType).orElseGet(() -> {
            if (model.startsWith(ModelType.GPT_4O.getName())) {
                return ModelType.GPT_4O.getEncodingType();
            }
            for (ModelType prefix : new ModelType[] {ModelType.GPT_4_32K, ModelType.GPT_4,
                    ModelType.GPT_3_5_TURBO_16K, ModelType.GPT_3_5_TURBO}) {
                if (model.startsWith(prefix.getName())) {
                    return prefix.getEncodingType();
                }
            }
            return EncodingType.O200K_BASE;
        });
    }

    private static int tokens(String encodingName, ToIntFunction<String> encoding, String text) {
        if (text.length() < REMEMBERED_LENGTH) {
            return encoding.applyAsInt(text);
        }
        Text key = new Text(encodingName, text);
        Integer known = COUNTS.get(key);
        if (known != null) {
            return known;
        }
        int counted = encoding.applyAsInt(text);
        if (COUNTS.size() >= REMEMBERED_TEXTS) {
            COUNTS.clear();
        }
        COUNTS.put(key, counted);
        return counted;
    }

    /** A remembered text under the encoding that counted it. */
    private record Text(String encoding, String text) {
    }

    /**
     * Starts loading the default encoding's ranks (tens of milliseconds, once per process) on a daemon thread, so that
     * the first count does not pay for it on the run's critical path. A count that comes first waits for that same
     * load (class initialisation runs once), never a second one; calling this again does nothing.
     */
    public static void loadInBackground() {
        if (LOADING.compareAndSet(false, true)) {
            Thread loader = new Thread(O200kBase::load, "agentlab-token-ranks");
            loader.setDaemon(true);
            loader.start();
        }
    }

    /** Tokens of a completion text in {@code o200k_base}, counted as ordinary text. */
    public static int completion(String text) {
        return O200kBase.count(text);
    }
}
