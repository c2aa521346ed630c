package io.agentlab.kernel.api;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.concurrent.CompletableFuture;
import org.apiguardian.api.API;

/** A batch in flight. */
@API(status = EXPERIMENTAL, since = "0.1")
public interface BatchExecution {

    /**
     * Completes with the batch result, or exceptionally with a {@link java.util.concurrent.CancellationException}
     * when the batch was cancelled. Cancelling this future cancels the batch.
     */
    CompletableFuture<BatchResult> result();

    /**
     * Cancels the batch: no further handler starts, running handlers are interrupted, nothing is recorded as a
     * failure. Idempotent.
     */
    void cancel();

    /** Completes once no handler of this batch is running any more (after completion, timeout or cancellation). */
    CompletableFuture<Void> quiescence();
}
