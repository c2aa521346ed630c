package io.agentlab.engine.internal.execution;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.agentlab.engine.expect.ErrorExpectation;
import io.agentlab.engine.expect.Expectation;
import io.agentlab.engine.expect.Expectations;
import io.agentlab.engine.expect.WireJudgement;
import io.agentlab.engine.expect.WireSight;
import io.agentlab.engine.internal.suite.Suite;
import io.agentlab.engine.internal.yaml.Position;
import io.agentlab.kernel.api.InvocationMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * Checks a turn against its expectations — those for every mode, then those for the mode it ran in. Each failure is
 * one line naming the turn and where the expectation is written, then what was expected against what happened; the
 * engine prefixes the case's clause and file. A turn that names no error anywhere must end without one. A turn that
 * ran over the wire is judged on what the wire shows; what it cannot show is named, never passed
 * (docs/wire.md#observability).
 */
@API(status = INTERNAL, since = "0.1")
public final class ExpectationCheck {

    private ExpectationCheck() {
    }

    /**
     * What checking a turn came to.
     *
     * @param failures every way the turn breaks what was judged, one line each
     * @param unseen   over the wire, what could not be judged, with why (docs/wire.md#observability); in-process none
     * @param lines    the unseen parts as the report gives them, one line each naming the turn and the position
     */
    public record Checked(List<String> failures, List<WireJudgement.Unseen> unseen, List<String> lines) {
        /** Copies the lists. */
        public Checked {
            failures = List.copyOf(failures);
            unseen = List.copyOf(unseen);
            lines = List.copyOf(lines);
        }
    }

    /** Every expectation of {@code run}'s turn that does not hold; empty when all do. */
    public static List<String> failures(TurnRun run) {
        return check(run).failures();
    }

    /**
     * Checks {@code run}'s turn: in-process every expectation; over the wire what the wire shows of each, naming the
     * rest (docs/wire.md#observability).
     */
    public static Checked check(TurnRun run) {
        Suite.Turn turn = run.turn();
        Expectations byMode = turn.expectByMode().getOrDefault(run.mode(), Expectations.none());
        String label = "turn " + (run.index() + 1) + " (\"" + turn.user() + "\")";
        List<String> failures = new ArrayList<>();
        List<WireJudgement.Unseen> unseen = new ArrayList<>();
        List<String> lines = new ArrayList<>();
        Optional<String> unobserved = run.wireSight().flatMap(WireSight::unobserved);
        if (unobserved.isPresent()) {
            // the kit could not observe the turn (the runtime was not there, its stream malformed, hung or broken
            // off): one clear failure naming that, not every expectation failing after it (docs/wire.md#bounds)
            failures.add(label + ": " + unobserved.get());
            return new Checked(failures, unseen, lines);
        }
        if (!turn.expect().declaresError() && !byMode.declaresError()) {
            check(ErrorExpectation.NONE, run, label, failures, unseen, lines);
        }
        run.harnessProblems().forEach(problem -> failures.add(label + ": " + problem));
        for (Expectation expectation : written(turn, run.mode())) {
            check(expectation, run, label, failures, unseen, lines);
        }
        return new Checked(failures, unseen, lines);
    }

    /**
     * Over the wire, why nothing written for {@code turn} in {@code mode} can be judged, whatever the runtime does;
     * empty when something can, or nothing is written (docs/wire.md#observability: such a test is skipped).
     */
    public static List<WireJudgement.Unseen> neverObservable(Suite.Turn turn, InvocationMode mode) {
        List<Expectation> written = written(turn, mode);
        List<WireJudgement.Unseen> never = new ArrayList<>();
        for (Expectation expectation : written) {
            List<WireJudgement.Unseen> blind = expectation.neverObservable();
            if (blind.isEmpty()) {
                return List.of();
            }
            never.addAll(blind);
        }
        return never;
    }

    /** The expectations written for the turn: those for every mode, then those for {@code mode}. */
    private static List<Expectation> written(Suite.Turn turn, InvocationMode mode) {
        List<Expectation> all = new ArrayList<>(turn.expect().items());
        all.addAll(turn.expectByMode().getOrDefault(mode, Expectations.none()).items());
        return all;
    }

    private static void check(Expectation expectation, TurnRun run, String label, List<String> failures,
                              List<WireJudgement.Unseen> unseen, List<String> lines) {
        String where = expectation.at().equals(Position.UNKNOWN) ? ""
                : ", " + expectation.key() + " at " + expectation.at();
        List<String> found = new ArrayList<>();
        if (run.wireSight().isEmpty()) {
            expectation.check(run, found);
        } else {
            WireJudgement judged = expectation.overTheWire(run);
            if (judged instanceof WireJudgement.Judged seen) {
                found.addAll(seen.failures());
            }
            unseen.addAll(judged.unseen());
            judged.unseen().forEach(part -> lines.add(label + where + ": " + part.describe()));
        }
        found.forEach(failure -> failures.add(label + where + ": " + failure));
    }
}
