package io.agentlab.providers.recorded;

import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.EncodingRegistry;
import com.knuddels.jtokkit.api.EncodingType;
import io.agentlab.kernel.runtime.llm.Json;
import tools.jackson.databind.JsonNode;

/**
 * Prompt tokens of a Chat Completions request body as received, counted with jtokkit ({@code o200k_base} unless the
 * model names another encoding): per message 3 tokens of framing plus its role and content (and tool-call
 * arguments), 3 tokens of reply priming, plus the {@code tools} array as JSON text. The framing follows OpenAI's
 * published counting recipe; providers' exact tool-schema accounting differs, so treat the figure as a faithful
 * estimate of what each mode sends, not a bill.
 */
public final class PromptTokens {

    private static final EncodingRegistry REGISTRY = Encodings.newLazyEncodingRegistry();

    private PromptTokens() {
    }

    /** Counts the body's prompt tokens. */
    public static int count(String requestBody) {
        JsonNode root = Json.tree(requestBody);
        Encoding encoding = REGISTRY.getEncodingForModel(root.path("model").asString(""))
                .orElseGet(() -> REGISTRY.getEncoding(EncodingType.O200K_BASE));
        int tokens = 3;
        for (JsonNode message : root.path("messages")) {
            tokens += 3 + encoding.countTokens(message.path("role").asString(""));
            JsonNode content = message.get("content");
            if (content != null && content.isString()) {
                tokens += encoding.countTokens(content.asString());
            }
            for (JsonNode call : message.path("tool_calls")) {
                tokens += encoding.countTokens(call.path("function").path("name").asString(""))
                        + encoding.countTokens(call.path("function").path("arguments").asString(""));
            }
        }
        JsonNode tools = root.get("tools");
        if (tools != null && tools.isArray()) {
            tokens += encoding.countTokens(Json.write(tools));
        }
        return tokens;
    }

    /** Tokens of a completion text. */
    public static int completion(String text) {
        return REGISTRY.getEncoding(EncodingType.O200K_BASE).countTokens(text);
    }
}
