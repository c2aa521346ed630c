package io.agentlab.engine.execution;

import io.agentlab.engine.metrics.TurnRecord;
import io.agentlab.engine.suite.Suite;
import io.agentlab.kernel.runtime.TurnResult;
import java.util.List;

/**
 * One turn as it ran in one mode: what the runtime returned and what the engine observed around it.
 *
 * @param index          the turn's position in the case
 * @param turn           the turn as the suite wrote it
 * @param result         the runtime's result
 * @param visibleText    everything the user saw, in order (first answer, confirmations, follow-up)
 * @param handlerCalls   the handler calls of this turn
 * @param maxConcurrency the most handlers that ran at once during the turn
 * @param sessionEnded   whether the session had ended after the turn
 * @param replayProblems unmatched provider requests during the turn (why a recording did not answer)
 * @param harnessProblems what kept the engine from observing the turn fully (a handler still running long after the
 *                        turn ended); each fails the turn
 * @param timing         where the turn's stream timing came from: a live provider, a recording of a real provider,
 *                       or the latency model (scripted turns, and recordings the synthesizer wrote)
 */
public record TurnRun(int index, Suite.Turn turn, TurnResult result, String visibleText,
                      List<HandlerLog.Call> handlerCalls, int maxConcurrency, boolean sessionEnded,
                      List<String> replayProblems, List<String> harnessProblems, TurnRecord.Timing timing) {

    /** Copies the lists. */
    public TurnRun {
        handlerCalls = List.copyOf(handlerCalls);
        replayProblems = List.copyOf(replayProblems);
        harnessProblems = List.copyOf(harnessProblems);
    }
}
