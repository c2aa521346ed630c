package io.agentlab.engine.internal.execution;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.agentlab.engine.expect.ErrorExpectation;
import io.agentlab.engine.expect.Expectation;
import io.agentlab.engine.expect.Expectations;
import io.agentlab.engine.internal.suite.Suite;
import io.agentlab.engine.internal.yaml.Position;
import java.util.ArrayList;
import java.util.List;
import org.apiguardian.api.API;

/**
 * Checks a turn against its expectations — those for every mode, then those for the mode it ran in. Each failure is
 * one line naming the turn and where the expectation is written, then what was expected against what happened; the
 * engine prefixes the case's clause and file. A turn that names no error anywhere must end without one.
 */
@API(status = INTERNAL, since = "0.1")
public final class ExpectationCheck {

    private ExpectationCheck() {
    }

    /** Every expectation of {@code run}'s turn that does not hold; empty when all do. */
    public static List<String> failures(TurnRun run) {
        Suite.Turn turn = run.turn();
        Expectations byMode = turn.expectByMode().getOrDefault(run.mode(), Expectations.none());
        List<Expectation> all = new ArrayList<>(turn.expect().items());
        all.addAll(byMode.items());
        String label = "turn " + (run.index() + 1) + " (\"" + turn.user() + "\")";
        List<String> failures = new ArrayList<>();
        if (!turn.expect().declaresError() && !byMode.declaresError()) {
            check(ErrorExpectation.NONE, run, label, failures);
        }
        run.harnessProblems().forEach(problem -> failures.add(label + ": " + problem));
        for (Expectation expectation : all) {
            check(expectation, run, label, failures);
        }
        return failures;
    }

    private static void check(Expectation expectation, TurnRun run, String label, List<String> failures) {
        List<String> found = new ArrayList<>();
        expectation.check(run, found);
        String where = expectation.at().equals(Position.UNKNOWN) ? ""
                : ", " + expectation.key() + " at " + expectation.at();
        found.forEach(failure -> failures.add(label + where + ": " + failure));
    }
}
