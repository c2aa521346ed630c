package io.agentlab.kernel.reference;

import io.agentlab.kernel.api.BatchExecution;
import io.agentlab.kernel.api.BatchResult;
import io.agentlab.kernel.api.ContinuationDecision;
import io.agentlab.kernel.api.EventBatch;
import io.agentlab.kernel.api.EventDefinition;
import io.agentlab.kernel.api.EventInvocation;
import io.agentlab.kernel.api.EventOutcome;
import io.agentlab.kernel.api.EventOutcome.Deduplicated;
import io.agentlab.kernel.api.EventOutcome.Failed;
import io.agentlab.kernel.api.EventOutcome.NeedsClarification;
import io.agentlab.kernel.api.EventOutcome.RejectionReason;
import io.agentlab.kernel.api.EventOutcome.Rejected;
import io.agentlab.kernel.api.EventOutcome.Replayed;
import io.agentlab.kernel.api.EventOutcome.Succeeded;
import io.agentlab.kernel.api.EventOutcome.TimeoutScope;
import io.agentlab.kernel.api.EventOutcome.TimedOut;
import io.agentlab.kernel.api.EventRequest;
import io.agentlab.kernel.api.EventResult;
import io.agentlab.kernel.api.EventTimings;
import io.agentlab.kernel.api.FallbackRequest;
import io.agentlab.kernel.api.HandlerResult;
import io.agentlab.kernel.api.ResolutionReport;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One batch through the shared executor ({@code docs/design.md#batch-shared-executor}). Events are resolved in input
 * order (fallbacks concurrently), then classified in a deterministic way (settled, duplicate of the earliest equal
 * event, replay, or executable), then dispatched under the concurrency limit and its conflict keys; terminal events
 * wait until every non-terminal sibling has settled. A slot (permit and conflict keys) is released only when the
 * handler has actually returned, so a timed-out handler that is still unwinding never overlaps a successor.
 */
final class BatchRun implements BatchExecution {

    /** The question when two same-name requests came out equal and the kernel cannot tell whether they are one. */
    static final String TWO_REQUESTS_QUESTION = "Two of your requests came out exactly the same — did you want it "
            + "once, or twice with different details?";

    private static final long UNSET = Long.MIN_VALUE;

    private final ReferenceKernel kernel;
    private final EventBatch batch;
    private final long startNanos;
    private final List<EventRun> runs;
    private final ResultFuture result = new ResultFuture();
    private final CompletableFuture<Void> quiescence;

    private final Object lock = new Object();
    private final TreeMap<Integer, EventRun> pending = new TreeMap<>();
    private final Set<String> heldKeys = new HashSet<>();
    private int running;
    private boolean closed;
    private boolean cancelled;
    private volatile KernelScheduler.Cancellable deadlineTimer = () -> { };
    private final TaskHandle resolverHandle = new TaskHandle();
    /** The thread resolving this batch, while it does; only it reads or writes {@link #held}. */
    private volatile Thread resolver;
    private EventRun held;
    /** The earliest ready event per name and canonical arguments (what a later equal event duplicates). */
    private final Map<String, EventRun> firstReady = new ConcurrentHashMap<>();
    private final CompletableFuture<Void> resolverDone = new CompletableFuture<>();

    BatchRun(ReferenceKernel kernel, EventBatch batch) {
        this.kernel = kernel;
        this.batch = batch;
        this.startNanos = kernel.scheduler().nanoTime();
        List<EventRun> list = new ArrayList<>();
        Map<String, Integer> ofName = new HashMap<>();
        for (EventRequest request : batch.requests()) {
            EventRun run = new EventRun(request, kernel.registry().lookup(request.name()).orElse(null));
            run.occurrence = ofName.merge(request.name(), 1, Integer::sum) - 1;
            list.add(run);
        }
        list.forEach(run -> run.occurrences = ofName.get(run.request.name()));
        this.runs = Collections.unmodifiableList(list);
        List<CompletableFuture<?>> quiet = new ArrayList<>();
        runs.forEach(run -> {
            quiet.add(run.settled);
            quiet.add(run.prepDone);
        });
        quiet.add(resolverDone);
        this.quiescence = CompletableFuture.allOf(quiet.toArray(CompletableFuture[]::new));
    }

    BatchRun start() {
        result.whenComplete((value, error) -> {
            if (result.isCancelled()) {
                cancel(); // a caller cancelling the future cancels the batch
            }
        });
        if (runs.size() > kernel.limits().maxBatchSize()) {
            return refuseWhole();
        }
        deadlineTimer = kernel.scheduler().schedule(kernel.limits().batchDeadline(), this::onDeadline);
        boolean cancelledMeanwhile;
        synchronized (lock) {
            cancelledMeanwhile = cancelled;
        }
        if (cancelledMeanwhile) {
            deadlineTimer.cancel(); // cancelled before the timer was armed: it must not outlive the batch
        }
        CompletableFuture<Void> nonTerminalSettled = CompletableFuture.allOf(runs.stream()
                .filter(run -> !run.terminal).map(run -> run.settled).toArray(CompletableFuture[]::new));
        Map<String, EventRun> previousOfName = new HashMap<>();
        for (EventRun run : runs) {
            // Only an earlier event of the same name can be this one's duplicate. Events of one name are classified
            // one after the other (each waits for the previous one's classification), so the earliest of equal
            // events is always the one found in firstReady: linear in the batch size, whatever the names.
            EventRun previous = previousOfName.put(run.request.name(), run);
            CompletableFuture<?> before = previous == null ? CompletableFuture.completedFuture(null)
                    : previous.classified;
            CompletableFuture.allOf(before, run.prepared).whenComplete((ignored, error) -> {
                try {
                    if (!run.prepared.isCompletedExceptionally()) {
                        classify(run, nonTerminalSettled);
                    }
                } finally {
                    run.classified.complete(null);
                }
            });
        }
        // finish() runs on whichever thread completed the last result: aggregation takes microseconds, and another
        // hand-off would cost more than it (docs/performance.md#kernel-overhead)
        CompletableFuture.allOf(runs.stream().map(run -> run.result).toArray(CompletableFuture[]::new))
                .whenComplete((ignored, error) -> {
                    if (error == null) {
                        finish();
                    }
                });
        try {
            result.hot = kernel.executor().execute(this::resolveInOrder);
        } catch (RejectedExecutionException closed) {
            cancel(); // the kernel closed since submit looked: the caller hears it as submit says
            throw new IllegalStateException("the kernel is closed", closed);
        } catch (RuntimeException | Error e) {
            cancel(); // no thread to resolve on: nothing of the batch may stay armed
            throw e;
        }
        return this;
    }

    /**
     * A batch over the size limit: every event is rejected at once, nothing is resolved or executed, and the caller
     * is never blocked by its size (docs/limits-and-safety.md#kernel).
     */
    private BatchRun refuseWhole() {
        String message = "the batch has " + runs.size() + " events; at most " + kernel.limits().maxBatchSize()
                + " are accepted per batch (KernelLimits.maxBatchSize), so none was executed";
        for (EventRun run : runs) {
            complete(run, new Rejected(RejectionReason.BATCH_TOO_LARGE, message, List.of()));
            run.prepDone.complete(null);
            run.settled.complete(null);
        }
        resolverDone.complete(null);
        finish();
        return this;
    }

    @Override
    public CompletableFuture<BatchResult> result() {
        return result;
    }

    @Override
    public CompletableFuture<Void> quiescence() {
        return quiescence;
    }

    @Override
    public void cancel() {
        List<EventRun> neverStarted;
        synchronized (lock) {
            if (cancelled) {
                return;
            }
            cancelled = true;
            closed = true;
            pending.clear();
            neverStarted = runs.stream().filter(run -> !run.started).toList();
        }
        deadlineTimer.cancel();
        resolverHandle.cancel();
        CancellationException cancellation = new CancellationException("batch of turn " + batch.turn().scope()
                + " was cancelled");
        for (EventRun run : runs) {
            // Results first, so a handler returning right now cannot record anything.
            run.result.completeExceptionally(cancellation);
            run.prepHandle.cancel();
            run.handlerHandle.cancel();
            run.cancelTimeout();
        }
        neverStarted.forEach(run -> run.settled.complete(null));
        result.completeExceptionally(cancellation);
        kernel.forget(this);
    }

    // ---------------------------------------------------------------- resolution

    /**
     * Deterministic resolution runs on one task in input order, so events that need no fallback are classified, and
     * therefore dispatched, in input order: with a concurrency limit, execution order is reproducible. Resolvers are
     * contractually fast and total; only the EventAgent fallback is slow, and it runs on a task of its own.
     */
    private void resolveInOrder() {
        boolean begun = resolverHandle.begin();
        resolver = Thread.currentThread();
        EventRun inline = null;
        try {
            for (EventRun run : begun ? runs : List.<EventRun>of()) {
                if (isClosed() || Thread.currentThread().isInterrupted()) {
                    break;
                }
                run.prepStart = now();
                Preparation preparation = kernel.preparer().prepare(run.request, batch.turn(), run.occurrence,
                        run.occurrences);
                if (preparation instanceof Preparation.NeedsFallback needsFallback) {
                    run.fallbackPending = true; // the fallback task now owns prepDone
                    kernel.executor().execute(() -> fallback(run, needsFallback));
                } else {
                    run.prepEnd = now();
                    run.prepDone.complete(null);
                    run.prepared.complete(preparation);
                }
            }
        } finally {
            inline = held;
            held = null;
            resolver = null;
            if (begun) {
                resolverHandle.end();
            }
            resolverDone.complete(null);
            runs.forEach(run -> {
                if (!run.fallbackPending) {
                    run.prepDone.complete(null); // done, or never reached because the batch closed first
                }
            });
        }
        if (inline != null) {
            runHandler(inline); // this thread has nothing else to do: one hand-off fewer than a pooled start
        }
    }

    /** The single bounded EventAgent call; its timeout interrupts only this call. */
    private void fallback(EventRun run, Preparation.NeedsFallback pending) {
        if (!run.prepHandle.begin()) {
            run.prepDone.complete(null);
            return;
        }
        EventDefinition definition = pending.definition();
        FallbackRequest request = new FallbackRequest(run.request.eventId(), definition.name(),
                definition.argumentsSchema(), pending.arguments(), pending.missing(), batch.turn().userText(),
                batch.turn().recentHistory(kernel.fallbackHistoryMessages()), batch.turn());
        AtomicBoolean expired = new AtomicBoolean();
        KernelScheduler.Cancellable timer = kernel.scheduler().schedule(kernel.fallbackTimeout(), () -> {
            expired.set(true);
            run.prepHandle.cancel();
        });
        Map<String, Object> proposal = null;
        Throwable failure = null;
        try {
            proposal = kernel.fallback().complete(request);
        } catch (Exception e) {
            failure = e;
        } finally {
            timer.cancel();
            run.prepHandle.end();
        }
        try {
            if (expired.get()) {
                failure = new TimeoutException("EventAgent fallback exceeded " + kernel.fallbackTimeout());
            } else if (isClosed()) {
                run.prepared.completeExceptionally(new CancellationException("batch closed during the fallback"));
                return;
            }
            Preparation preparation = kernel.preparer().afterFallback(pending, proposal, failure);
            run.prepEnd = now();
            run.prepared.complete(preparation);
        } finally {
            run.prepDone.complete(null);
        }
    }

    // ---------------------------------------------------------------- classification

    private void classify(EventRun run, CompletableFuture<Void> nonTerminalSettled) {
        Preparation preparation = run.prepared.join();
        run.preparation = preparation;
        if (preparation instanceof Preparation.Settled settled) {
            complete(run, settled.outcome());
            run.settled.complete(null);
            return;
        }
        Preparation.Ready ready = (Preparation.Ready) preparation;
        EventRun earlier = firstReady.putIfAbsent(ready.definition().name() + '\u0000' + ready.canonicalArguments(),
                run);
        if (earlier != null) {
            if (!sameRequest((Preparation.Ready) earlier.preparation, ready)) {
                // Equal arguments from requests the kernel cannot tell are one: executing both could duplicate a
                // side effect, dropping one could lose a request. Ask (docs/design.md#batch-duplicates-coalesced).
                complete(run, new NeedsClarification(TWO_REQUESTS_QUESTION, Set.of()));
                run.settled.complete(null);
                return;
            }
            earlier.result.whenComplete((primary, error) -> {
                if (primary != null) {
                    complete(run, new Deduplicated(earlier.request.eventId(), primary.outcome()));
                }
            });
            earlier.settled.whenComplete((ignored, error) -> run.settled.complete(null));
            return;
        }
        claimAndSchedule(run, ready, nonTerminalSettled);
    }

    /**
     * Two same-name events with equal normalized arguments are one request when both come from the same known source
     * (the same clause of the user's words, or the same model proposal), or when there are no arguments at all to
     * tell them apart by.
     */
    private static boolean sameRequest(Preparation.Ready earlier, Preparation.Ready later) {
        return later.arguments().isEmpty() || earlier.source().isPresent() && earlier.source().equals(later.source());
    }

    private void claimAndSchedule(EventRun run, Preparation.Ready ready, CompletableFuture<Void> nonTerminalSettled) {
        ReplayGuard.Key key = new ReplayGuard.Key(batch.turn().scope(), run.request.eventId(),
                ready.definition().name(), ready.canonicalArguments());
        CompletableFuture<EventResult> original = kernel.replayGuard().claim(key, run.result);
        if (original != null) {
            original.whenComplete((earlier, error) -> {
                if (earlier != null) {
                    complete(run, new Replayed(earlier.outcome()));
                    run.settled.complete(null);
                } else if (!isClosed()) {
                    claimAndSchedule(run, ready, nonTerminalSettled); // the original was cancelled: run it here
                }
            });
            return;
        }
        run.result.whenComplete((value, error) -> {
            if (error != null || value.outcome() instanceof TimedOut timedOut && !timedOut.started()) {
                kernel.replayGuard().release(key, run.result);
            }
        });
        try {
            run.conflictKeys = Set.copyOf(ready.definition().conflictKeys().keysFor(ready.arguments()));
            run.idempotencyKey = ready.definition().idempotencyKeys().derive(batch.turn().scope(),
                    run.request.eventId(), ready.definition().name(), ready.canonicalArguments());
        } catch (RuntimeException e) {
            complete(run, new Rejected(RejectionReason.RESOLUTION_ERROR, ready.definition().name()
                    + ": conflict-key or idempotency-key derivation threw " + e, List.of()));
            run.settled.complete(null);
            return;
        }
        if (run.terminal) {
            nonTerminalSettled.whenComplete((ignored, error) -> enqueue(run));
        } else {
            enqueue(run);
        }
    }

    // ---------------------------------------------------------------- dispatch

    private void enqueue(EventRun run) {
        List<EventRun> toStart;
        boolean rejected;
        synchronized (lock) {
            rejected = closed;
            if (rejected) {
                toStart = List.of();
            } else {
                pending.put(run.index, run);
                toStart = drainLocked();
            }
        }
        if (rejected) {
            run.settled.complete(null); // the deadline or cancellation already decided its result
        }
        toStart.forEach(this::startHandler);
    }

    /** Starts, in input order, every pending event whose conflict keys are free, up to the concurrency limit. */
    private List<EventRun> drainLocked() {
        List<EventRun> toStart = new ArrayList<>();
        Iterator<EventRun> iterator = pending.values().iterator();
        while (iterator.hasNext() && running < kernel.limits().concurrencyLimit()) {
            EventRun run = iterator.next();
            if (Collections.disjoint(run.conflictKeys, heldKeys)) {
                iterator.remove();
                running++;
                heldKeys.addAll(run.conflictKeys);
                run.started = true;
                toStart.add(run);
            }
        }
        return toStart;
    }

    private void release(EventRun run) {
        List<EventRun> toStart;
        synchronized (lock) {
            running--;
            heldKeys.removeAll(run.conflictKeys);
            toStart = closed ? List.of() : drainLocked();
        }
        toStart.forEach(this::startHandler);
    }

    /**
     * Starts a handler on a pooled thread; while resolution is still running, the latest start is held back instead
     * and run on the resolution thread once resolution is done (a single-event batch then needs no hand-off at all
     * between resolving and executing). At most one start is ever held, for no longer than the rest of resolution.
     */
    private void startHandler(EventRun run) {
        run.dispatchAt = now();
        if (Thread.currentThread() == resolver) {
            EventRun previous = held;
            held = run;
            if (previous != null) {
                kernel.executor().execute(() -> runHandler(previous));
            }
            return;
        }
        kernel.executor().execute(() -> runHandler(run));
    }

    private void runHandler(EventRun run) {
        if (!run.handlerHandle.begin()) {
            release(run);
            run.settled.complete(null);
            return;
        }
        // The timeout bounds the handler's own run: it starts when this thread does, not when the event was queued
        // for a thread, so a busy machine cannot time an event out before its handler ever ran. Set before the
        // handler is called, so under a virtual clock the timer exists once the handler is observed running.
        try {
            run.timeout = kernel.scheduler().schedule(run.definition.timeout(), () -> onEventTimeout(run));
            complete(run, invoke(run));
        } catch (InterruptedException e) {
            if (!run.result.isDone()) {
                // Nobody in this batch interrupted it: cancellation from outside propagates, never a failure.
                kernel.executor().execute(this::cancel);
            }
        } finally {
            run.execEnd = now();
            run.cancelTimeout();
            run.handlerHandle.end();
            release(run);
            run.settled.complete(null);
        }
    }

    private EventOutcome invoke(EventRun run) throws InterruptedException {
        Preparation.Ready ready = (Preparation.Ready) run.preparation;
        EventDefinition definition = ready.definition();
        int retries = definition.retryPolicy().retriesOnTransientFailure();
        for (int attempt = 1; ; attempt++) {
            // A handler that began is always called once (an expired timeout interrupts it at its first wait);
            // only a retry is skipped once the event was interrupted.
            if (attempt > 1 && Thread.currentThread().isInterrupted()) {
                throw new InterruptedException();
            }
            HandlerResult outcome;
            try {
                outcome = definition.handler().handle(new EventInvocation(run.request.eventId(), definition.name(),
                        ready.arguments(), run.idempotencyKey, batch.turn(), attempt));
                if (outcome == null) {
                    outcome = HandlerResult.failure("handler_contract", "the handler returned null");
                }
            } catch (InterruptedException e) {
                throw e;
            } catch (CancellationException e) {
                throw (InterruptedException) new InterruptedException("handler cancelled").initCause(e);
            } catch (Exception e) {
                if (Thread.currentThread().isInterrupted() || run.result.isDone()) {
                    throw new InterruptedException("handler interrupted: " + e);
                }
                outcome = HandlerResult.failure("handler_exception", e.toString());
            } catch (VirtualMachineError e) {
                throw e;
            } catch (Error e) {
                outcome = HandlerResult.failure("handler_error", e.toString());
            }
            if (outcome instanceof HandlerResult.Success success) {
                return new Succeeded(success.payload(), attempt);
            }
            HandlerResult.Failure failure = (HandlerResult.Failure) outcome;
            if (!(failure.transientFailure() && attempt <= retries)) {
                return new Failed(failure.code(), failure.message(), failure.transientFailure(), attempt);
            }
        }
    }

    // ---------------------------------------------------------------- time limits

    private void onEventTimeout(EventRun run) {
        if (complete(run, new TimedOut(run.definition.timeout(), TimeoutScope.EVENT, true))) {
            run.handlerHandle.cancel();
        }
    }

    private void onDeadline() {
        List<EventRun> neverStarted;
        synchronized (lock) {
            if (closed) {
                return;
            }
            closed = true;
            pending.clear();
            neverStarted = runs.stream().filter(run -> !run.started).toList();
        }
        resolverHandle.cancel();
        Duration deadline = kernel.limits().batchDeadline();
        for (EventRun run : runs) {
            complete(run, new TimedOut(deadline, TimeoutScope.BATCH, run.started));
            run.prepHandle.cancel();
            run.handlerHandle.cancel();
        }
        neverStarted.forEach(run -> run.settled.complete(null));
    }

    // ---------------------------------------------------------------- completion

    /** Records the event's result unless one is already recorded. Returns whether this call recorded it. */
    private boolean complete(EventRun run, EventOutcome outcome) {
        if (run.result.isDone()) {
            return false;
        }
        long end = now();
        Preparation preparation = run.preparation;
        Map<String, Object> arguments = preparation == null ? run.request.proposedArguments() : preparation.arguments();
        ResolutionReport report = ResolutionReport.notAttempted();
        if (preparation instanceof Preparation.Ready ready) {
            report = ready.report();
        } else if (preparation instanceof Preparation.Settled settled) {
            report = settled.report();
        }
        long prepStart = run.prepStart;
        long prepEnd = run.prepEnd;
        Duration resolution = prepStart == UNSET ? Duration.ZERO
                : Duration.ofNanos((prepEnd == UNSET ? end : prepEnd) - prepStart);
        long dispatchAt = run.dispatchAt;
        long execEnd = run.execEnd;
        Optional<Duration> dispatch = dispatchAt == UNSET ? Optional.empty()
                : Optional.of(Duration.ofNanos(dispatchAt - startNanos));
        Optional<Duration> execution = dispatchAt == UNSET ? Optional.empty()
                : Optional.of(Duration.ofNanos((execEnd == UNSET ? end : execEnd) - dispatchAt));
        EventTimings timings = new EventTimings(resolution, dispatch, execution, Duration.ofNanos(end - startNanos));
        return run.result.complete(new EventResult(run.request.eventId(), run.request.name(), run.index, arguments,
                report, timings, outcome));
    }

    private void finish() {
        deadlineTimer.cancel();
        try {
            List<EventResult> ordered = runs.stream().map(run -> run.result.join()).toList();
            ContinuationDecision decision = kernel.aggregator().decide(ordered, kernel.registry()::lookup,
                    batch.turn().locale());
            result.complete(new BatchResult(ordered, decision, Duration.ofNanos(now() - startNanos)));
        } catch (RuntimeException e) {
            result.completeExceptionally(e);
        } finally {
            kernel.forget(this);
        }
    }

    private boolean isClosed() {
        synchronized (lock) {
            return closed;
        }
    }

    private long now() {
        return kernel.scheduler().nanoTime();
    }

    /** The mutable state of one event in this batch. */
    private static final class EventRun {
        final EventRequest request;
        final int index;
        final EventDefinition definition;
        final boolean terminal;
        final CompletableFuture<Preparation> prepared = new CompletableFuture<>();
        final CompletableFuture<EventResult> result = new CompletableFuture<>();
        /** No handler of this event is running, and none will start. */
        final CompletableFuture<Void> settled = new CompletableFuture<>();
        final CompletableFuture<Void> prepDone = new CompletableFuture<>();
        /** This event was classified (or can never be): the next event of its name may be. */
        final CompletableFuture<Void> classified = new CompletableFuture<>();
        final TaskHandle prepHandle = new TaskHandle();
        final TaskHandle handlerHandle = new TaskHandle();
        volatile Preparation preparation;
        volatile boolean fallbackPending;
        /** Its place among the batch's requests of the same name, and their count (set before the batch starts). */
        int occurrence;
        int occurrences = 1;
        volatile Set<String> conflictKeys = Set.of();
        volatile String idempotencyKey;
        volatile boolean started; // written under the batch lock
        volatile long prepStart = UNSET;
        volatile long prepEnd = UNSET;
        volatile long dispatchAt = UNSET;
        volatile long execEnd = UNSET;
        volatile KernelScheduler.Cancellable timeout;

        EventRun(EventRequest request, EventDefinition definition) {
            this.request = request;
            this.index = request.orderIndex();
            this.definition = definition;
            this.terminal = definition != null && definition.terminal();
        }

        void cancelTimeout() {
            KernelScheduler.Cancellable current = timeout;
            if (current != null) {
                current.cancel();
            }
        }
    }

    /**
     * A batch's result; a caller waiting for it looks briefly before it parks when the batch was taken by a running
     * thread (KernelExecutor#awaitBriefly), and parks at once when a thread had to be woken for it.
     */
    private static final class ResultFuture extends CompletableFuture<BatchResult> {
        volatile boolean hot;

        private void awaitIfHot() {
            if (hot) {
                KernelExecutor.awaitBriefly(this);
            }
        }

        @Override
        public BatchResult get() throws InterruptedException, ExecutionException {
            awaitIfHot();
            return super.get();
        }

        @Override
        public BatchResult get(long timeout, TimeUnit unit)
                throws InterruptedException, ExecutionException, TimeoutException {
            awaitIfHot();
            return super.get(timeout, unit);
        }

        @Override
        public BatchResult join() {
            awaitIfHot();
            return super.join();
        }
    }
}
