package io.agentlab.engine.internal.execution;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.agentlab.engine.expect.HandlerCall;
import io.agentlab.kernel.api.BatchResult;
import io.agentlab.kernel.api.CanonicalJson;
import io.agentlab.kernel.api.EventOutcome;
import io.agentlab.kernel.api.EventResult;
import io.agentlab.kernel.api.InvocationMode;
import io.agentlab.runtime.CallRecord;
import io.agentlab.runtime.llm.CallRole;
import io.agentlab.runtime.protocol.HiddenEventBlockParser;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apiguardian.api.API;

/**
 * What must hold whatever the model says: the kernel's own guarantees, checked on every turn of an evaluation, where a
 * suite's expectations are labels to score the model against rather than verdicts. A violation is the kit's (or the
 * kernel under test's) fault, never the model's, so each one fails the case:
 * <ul>
 *   <li>no duplicate side effect: in a turn, no two events execute with the same name and arguments, or the same
 *       idempotency key ({@code docs/design.md#batch-duplicates-coalesced},
 *       {@code docs/design.md#batch-replay-scope});</li>
 *   <li>a terminal event last: its handler starts only after every sibling that did not time out returned
 *       ({@code docs/design.md#batch-terminal-last});</li>
 *   <li>at most one follow-up ChatAgent call per turn ({@code docs/design.md#policy-mixed-batch});</li>
 *   <li>the hidden block never visible ({@code docs/design.md#modes-hidden-block-never-visible});</li>
 *   <li>history intact: earlier messages never change, and a turn whose first call failed stores nothing
 *       ({@code docs/design.md#modes-same-history}).</li>
 * </ul>
 */
@API(status = INTERNAL, since = "0.1")
public final class KernelGuarantees {

    private KernelGuarantees() {
    }

    /** Every guarantee {@code run} breaks, one line each, naming the turn. */
    public static List<String> violations(CaseRun run) {
        List<String> found = new ArrayList<>();
        for (TurnRun turn : run.turns()) {
            String label = "turn " + (turn.index() + 1) + " (\"" + turn.turn().user() + "\"): ";
            duplicates(turn, label, found);
            terminalLast(turn, run.terminalEvents(), label, found);
            long followUps = turn.result().calls().stream().map(CallRecord::role).filter(CallRole.FOLLOW_UP::equals)
                    .count();
            if (followUps > 1) {
                found.add(label + followUps + " follow-up ChatAgent calls; at most one is allowed");
            }
            if (run.mode() == InvocationMode.DUAL_AGENT && turn.visibleText().contains(HiddenEventBlockParser.MARKER)) {
                found.add(label + "the hidden event block reached the visible text");
            }
            turn.historyProblems().forEach(problem -> found.add(label + problem));
            turn.harnessProblems().forEach(problem -> found.add(label + problem));
        }
        return found;
    }

    /** Calls of one event id are its attempts (a read-only event may be retried); another event id is a duplicate. */
    private static void duplicates(TurnRun turn, String label, List<String> found) {
        Map<String, String> executed = new HashMap<>();
        Map<String, String> keys = new HashMap<>();
        for (HandlerCall call : turn.handlerCalls()) {
            String what = call.name() + " " + CanonicalJson.write(call.arguments());
            String first = executed.putIfAbsent(what, call.eventId());
            if (first != null && !first.equals(call.eventId())) {
                found.add(label + what + " executed twice in one turn (events " + first + " and " + call.eventId()
                        + "): exact duplicates must be coalesced");
            }
            String keyed = call.idempotencyKey() == null ? null : keys.putIfAbsent(call.idempotencyKey(), call.eventId());
            if (keyed != null && !keyed.equals(call.eventId())) {
                found.add(label + call.name() + " (" + call.eventId() + ") executed with the idempotency key of "
                        + keyed);
            }
        }
    }

    private static void terminalLast(TurnRun turn, Set<String> terminal, String label, List<String> found) {
        Map<String, String> status = new HashMap<>();
        for (EventResult result : turn.result().batch().map(BatchResult::results).orElse(List.of())) {
            status.put(result.eventId(), result.outcome() instanceof EventOutcome.TimedOut ? "timed_out" : "final");
        }
        for (HandlerCall last : turn.handlerCalls()) {
            if (!terminal.contains(last.name())) {
                continue;
            }
            for (HandlerCall sibling : turn.handlerCalls()) {
                boolean other = !sibling.eventId().equals(last.eventId());
                boolean returnedBefore = sibling.endTick() >= 0 && sibling.endTick() < last.startTick();
                if (other && !returnedBefore && !"timed_out".equals(status.get(sibling.eventId()))) {
                    found.add(label + "terminal " + last.name() + " started before " + sibling.name() + " ("
                            + sibling.eventId() + ") returned");
                }
            }
        }
    }
}
