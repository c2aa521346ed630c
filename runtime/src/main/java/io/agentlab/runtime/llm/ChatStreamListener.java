package io.agentlab.runtime.llm;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/** Receives content as it streams, on the thread that called the provider. */
@API(status = EXPERIMENTAL, since = "0.1")
@FunctionalInterface
public interface ChatStreamListener {

    /** A non-empty content delta. */
    void onContent(String delta);
}
