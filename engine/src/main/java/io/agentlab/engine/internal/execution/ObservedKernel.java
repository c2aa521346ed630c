package io.agentlab.engine.internal.execution;

import io.agentlab.kernel.api.BatchExecution;
import io.agentlab.kernel.api.EventBatch;
import io.agentlab.kernel.api.EventDefinition;
import io.agentlab.kernel.api.EventKernel;
import io.agentlab.kernel.api.EventKernelFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The kernel under test, seen from the engine: every batch it is given is remembered, so that after a turn the engine
 * can wait for the batch's {@link BatchExecution#quiescence() quiescence} before it reads the handler log.
 *
 * <p>Why: a batch result may complete before a dispatched handler has even begun — the reference kernel arms an
 * event's timeout just before calling its handler, and on a busy machine the timeout can fire first, so the result
 * says {@code timed_out} while the handler is about to run. Port-call counts, start orders and concurrency read
 * before quiescence would then depend on how busy the machine was. Quiescence is part of the kernel SPI, so this works
 * for any kernel under test.
 */
final class ObservedKernel implements EventKernel {

    private final EventKernel delegate;
    private final List<BatchExecution> submitted = new ArrayList<>();

    private ObservedKernel(EventKernel delegate) {
        this.delegate = delegate;
    }

    /** A factory whose kernels are observed; {@code sink} receives each kernel built. */
    static EventKernelFactory wrap(EventKernelFactory factory, java.util.function.Consumer<ObservedKernel> sink) {
        return setup -> {
            ObservedKernel kernel = new ObservedKernel(factory.create(setup));
            sink.accept(kernel);
            return kernel;
        };
    }

    @Override
    public List<EventDefinition> definitions() {
        return delegate.definitions();
    }

    @Override
    public Optional<EventDefinition> definition(String name) {
        return delegate.definition(name);
    }

    @Override
    public BatchExecution submit(EventBatch batch) {
        BatchExecution execution = delegate.submit(batch);
        synchronized (submitted) {
            submitted.add(execution);
        }
        return execution;
    }

    /**
     * Waits until every batch submitted so far is quiescent (no handler running and none about to start).
     *
     * @return empty when all are; otherwise why not (the bound passed, or a quiescence future failed)
     */
    Optional<String> awaitQuiescence(Duration bound) throws InterruptedException {
        List<CompletableFuture<Void>> pending;
        synchronized (submitted) {
            pending = submitted.stream().map(BatchExecution::quiescence).toList();
        }
        try {
            CompletableFuture.allOf(pending.toArray(CompletableFuture[]::new)).get(bound.toNanos(),
                    TimeUnit.NANOSECONDS);
            return Optional.empty();
        } catch (TimeoutException e) {
            return Optional.of("a handler was still running " + bound.toMillis() + " ms after the turn ended "
                    + "(the kernel's quiescence did not complete); port calls and start orders were read anyway");
        } catch (ExecutionException e) {
            return Optional.of("the kernel's quiescence failed: " + e.getCause());
        }
    }

    @Override
    public void close() {
        delegate.close();
    }
}
