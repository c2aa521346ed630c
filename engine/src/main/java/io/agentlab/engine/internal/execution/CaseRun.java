package io.agentlab.engine.internal.execution;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.agentlab.engine.internal.suite.Suite;
import io.agentlab.kernel.api.InvocationMode;
import java.util.List;
import org.apiguardian.api.API;

/**
 * A case as it ran in one mode.
 *
 * @param suite     the suite
 * @param testCase  the case
 * @param mode      the mode
 * @param turns     the turns that ran, in order
 * @param cancelled whether execution was cancelled before every turn ran
 * @param terminalEvents the names of the terminal events the case's kernel knew
 */
@API(status = INTERNAL, since = "0.1")
public record CaseRun(Suite suite, Suite.Case testCase, InvocationMode mode, List<TurnRun> turns, boolean cancelled,
                      java.util.Set<String> terminalEvents) {

    /** Copies the turns. */
    public CaseRun {
        turns = List.copyOf(turns);
        terminalEvents = java.util.Set.copyOf(terminalEvents);
    }
}
