package io.agentlab.engine;

import io.agentlab.engine.expect.EventsExpectation;
import io.agentlab.engine.expect.Expectations;
import io.agentlab.engine.expect.WireJudgement;
import io.agentlab.engine.expect.WireSight;
import io.agentlab.engine.internal.execution.AuditExport;
import io.agentlab.engine.internal.execution.CaseRun;
import io.agentlab.engine.internal.execution.ExpectationCheck;
import io.agentlab.engine.internal.execution.KernelGuarantees;
import io.agentlab.engine.internal.execution.TurnRun;
import io.agentlab.report.metrics.MetricsReport;
import io.agentlab.report.metrics.TurnRecord;
import io.agentlab.engine.internal.suite.Suite;
import io.agentlab.kernel.api.InvocationMode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.junit.platform.engine.UniqueId;
import org.junit.platform.engine.reporting.ReportEntry;
import org.opentest4j.AssertionFailedError;
import org.opentest4j.TestAbortedException;

/** A case in one mode: runs it, records its metrics, checks every expectation. Segment {@code [mode:<wire>]}. */
final class ModeDescriptor extends CaseTestDescriptor {

    static final String SEGMENT = "mode";
    /** Between a case's id and a repetition's number in the samples of an evaluation ({@code volume-up@r2}). */
    static final String REPETITION_MARK = "@r";

    /** The key of a report entry naming what a runtime over the wire could not show (docs/wire.md#observability). */
    static final String NOT_OBSERVABLE = "not-observable";

    private final InvocationMode mode;

    ModeDescriptor(UniqueId uniqueId, CaseDescriptor parent, InvocationMode mode, Naming naming) {
        super(uniqueId, parent, mode.wireName(), naming);
        this.mode = mode;
    }

    InvocationMode mode() {
        return mode;
    }

    /**
     * Over the wire, a test none of whose written expectations the wire can show is skipped, naming why
     * (docs/wire.md#observability); each is counted as not observable.
     */
    @Override
    public SkipResult shouldBeSkipped(ConformanceContext context) {
        if (!context.settings().overTheWire()) {
            return SkipResult.doNotSkip();
        }
        List<WireJudgement.Unseen> never = neverObservable(parentCase().testCase(), mode);
        if (never.isEmpty()) {
            return SkipResult.doNotSkip();
        }
        never.forEach(unseen -> context.log().notObservable(unseen.key()));
        return SkipResult.skip(skipReason(never));
    }

    /**
     * Why nothing written for {@code testCase} in {@code mode} can be judged over the wire, every turn's reasons; empty
     * when something can (or nothing is written).
     */
    static List<WireJudgement.Unseen> neverObservable(Suite.Case testCase, InvocationMode mode) {
        List<WireJudgement.Unseen> never = new ArrayList<>();
        for (Suite.Turn turn : testCase.turns()) {
            boolean written = !turn.expect().items().isEmpty()
                    || !turn.expectByMode().getOrDefault(mode, Expectations.none()).items().isEmpty();
            List<WireJudgement.Unseen> blind = ExpectationCheck.neverObservable(turn, mode);
            if (written && blind.isEmpty()) {
                return List.of();
            }
            never.addAll(blind);
        }
        return never;
    }

    static String skipReason(List<WireJudgement.Unseen> never) {
        return "nothing this test expects can be judged over the wire: " + never.stream()
                .map(WireJudgement.Unseen::describe).distinct().collect(Collectors.joining("; "));
    }

