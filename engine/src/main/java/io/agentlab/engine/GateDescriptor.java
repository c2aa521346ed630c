package io.agentlab.engine;

import io.agentlab.report.gates.Gate;
import io.agentlab.report.Coverage;
import java.util.Map;
import java.util.Optional;
import org.junit.platform.engine.TestDescriptor;
import org.junit.platform.engine.UniqueId;
import org.junit.platform.engine.reporting.ReportEntry;
import org.junit.platform.engine.support.descriptor.AbstractTestDescriptor;
import org.opentest4j.AssertionFailedError;

/** One gate as a test: a breach fails it naming the gate, the value and the threshold. Segment {@code [gate:<id>]}. */
final class GateDescriptor extends AbstractTestDescriptor implements ConformanceNode {

    static final String SEGMENT = "gate";

    private final Gate gate;
    /** Selected by its own unique id: asked for, so it judges what ran even in a partial launch. */
    private final boolean selected;
    private Gate.Verdict verdict;

    GateDescriptor(UniqueId uniqueId, Gate gate, boolean selected) {
        super(uniqueId, gate.description());
        this.gate = gate;
        this.selected = selected;
    }

    @Override
    public Type getType() {
        return Type.TEST;
    }

    @Override
    public String getLegacyReportingName() {
        return "gate " + gate.id();
    }

    @Override
    public ExecutionMode getExecutionMode() {
        return ExecutionMode.SAME_THREAD;
    }

    @Override
    public SkipResult shouldBeSkipped(ConformanceContext context) {
        Optional<Coverage> coverage = getParent().flatMap(TestDescriptor::getParent)
                .filter(ConformanceEngineDescriptor.class::isInstance)
                .map(engine -> ((ConformanceEngineDescriptor) engine).coverage());
        if (!selected && coverage.isPresent() && coverage.get().partial() && !context.request().getConfigurationParameters()
                .getBoolean(Constants.GATES_ON_PARTIAL).orElse(false)) {
            // a subset's precision or baseline figures say nothing about the whole (docs/engine.md#partial-launches)
            return SkipResult.skip("gate " + gate.id() + " not evaluated: gates judge whole runs, and this is a "
                    + coverage.get().describe() + " (" + Constants.GATES_ON_PARTIAL + "=true evaluates them over what ran)");
        }
        verdict = gate.check().apply(context.metrics());
        return verdict instanceof Gate.Verdict.Skip skip ? SkipResult.skip("gate " + gate.id() + ": " + skip.reason())
                : SkipResult.doNotSkip();
    }

    @Override
    public ConformanceContext execute(ConformanceContext context, DynamicTestExecutor executor) {
        if (verdict instanceof Gate.Verdict.Breach breach) {
            throw new AssertionFailedError("gate " + gate.id() + " breached: " + breach.detail());
        }
        if (verdict instanceof Gate.Verdict.Pass pass) {
            context.request().getEngineExecutionListener().reportingEntryPublished(this,
                    ReportEntry.from(Map.of("gate", gate.id(), "result", pass.detail())));
        }
        return context;
    }
}
