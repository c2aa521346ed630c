package io.agentlab.engine;

import io.agentlab.engine.execution.AuditExport;
import io.agentlab.engine.execution.CaseRun;
import io.agentlab.engine.execution.ExpectationCheck;
import io.agentlab.engine.execution.TurnRun;
import io.agentlab.engine.metrics.MetricsReport;
import io.agentlab.engine.metrics.TurnRecord;
import io.agentlab.engine.metrics.TurnSample;
import io.agentlab.engine.suite.Suite;
import io.agentlab.kernel.api.InvocationMode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.platform.engine.UniqueId;
import org.junit.platform.engine.reporting.ReportEntry;
import org.opentest4j.AssertionFailedError;
import org.opentest4j.TestAbortedException;

/** A case in one mode: runs it, records its metrics, checks every expectation. Segment {@code [mode:<wire>]}. */
final class ModeDescriptor extends CaseTestDescriptor {

    static final String SEGMENT = "mode";

    private final InvocationMode mode;

    ModeDescriptor(UniqueId uniqueId, CaseDescriptor parent, InvocationMode mode) {
        super(uniqueId, parent, mode.wireName());
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
        context.metrics().timing(suite.id(), timing(suite, context.settings()));
        CaseRun run = context.runner().run(suite, testCase, mode);
        parent.recordRun(run);
        List<String> failures = new ArrayList<>();
        for (TurnRun turn : run.turns()) {
            TurnRecord record = new TurnRecord(suite.id(), testCase.id(), turn.index(), mode, turn.turn().user(),
                    turn.timing(), turn.turn().expect().expectedEvents(), turn.result());
            TurnSample sample = context.metrics().add(record);
            Map<String, String> entry = new LinkedHashMap<>();
            MetricsReport.turnFigures(sample).forEach((key, value) -> entry.put(key, String.valueOf(value)));
            context.request().getEngineExecutionListener().reportingEntryPublished(this, ReportEntry.from(entry));
            failures.addAll(ExpectationCheck.failures(turn));
        }
        context.settings().auditDirectory().ifPresent(directory -> AuditExport.write(directory, run));
        if (run.cancelled()) {
            throw new TestAbortedException("execution was cancelled after " + run.turns().size() + " of "
                    + testCase.turns().size() + " turn(s)");
        }
        if (!failures.isEmpty()) {
            throw new AssertionFailedError(failureMessage(suite, testCase, mode.wireName(), failures));
        }
        return context;
    }

    private static String timing(Suite suite, ConformanceSettings settings) {
        if (settings.provider() == ConformanceSettings.Provider.LIVE) {
            return "live provider: measured";
        }
        boolean recorded = suite.cases().stream().flatMap(c -> c.turns().stream())
                .anyMatch(turn -> !turn.recordings().isEmpty());
        return (recorded ? "recorded offsets replayed; scripted turns " : "scripted turns ")
                + "synthesized with latency " + suite.provider().latency().describe() + "; replay speed "
                + settings.replaySpeed();
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
