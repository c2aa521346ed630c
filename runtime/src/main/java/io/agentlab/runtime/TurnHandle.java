package io.agentlab.runtime;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.concurrent.CompletableFuture;
import org.apiguardian.api.API;

/** A turn in flight. */
@API(status = EXPERIMENTAL, since = "0.1")
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
