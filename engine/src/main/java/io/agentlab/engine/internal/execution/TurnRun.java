package io.agentlab.engine.internal.execution;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.agentlab.engine.expect.HandlerCall;
import io.agentlab.engine.expect.ObservedTurn;
import io.agentlab.engine.expect.WireSight;
import io.agentlab.report.metrics.TurnRecord;
import io.agentlab.engine.internal.suite.Suite;
import io.agentlab.kernel.api.InvocationMode;
import io.agentlab.runtime.StoredMessage;
import io.agentlab.runtime.TurnResult;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * One turn as it ran in one mode: what the runtime returned and what the engine observed around it.
 *
 * @param index            the turn's position in the case
 * @param turn             the turn as the suite wrote it
 * @param result           the runtime's result
 * @param visibleText      everything the user saw, in order (first answer, confirmations, follow-up)
 * @param handlerCalls     the handler calls of this turn
 * @param maxConcurrency   the most handlers that ran at once during the turn
 * @param sessionEnded     whether the session had ended after the turn
 * @param firstVisibleTick the handler log's tick at which the first visible text reached the user ({@code -1}:
 *                         none did), comparable with the handler calls' ticks
 * @param history          the conversation's history view after the turn (what a history replay shows)
 * @param historyBefore    how many messages that view had before the turn
 * @param portStates       per event name, its plugin's port state after the turn (plugins that show one)
 * @param replayProblems   unmatched provider requests during the turn (why a recording did not answer)
 * @param harnessProblems  what kept the engine from observing the turn fully (a handler still running long after the
 *                         turn ended); each fails the turn
 * @param auditViolations  how the turn's AG-UI stream, as SSE frames, breaks the run's profile, checked as one
 *                         thread with the case's earlier turns (ids across turns); empty when it holds
 * @param timing           where the turn's stream timing came from: a live provider, a recording of a real provider,
 *                         or the latency model (scripted turns, and recordings the synthesizer wrote)
 * @param historyProblems  how the conversation's history broke during the turn (an earlier message changed, or a turn
 *                         whose first call failed stored something), as {@code docs/design.md#modes-same-history}
 *                         forbids
 * @param wireSight        over the wire, what the kit saw beyond the rebuilt result (docs/wire.md#observability);
 *                         empty in-process
 */
@API(status = INTERNAL, since = "0.1")
public record TurnRun(int index, Suite.Turn turn, TurnResult result, String visibleText,
                      List<HandlerCall> handlerCalls, int maxConcurrency, boolean sessionEnded,
                      long firstVisibleTick, List<StoredMessage> history, int historyBefore,
                      Map<String, Map<String, Object>> portStates, List<String> replayProblems,
                      List<String> harnessProblems, List<String> auditViolations,
                      TurnRecord.Timing timing, List<String> historyProblems, Optional<WireSight> wireSight)
        implements ObservedTurn {

    /** Copies the collections. */
    public TurnRun {
        handlerCalls = List.copyOf(handlerCalls);
        history = List.copyOf(history);
        portStates = Map.copyOf(portStates);
        replayProblems = List.copyOf(replayProblems);
        harnessProblems = List.copyOf(harnessProblems);
        historyProblems = List.copyOf(historyProblems);
        auditViolations = List.copyOf(auditViolations);
    }

    /** The mode it ran in. */
    @Override
    public InvocationMode mode() {
        return result.metrics().mode();
    }

    /** The handler calls of one event. */
    @Override
    public List<HandlerCall> calls(String event) {
        return handlerCalls.stream().filter(call -> call.name().equals(event)).toList();
    }
}
