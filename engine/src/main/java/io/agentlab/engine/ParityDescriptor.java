package io.agentlab.engine;

import io.agentlab.engine.internal.execution.CaseRun;
import io.agentlab.engine.expect.WireJudgement;
import io.agentlab.engine.internal.execution.Parity;
import io.agentlab.kernel.api.InvocationMode;
import java.util.List;
import java.util.Optional;
import org.junit.platform.engine.UniqueId;
import org.opentest4j.AssertionFailedError;
import org.opentest4j.TestAbortedException;

/**
 * Mode parity of a case: runs after both mode nodes and compares their normalized behaviour ({@link Parity}).
 * Segment {@code [parity:modes]}.
 */
final class ParityDescriptor extends CaseTestDescriptor {

    static final String SEGMENT = "parity";
    static final String VALUE = "modes";

    ParityDescriptor(UniqueId uniqueId, CaseDescriptor parent, Naming naming) {
        super(uniqueId, parent, "parity", naming);
    }

    /**
     * Over the wire, parity needs both modes: when a mode's test is skipped because the wire shows nothing it expects
     * (docs/wire.md#observability), so is parity.
     */
    @Override
    public SkipResult shouldBeSkipped(ConformanceContext context) {
        if (context.settings().overTheWire()) {
            for (InvocationMode mode : parentCase().modes(context.settings().modes())) {
                List<WireJudgement.Unseen> never = ModeDescriptor.neverObservable(parentCase().testCase(), mode);
                if (!never.isEmpty()) {
                    return SkipResult.skip("parity needs both modes, and " + mode.wireName() + " is skipped: "
                            + ModeDescriptor.skipReason(never));
                }
            }
        }
        return SkipResult.doNotSkip();
    }

    @Override
    public ConformanceContext execute(ConformanceContext context, DynamicTestExecutor executor) {
        CaseDescriptor parent = parentCase();
        Optional<CaseRun> dual = parent.run(InvocationMode.DUAL_AGENT);
        Optional<CaseRun> tools = parent.run(InvocationMode.CHAT_AGENT_TOOLS);
        if (dual.isEmpty() || tools.isEmpty()) {
            throw new TestAbortedException("parity needs both modes, but "
                    + (dual.isEmpty() ? "dual_agent" : "chat_agent_tools") + " did not run to completion");
        }
        // two runs the wire could not show compare equal and say nothing: parity is then not judged, never passed
        // (docs/wire.md#bounds)
        for (CaseRun run : List.of(dual.get(), tools.get())) {
            Optional<String> unseen = ModeDescriptor.unobservedBecause(run);
            if (unseen.isPresent()) {
                throw new TestAbortedException("parity needs both modes observed, but "
                        + (run == dual.get() ? "dual_agent" : "chat_agent_tools") + " could not be: " + unseen.get());
            }
        }
        Optional<String> diff = Parity.diff(dual.get(), tools.get());
        context.metrics().parity(parent.suite().id(), parent.testCase().id(), diff.isEmpty());
        if (diff.isPresent() && !context.settings().evaluate()) {
            // evaluating, a real model may choose differently in each mode: the figures compare the modes
            throw new AssertionFailedError(ModeDescriptor.failureMessage(parent.suite(), parent.testCase(),
                    "mode parity", List.of("the modes disagree (docs/design.md#modes-parity: only the invocation mode "
                            + "may differ):\n" + diff.get())));
        }
        return context;
    }
}
