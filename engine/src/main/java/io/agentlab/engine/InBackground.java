package io.agentlab.engine;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Supplier;

/**
 * Work that depends on nothing the cases produce, done on a daemon thread while the run goes on: report parts that
 * overlap the suites' reading or the cases instead of adding to the report's time (docs/performance.md#report-parts),
 * and the start-up a run's preparation overlaps with discovery (docs/performance.md#start-up). A daemon thread never
 * keeps a finished process alive; a part nobody waits for still runs to its end unless its work checks a stop signal of
 * its own (the control matrix does).
 */
final class InBackground {

    private InBackground() {
    }

    /** Starts {@code work} on a daemon thread named {@code name}; a failure completes the future exceptionally. */
    static <T> CompletableFuture<T> start(String name, Supplier<T> work) {
        CompletableFuture<T> result = new CompletableFuture<>();
        Thread thread = new Thread(() -> {
            try {
                result.complete(work.get());
            } catch (Throwable e) { // a checked exception thrown sneakily too: the future must never stay open
                result.completeExceptionally(e);
            }
        }, name);
        thread.setDaemon(true);
        thread.start();
        return result;
    }

    /** Waits for {@code part} and returns it; its failure is thrown as the work threw it, as if run here. */
    static <T> T join(CompletableFuture<T> part) {
        try {
            return part.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException failure) {
                throw failure;
            }
            if (e.getCause() instanceof Error failure) {
                throw failure;
            }
            throw e; // a checked exception: wrapped, with its cause
        }
    }
}
