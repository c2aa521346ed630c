package io.agentlab.kernel.api;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import org.apiguardian.api.API;

/**
 * An event kernel under test: the reference kernel implements it, and so can a service team's own kernel (TCK use).
 * It resolves, validates, deduplicates, schedules, executes and aggregates one batch at a time per turn.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public interface EventKernel extends AutoCloseable {

    /** The registered definitions in registration order (the catalog both modes are built from). */
    List<EventDefinition> definitions();

    /** The definition registered under {@code name}. */
    Optional<EventDefinition> definition(String name);

    /** Starts a batch and returns at once; the first answer never waits for event execution. */
    BatchExecution submit(EventBatch batch);

    /**
     * Runs a batch to completion.
     *
     * @throws CancellationException if the batch was cancelled or the calling thread interrupted
     */
    default BatchResult execute(EventBatch batch) {
        BatchExecution execution = submit(batch);
        try {
            return execution.result().get();
        } catch (InterruptedException e) {
            execution.cancel();
            Thread.currentThread().interrupt();
            throw new CancellationException("interrupted while waiting for the batch");
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw new IllegalStateException(e.getCause());
        }
    }

    /**
     * Cancels running batches and stops the kernel's own tasks; no batch is accepted after it. Threads the kernel
     * shares with other kernels (the reference kernel's are shared by the process) go back to their pool.
     */
    @Override
    void close();
}
