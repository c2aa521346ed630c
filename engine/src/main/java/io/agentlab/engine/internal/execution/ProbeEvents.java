package io.agentlab.engine.internal.execution;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.agentlab.engine.internal.suite.Suite;
import io.agentlab.kernel.api.ConcurrencyClass;
import io.agentlab.kernel.api.EventDefinition;
import io.agentlab.kernel.api.HandlerResult;
import io.agentlab.kernel.api.Resolution;
import io.agentlab.kernel.api.RetryPolicy;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.apiguardian.api.API;

/**
 * Turns the probes a suite declares into event definitions: a handler that works for the declared latency, then
 * succeeds, fails (permanently or transiently), or hangs until the kernel interrupts it. Their arguments are whatever
 * was proposed (an object of any shape); in {@code dual_agent} they resolve to {@code {}}.
 */
@API(status = INTERNAL, since = "0.1")
public final class ProbeEvents {

    /** Released only when the run closes, so a hanging probe that is never interrupted still ends then. */
    private final CountDownLatch released = new CountDownLatch(1);

    /** The definition of {@code probe}. */
    public EventDefinition definition(Suite.Probe probe) {
        return EventDefinition.builder(probe.name()).schemaVersion("1.0.0")
                .description("Probe event declared by the suite (" + probe.outcome().name().toLowerCase(java.util.Locale.ROOT)
                        + (probe.latency().isZero() ? "" : ", " + probe.latency().toMillis() + " ms") + ").")
                .argumentsSchema("{\"type\":\"object\"}")
                .resolver(input -> Resolution.of(Map.of()))
                .handler(invocation -> {
                    if (!probe.latency().isZero()) {
                        // the declared work time of the handler under test, not a test waiting for something
                        Thread.sleep(probe.latency().toMillis());
                    }
                    return switch (probe.outcome()) {
                        case SUCCEED -> HandlerResult.success(Map.of("probe", probe.name()));
                        case FAIL -> new HandlerResult.Failure("probe_failed", probe.name() + " failed as declared", false);
                        case FAIL_TRANSIENT -> new HandlerResult.Failure("probe_unavailable",
                                probe.name() + " failed transiently as declared", true);
                        case HANG -> {
                            released.await();
                            throw new InterruptedException("released at close");
                        }
                    };
                })
                .resultPolicy(probe.policy())
                .confirmationTemplate((arguments, payload, locale) -> probe.name() + " done.")
                .timeout(probe.timeout())
                .concurrencyClass(probe.readOnly() ? ConcurrencyClass.READ_ONLY : ConcurrencyClass.SIDE_EFFECTING)
                // a read-only probe is retried once on a transient failure, as the kernel allows read-only events
                .retryPolicy(probe.readOnly() ? RetryPolicy.onceOnTransientFailure() : RetryPolicy.none())
                .conflictKeys(probe.conflictKeys().toArray(String[]::new))
                .terminal(probe.terminal())
                .build();
    }

    /** Releases every hanging probe. */
    public void release() {
        released.countDown();
    }
}
