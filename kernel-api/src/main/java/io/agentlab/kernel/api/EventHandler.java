package io.agentlab.kernel.api;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * Executes a validated event by calling a port. Runs on a kernel thread under the event's timeout; it must respond to
 * interruption (a timed-out or cancelled handler is interrupted) and should pass the idempotency key to its port.
 */
@API(status = EXPERIMENTAL, since = "0.1")
@FunctionalInterface
public interface EventHandler {

    /**
     * Executes the event.
     *
     * @throws Exception any failure; the kernel records it as a permanent {@link HandlerResult.Failure}, except
     *                   {@link InterruptedException}, which is cancellation and never an ordinary failure
     */
    HandlerResult handle(EventInvocation invocation) throws Exception;
}