    @Override
    public ConformanceContext execute(ConformanceContext context, DynamicTestExecutor executor) {
        CaseDescriptor parent = parentCase();
        Suite suite = parent.suite();
        Suite.Case testCase = parent.testCase();
        boolean evaluate = context.settings().evaluate();
        int repetitions = evaluate ? context.settings().repetitions() : 1;
        List<String> failures = new ArrayList<>();
        CaseRun run = null;
        for (int repetition = 0; repetition < repetitions; repetition++) {
            run = context.runner().run(suite, testCase, mode);
            // each repetition's turns are their own samples; the first run is the one parity and audits look at
            String caseId = repetition == 0 ? testCase.id() : testCase.id() + REPETITION_MARK + (repetition + 1);
            if (repetition == 0) {
                parent.recordRun(run);
                CaseRun first = run;
                context.settings().auditDirectory().ifPresent(directory -> AuditExport.write(directory, first));
            }
            for (TurnRun turn : run.turns()) {
                TurnRecord record = TurnRecord.of(suite.id(), caseId, turn.index(), mode, turn.turn().user(),
                        turn.timing(), turn.turn().expect().expectedEvents(),
                        turn.turn().expect().find(EventsExpectation.class).map(EventsExpectation::events)
                                .orElse(List.of()).stream().map(event -> event.arguments().orElse(Map.of()))
                                .toList(), turn.result(), turn.wireSight().isPresent());
                context.metrics().add(record);
                Map<String, String> entry = new LinkedHashMap<>();
                MetricsReport.turnFigures(record.sample()).forEach((key, value) -> entry.put(key, String.valueOf(value)));
                context.request().getEngineExecutionListener().reportingEntryPublished(this, ReportEntry.from(entry));
                if (!evaluate) {
                    ExpectationCheck.Checked checked = ExpectationCheck.check(turn);
                    failures.addAll(checked.failures());
                    // over the wire, what the wire cannot show is named and counted, never passed
                    // (docs/wire.md#observability)
                    checked.unseen().forEach(unseen -> context.log().notObservable(unseen.key()));
                    checked.lines().forEach(line -> context.request().getEngineExecutionListener()
                            .reportingEntryPublished(this, ReportEntry.from(NOT_OBSERVABLE, line)));
                }
            }
            if (evaluate) {
                String prefix = repetitions == 1 ? "" : "repetition " + (repetition + 1) + ", ";
                KernelGuarantees.violations(run).forEach(violation -> failures.add(prefix + violation));
            } else if (!run.cancelled() && run.turns().size() < testCase.turns().size() && !unobserved(run)) {
                // (a turn the kit could not observe over the wire ends the case, its one failure saying why)
                failures.add("the session ended after turn " + run.turns().size() + ", so "
                        + (testCase.turns().size() - run.turns().size()) + " later turn(s) never ran");
            }
            if (run.cancelled()) {
                break;
            }
        }
        if (run.cancelled()) {
            Optional<String> stopped = context.runner().stopped();
            if (stopped.isPresent()) {
                throw new TestAbortedException("the run stopped after " + run.turns().size() + " of "
                        + testCase.turns().size() + " turn(s): " + stopped.get());
            }
            throw new TestAbortedException("execution was cancelled after " + run.turns().size() + " of "
                    + testCase.turns().size() + " turn(s)");
        }
        if (!failures.isEmpty()) {
            throw new AssertionFailedError(failureMessage(suite, testCase, mode.wireName(), failures));
        }
        return context;
    }

    /** Whether the run's last turn could not be observed over the wire (docs/wire.md#bounds). */
    private static boolean unobserved(CaseRun run) {
        return unobservedBecause(run).isPresent();
    }

    /** Why the run's last turn could not be observed over the wire, if it could not (docs/wire.md#bounds). */
    static Optional<String> unobservedBecause(CaseRun run) {
        return run.turns().isEmpty() ? Optional.empty() : run.turns().get(run.turns().size() - 1).wireSight()
                .flatMap(WireSight::unobserved);
    }

    static String failureMessage(Suite suite, Suite.Case testCase, String what, List<String> failures) {
        StringBuilder message = new StringBuilder("[" + testCase.clause() + "] " + suite.id() + "/" + testCase.id()
                + " (" + what + ", " + suite.origin().display() + ":" + testCase.at() + "): " + failures.size()
                + " expectation(s) failed");
        for (String failure : failures) {
            message.append("\n  - ").append(failure);
        }
        return message.toString();
    }
}
