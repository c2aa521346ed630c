package io.agentlab.engine.internal.execution;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.agentlab.engine.internal.suite.Suite;
import io.agentlab.kernel.api.InvocationMode;
import java.util.List;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.IntFunction;
import org.apiguardian.api.API;

/**
 * A runtime over the wire that a case runs against instead of the in-process kernel (docs/wire.md); the engine's
 * {@code internal.wire} package implements it, so this package does not depend on that one.
 */
@API(status = INTERNAL, since = "0.1")
public interface RemoteRuntime {

    /**
     * Runs the case's turns against the runtime, in order, each read once it is over.
     *
     * @param log       the case's handler log: the port stand-ins record every port call into it
     * @param terminal  the names of the case's terminal events
     * @param turnCalls each turn's provider calls, by the turn's index
     * @param stopped   whether the run was cancelled or stopped (checked before each turn)
     */
    List<TurnRun> run(Suite suite, Suite.Case testCase, InvocationMode mode, HandlerLog log, Set<String> terminal,
                      IntFunction<ProviderSource.TurnCalls> turnCalls, BooleanSupplier stopped);
}
