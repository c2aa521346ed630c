package io.agentlab.engine.expect;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.agentlab.kernel.api.InvocationMode;
import io.agentlab.runtime.StoredMessage;
import io.agentlab.runtime.TurnResult;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * One turn as it ran in one mode, as an expectation checks it: what the runtime returned and what the engine observed
 * around it. The engine's run of a turn ({@code internal.execution.TurnRun}) is one; the expectations see only this
 * view, so this package never depends on the package that runs cases, which reads the expectations
 * (docs/development.md#guards).
 */
@API(status = INTERNAL, since = "0.1")
public interface ObservedTurn {

    /** The runtime's result. */
    TurnResult result();

    /** The mode it ran in. */
    InvocationMode mode();

    /** Everything the user saw, in order (first answer, confirmations, follow-up). */
    String visibleText();

    /** The handler calls of one event. */
    List<HandlerCall> calls(String event);

    /** The most handlers that ran at once during the turn. */
    int maxConcurrency();

    /** Whether the session had ended after the turn. */
    boolean sessionEnded();

    /** The handler log's tick at which the first visible text reached the user ({@code -1}: none did). */
    long firstVisibleTick();

    /** The conversation's history view after the turn. */
    List<StoredMessage> history();

    /** How many messages that view had before the turn. */
    int historyBefore();

    /** Per event name, its plugin's port state after the turn (plugins that show one). */
    Map<String, Map<String, Object>> portStates();

    /** Unmatched provider requests during the turn (why a recording did not answer). */
    List<String> replayProblems();

    /** How the turn's AG-UI stream breaks the run's profile; empty when it holds. */
    List<String> auditViolations();

    /**
     * What the kit saw of a turn that ran over the wire beyond its rebuilt result (docs/wire.md#observability); empty
     * for a turn that ran in-process, where everything is seen.
     */
    default Optional<WireSight> wireSight() {
        return Optional.empty();
    }
}
