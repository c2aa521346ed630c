package io.agentlab.engine;

import io.agentlab.engine.expect.EventsExpectation;
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
import org.junit.platform.engine.UniqueId;
import org.junit.platform.engine.reporting.ReportEntry;
import org.opentest4j.AssertionFailedError;
import org.opentest4j.TestAbortedException;

/** A case in one mode: runs it, records its metrics, checks every expectation. Segment {@code [mode:<wire>]}. */
final class ModeDescriptor extends CaseTestDescriptor {

    static final String SEGMENT = "mode";
    /** Between a case's id and a repetition's number in the samples of an evaluation ({@code volume-up@r2}). */
    static final String REPETITION_MARK = "@r";

    private final InvocationMode mode;

    ModeDescriptor(UniqueId uniqueId, CaseDescriptor parent, InvocationMode mode, Naming naming) {
        super(uniqueId, parent, mode.wireName(), naming);
        this.mode = mode;
    }

    InvocationMode mode() {
        return mode;
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
                                .toList(), turn.result());
                context.metrics().add(record);
                Map<String, String> entry = new LinkedHashMap<>();
                MetricsReport.turnFigures(record.sample()).forEach((key, value) -> entry.put(key, String.valueOf(value)));
                context.request().getEngineExecutionListener().reportingEntryPublished(this, ReportEntry.from(entry));
                if (!evaluate) {
                    failures.addAll(ExpectationCheck.failures(turn));
                }
            }
            if (evaluate) {
                String prefix = repetitions == 1 ? "" : "repetition " + (repetition + 1) + ", ";
                KernelGuarantees.violations(run).forEach(violation -> failures.add(prefix + violation));
            } else if (!run.cancelled() && run.turns().size() < testCase.turns().size()) {
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
