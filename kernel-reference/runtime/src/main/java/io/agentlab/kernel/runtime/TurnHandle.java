package io.agentlab.kernel.runtime;

import java.util.concurrent.CompletableFuture;

/** A turn in flight. */
public interface TurnHandle {

    /** The turn's result. */
    CompletableFuture<TurnResult> result();

    /**
     * The user interrupted: the partial answer is kept with stop reason {@code interrupted}, the run ends with
     * RUN_ERROR {@code RUN_CANCELED}, the conversation stays usable ({@code
     * docs/design.md#provider-interrupt-vs-delete}).
     */
    void interrupt();

    /** The conversation is being deleted: the turn stops and keeps nothing. */
    void cancel();
}
