package io.agentlab.runtime.llm;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * A model reached through the provider seam. Implementations: {@code io.agentlab.provider.openai.OpenAiCompatibleClient} (agentlab-provider-openai; real HTTP) and
 * {@code ScriptedChatProvider} (in-process, for unit tests; test fixtures).
 */
@API(status = EXPERIMENTAL, since = "0.1")
public interface ChatProvider {

    /**
     * Streams a completion, calling {@code listener} for each content delta on the calling thread, and returns when
     * the stream ends. Interrupting the calling thread cancels the call ({@link ProviderException.Kind#CANCELLED}).
     *
     * @throws ProviderException for HTTP errors, in-stream errors, malformed chunks, truncation, connection failures
     */
    ChatCompletion stream(ChatRequest request, ChatStreamListener listener);
}
