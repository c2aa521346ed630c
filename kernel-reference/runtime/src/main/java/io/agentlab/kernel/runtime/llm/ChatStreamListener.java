package io.agentlab.kernel.runtime.llm;

/** Receives content as it streams, on the thread that called the provider. */
@FunctionalInterface
public interface ChatStreamListener {

    /** A non-empty content delta. */
    void onContent(String delta);
}
