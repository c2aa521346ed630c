package io.agentlab.engine.internal.execution;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.agentlab.engine.internal.suite.Suite;
import io.agentlab.kernel.api.ConcurrencyClass;
import io.agentlab.kernel.api.ConflictKeys;
import io.agentlab.kernel.api.EventDefinition;
import io.agentlab.kernel.api.HandlerResult;
import io.agentlab.kernel.api.Resolution;
import io.agentlab.kernel.api.RetryPolicy;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apiguardian.api.API;

/**
 * Turns the probes a suite declares into event definitions: a handler that works for the declared latency, then
 * succeeds, fails (permanently or transiently), throws, or hangs until the kernel interrupts it. Their arguments are
 * whatever was proposed (an object of any shape) over what their resolver returns: nothing, or the fixed arguments the
 * probe declares ({@code resolves}), with no source. A conflict key may name an argument, {@code device:{device}},
 * read from the event's final arguments; a key naming an argument the event lacks is not held. A handler may first
 * wait for other probes' handlers to start ({@code awaits}): an overlap the design guarantees is then observed
 * whatever the machine's load, with no latency to race.
 */
@API(status = INTERNAL, since = "0.1")
public final class ProbeEvents {

    /** Released only when the run closes, so a hanging probe that is never interrupted still ends then. */
    private final CountDownLatch released = new CountDownLatch(1);
    /** Per probe name, counted down when a handler of that probe starts (released at close too). */
    private final Map<String, CountDownLatch> started = new ConcurrentHashMap<>();

    /** The definition of {@code probe}. */
    public EventDefinition definition(Suite.Probe probe) {
        Suite.ProbeTraits traits = probe.traits();
        CountDownLatch ownStart = startOf(probe.name());
        return EventDefinition.builder(probe.name()).schemaVersion("1.0.0")
                .description("Probe event declared by the suite (" + probe.outcome().name().toLowerCase(java.util.Locale.ROOT)
                        + (probe.latency().isZero() ? "" : ", " + probe.latency().toMillis() + " ms") + ").")
                .argumentsSchema("{\"type\":\"object\"}")
                // fixed arguments and no source: the kernel cannot tell two such requests are one
                // (docs/design.md#batch-duplicates-coalesced)
                .resolver(input -> Resolution.of(traits.resolves()))
                .requiredFields(traits.requiredFields().toArray(String[]::new))
                .fallbackAllowed(traits.fallback())
                .failureVisibleToChatAgent(traits.failureVisible())
                .handler(invocation -> {
                    ownStart.countDown();
                    // the handler under test waits for the others' starts, not the test for the handler
                    long deadline = System.nanoTime() + traits.awaitsAtMost().map(Duration::toNanos).orElse(0L);
                    for (String other : traits.awaits()) {
                        if (traits.awaitsAtMost().isEmpty()) {
                            startOf(other).await();
                        } else if (!startOf(other).await(deadline - System.nanoTime(), TimeUnit.NANOSECONDS)) {
                            break; // waited long enough: go on
                        }
                    }
                    if (!probe.latency().isZero()) {
                        // the declared work time of the handler under test, not a test waiting for something
                        Thread.sleep(probe.latency().toMillis());
                    }
                    return switch (probe.outcome()) {
                        case SUCCEED -> HandlerResult.success(Map.of("probe", probe.name()));
                        case FAIL -> new HandlerResult.Failure("probe_failed", probe.name() + " failed as declared", false);
                        case FAIL_TRANSIENT -> new HandlerResult.Failure("probe_unavailable",
                                probe.name() + " failed transiently as declared", true);
                        case THROW -> throw new IllegalStateException(probe.name() + " threw as declared");
                        case HANG -> {
                            released.await();
                            throw new InterruptedException("released at close");
                        }
                    };
                })
                .resultPolicy(probe.policy())
                .confirmationTemplate((arguments, payload, locale) ->
                        traits.confirmation().orElse(probe.name() + " done."))
                .timeout(probe.timeout())
                .concurrencyClass(probe.readOnly() ? ConcurrencyClass.READ_ONLY : ConcurrencyClass.SIDE_EFFECTING)
                // a read-only probe is retried once on a transient failure, as the kernel allows read-only events
                .retryPolicy(probe.readOnly() ? RetryPolicy.onceOnTransientFailure() : RetryPolicy.none())
                .conflictKeys(conflictKeys(probe.conflictKeys()))
                .terminal(probe.terminal())
                .build();
    }

    /**
     * The keys of {@code declared} for the event's final arguments ({@code docs/design.md#batch-conflict-keys}): each
     * {@code {name}} is replaced by that argument's value; a key naming an argument the event lacks is not held.
     */
    static ConflictKeys conflictKeys(List<String> declared) {
        return ConflictKeys.templated(declared);
    }

    private CountDownLatch startOf(String name) {
        return started.computeIfAbsent(name, ignored -> new CountDownLatch(1));
    }

    /** Releases every hanging probe, and every probe still awaiting another's start. */
    public void release() {
        released.countDown();
        started.values().forEach(CountDownLatch::countDown);
    }
}
