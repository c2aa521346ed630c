package io.agentlab.providers.recorded;

import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.EncodingRegistry;
import com.knuddels.jtokkit.api.EncodingType;
import io.agentlab.kernel.runtime.llm.Json;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicBoolean;
import tools.jackson.databind.JsonNode;

/**
 * Prompt tokens of a Chat Completions request body as received, counted with jtokkit ({@code o200k_base} unless the
 * model names another encoding): per message 3 tokens of framing plus its role and content (and tool-call
 * arguments), 3 tokens of reply priming, plus the {@code tools} array as JSON text. The framing follows OpenAI's
 * published counting recipe; providers' exact tool-schema accounting differs, so treat the figure as a faithful
 * estimate of what each mode sends, not a bill.
 *
 * <p>A run counts every request, and every request of a runtime repeats the same system prompt and tool list, which
 * were most of a run's token-counting time (docs/performance.md). A count depends only on the encoding and the text,
 * so long texts are remembered with their count: the figures are the same, only not computed again.
 */
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
        Encoding encoding = REGISTRY.getEncodingForModel(root.path("model").asString(""))
                .orElseGet(() -> REGISTRY.getEncoding(EncodingType.O200K_BASE));
        int tokens = 3;
        for (JsonNode message : root.path("messages")) {
            tokens += 3 + tokens(encoding, message.path("role").asString(""));
            JsonNode content = message.get("content");
            if (content != null && content.isString()) {
                tokens += tokens(encoding, content.asString());
            }
            for (JsonNode call : message.path("tool_calls")) {
                tokens += tokens(encoding, call.path("function").path("name").asString(""))
                        + tokens(encoding, call.path("function").path("arguments").asString(""));
            }
        }
        JsonNode tools = root.get("tools");
        if (tools != null && tools.isArray()) {
            tokens += tokens(encoding, Json.write(tools));
        }
        return tokens;
    }

    private static int tokens(Encoding encoding, String text) {
        if (text.length() < REMEMBERED_LENGTH) {
            return encoding.countTokens(text);
        }
        Text key = new Text(encoding.getName(), text);
        Integer known = COUNTS.get(key);
        if (known != null) {
            return known;
        }
        int counted = encoding.countTokens(text);
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
     * Starts loading the default encoding's ranks (about 0.3 s of CPU, once per process) on a daemon thread, so that
     * the first count does not pay for it on the run's critical path. A count that comes first waits for that same
     * load (the registry loads each encoding once), never a second one; calling this again does nothing.
     */
    public static void loadInBackground() {
        if (LOADING.compareAndSet(false, true)) {
            Thread loader = new Thread(() -> REGISTRY.getEncoding(EncodingType.O200K_BASE), "agentlab-token-ranks");
            loader.setDaemon(true);
            loader.start();
        }
    }

    /** Tokens of a completion text. */
    public static int completion(String text) {
        return REGISTRY.getEncoding(EncodingType.O200K_BASE).countTokens(text);
    }
}
