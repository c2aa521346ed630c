package io.agentlab.engine;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Supplier;

/**
 * Report parts that depend on nothing the cases produce, computed on a daemon thread while the run goes on, so that
 * they overlap the suites' reading or the cases instead of adding to the report's time
 * (docs/performance.md#report-parts). A daemon thread never keeps a finished process alive; a part nobody waits for
 * still runs to its end unless its work checks a stop signal of its own (the control matrix does).
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
