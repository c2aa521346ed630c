package io.agentlab.kernel.reference;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.agentlab.kernel.api.BatchExecution;
import io.agentlab.kernel.api.EventAgentFallback;
import io.agentlab.kernel.api.EventBatch;
import io.agentlab.kernel.api.EventDefinition;
import io.agentlab.kernel.api.EventKernel;
import io.agentlab.kernel.api.EventKernelFactory;
import io.agentlab.kernel.api.EventPlugin;
import io.agentlab.kernel.api.KernelLimits;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apiguardian.api.API;

/**
 * The reference {@link EventKernel}: a flat registry, the resolution pipeline, the shared batch executor and policy
 * aggregation, configured by a builder.
 *
 * <pre>{@code
 * try (ReferenceKernel kernel = ReferenceKernel.builder()
 *         .register(lampToggle, noteCreate)
 *         .limits(KernelLimits.defaults().withConcurrencyLimit(8))
 *         .build()) {
 *     BatchResult result = kernel.execute(batch);
 * }
 * }</pre>
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class ReferenceKernel implements EventKernel {

    private final EventRegistry registry;
    private final EventPreparer preparer;
    private final PolicyAggregator aggregator;
    private final KernelLimits limits;
    private final EventAgentFallback fallback;
    private final Duration fallbackTimeout;
    private final int fallbackHistoryMessages;
    private final KernelScheduler scheduler;
    private final ReplayGuard replayGuard;
    private final KernelExecutor executor;
    private final Set<BatchRun> live = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;

    private ReferenceKernel(Builder builder) {
        this.registry = EventRegistry.of(builder.definitions);
        this.preparer = new EventPreparer(registry);
        this.aggregator = new PolicyAggregator(builder.summaryLimitChars);
        this.limits = builder.limits;
        this.fallback = builder.fallback;
        this.fallbackTimeout = builder.fallbackTimeout;
        this.fallbackHistoryMessages = builder.fallbackHistoryMessages;
        this.executor = new KernelExecutor();
        this.scheduler = builder.scheduler == null ? new SharedTimer(executor) : builder.scheduler;
        this.replayGuard = new ReplayGuard(builder.replayCapacity);
    }

    /** Starts a kernel configuration. */
    public static Builder builder() {
        return new Builder();
    }

    /** The factory a turn runtime uses by default: a reference kernel built from the setup, other options default. */
    public static EventKernelFactory factory() {
        return setup -> builder().register(setup.definitions().toArray(EventDefinition[]::new))
                .limits(setup.limits()).fallback(setup.fallback()).fallbackTimeout(setup.fallbackTimeout()).build();
    }

    @Override
    public List<EventDefinition> definitions() {
        return registry.definitions();
    }

    @Override
    public Optional<EventDefinition> definition(String name) {
        return registry.lookup(name);
    }

    /** The registry (for protocols that build catalogs and tool schemas from it). */
    public EventRegistry registry() {
        return registry;
    }

    /** The limits in force. */
    public KernelLimits limits() {
        return limits;
    }

    @Override
    public BatchExecution submit(EventBatch batch) {
        Objects.requireNonNull(batch, "batch");
        if (closed) {
            throw new IllegalStateException("the kernel is closed");
        }
        BatchRun run = new BatchRun(this, batch);
        live.add(run);
        if (closed) {
            // close() sets closed before it copies live: it saw this run, or this sees closed (docs/kernel.md#threads)
            live.remove(run);
            throw new IllegalStateException("the kernel is closed");
        }
        return run.start();
    }

    /**
     * Cancels running batches and interrupts the kernel's running tasks; the threads, which every kernel of the process
     * shares, go back to the pool (docs/kernel.md#threads).
     */
    @Override
    public void close() {
        closed = true;
        new ArrayList<>(live).forEach(BatchRun::cancel);
        executor.shutdownNow();
    }

    // package-private collaborators for BatchRun
    EventPreparer preparer() {
        return preparer;
    }

    PolicyAggregator aggregator() {
        return aggregator;
    }

    EventAgentFallback fallback() {
        return fallback;
    }

    Duration fallbackTimeout() {
        return fallbackTimeout;
    }

    int fallbackHistoryMessages() {
        return fallbackHistoryMessages;
    }

    KernelScheduler scheduler() {
        return scheduler;
    }

    ReplayGuard replayGuard() {
        return replayGuard;
    }

    KernelExecutor executor() {
        return executor;
    }

    void forget(BatchRun run) {
        live.remove(run);
    }

    /**
     * The default clock and timer: the process's one timer thread (started by the first kernel that needs it), whose
     * tasks run on this kernel's threads rather than on the timer's. A timer task completes futures, and a caller's
     * continuation on one may run inline: on the shared thread it would hold up every other kernel's timers
     * (docs/kernel.md#threads). A task due after the kernel closed is dropped; one that no thread can be started for
     * runs on the timer thread, so its timeout still fires.
     */
    private record SharedTimer(KernelExecutor executor) implements KernelScheduler {

        private static final SystemKernelScheduler TIMER = new SystemKernelScheduler();

        @Override
        public long nanoTime() {
            return TIMER.nanoTime();
        }

        @Override
        public Cancellable schedule(Duration delay, Runnable task) {
            Objects.requireNonNull(task, "task");
            return TIMER.schedule(delay, () -> {
                try {
                    executor.execute(task);
                } catch (RuntimeException | Error e) {
                    // closed: the kernel closed before the task was due, nothing of it is waiting any more; else no
                    // thread could be started, and the timeout still fires, here
                    if (!executor.closed()) {
                        task.run();
                    }
                }
            });
        }
    }

    /** Kernel configuration with the documented defaults. */
    public static final class Builder {
        /** Default bound of the EventAgent fallback call. */
        public static final Duration DEFAULT_FALLBACK_TIMEOUT = Duration.ofSeconds(5);
        /** Default number of recent history messages the fallback sees. */
        public static final int DEFAULT_FALLBACK_HISTORY_MESSAGES = 4;
        /** Default number of executions remembered for replay protection. */
        public static final int DEFAULT_REPLAY_CAPACITY = 10_000;

        private final List<EventDefinition> definitions = new ArrayList<>();
        private KernelLimits limits = KernelLimits.defaults();
        private EventAgentFallback fallback = EventAgentFallback.unavailable();
        private Duration fallbackTimeout = DEFAULT_FALLBACK_TIMEOUT;
        private int fallbackHistoryMessages = DEFAULT_FALLBACK_HISTORY_MESSAGES;
        private KernelScheduler scheduler;
        private int replayCapacity = DEFAULT_REPLAY_CAPACITY;
        private int summaryLimitChars = PolicyAggregator.DEFAULT_SUMMARY_LIMIT_CHARS;

        private Builder() {
        }

        /** Registers definitions (order is catalog order). */
        public Builder register(EventDefinition... definitions) {
            this.definitions.addAll(List.of(definitions));
            return this;
        }

        /** Registers each plugin's definition. */
        public Builder register(EventPlugin... plugins) {
            for (EventPlugin plugin : plugins) {
                definitions.add(plugin.definition());
            }
            return this;
        }

        /** Registers each plugin's definition. */
        public Builder registerAll(Iterable<? extends EventPlugin> plugins) {
            plugins.forEach(plugin -> definitions.add(plugin.definition()));
            return this;
        }

        /** Concurrency limit and batch deadline; default 4 and 15 s. */
        public Builder limits(KernelLimits limits) {
            this.limits = Objects.requireNonNull(limits, "limits");
            return this;
        }

        /** The EventAgent fallback; default none (incomplete events need clarification). */
        public Builder fallback(EventAgentFallback fallback) {
            this.fallback = Objects.requireNonNull(fallback, "fallback");
            return this;
        }

        /** Bound of the fallback call; default 5 s. */
        public Builder fallbackTimeout(Duration timeout) {
            if (timeout.isZero() || timeout.isNegative()) {
                throw new IllegalArgumentException("fallbackTimeout must be positive, was " + timeout);
            }
            this.fallbackTimeout = timeout;
            return this;
        }

        /** How many recent visible messages the fallback sees; default 4. */
        public Builder fallbackHistoryMessages(int count) {
            if (count < 0) {
                throw new IllegalArgumentException("fallbackHistoryMessages must be >= 0, was " + count);
            }
            this.fallbackHistoryMessages = count;
            return this;
        }

        /**
         * The clock and timer; default the wall clock, on the timer thread every kernel of the process shares, with
         * the kernel's timer tasks run on its own task threads. Tests pass a {@code ManualKernelScheduler} (test
         * fixtures), whose tasks run where it runs them.
         */
        public Builder scheduler(KernelScheduler scheduler) {
            this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
            return this;
        }

        /** Executions remembered for replay protection; default 10,000. */
        public Builder replayCapacity(int capacity) {
            if (capacity < 1) {
                throw new IllegalArgumentException("replayCapacity must be >= 1, was " + capacity);
            }
            this.replayCapacity = capacity;
            return this;
        }

        /** Bound of the follow-up summary JSON; default 4,000 characters. */
        public Builder summaryLimitChars(int limit) {
            this.summaryLimitChars = limit;
            return this;
        }

        /**
         * The kernel.
         *
         * @throws RegistrationException for a duplicate name or an invalid schema
         */
        public ReferenceKernel build() {
            return new ReferenceKernel(this);
        }
    }
}
