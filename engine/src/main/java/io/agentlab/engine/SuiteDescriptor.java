package io.agentlab.engine;

import io.agentlab.engine.internal.suite.Suite;
import java.util.Set;
import org.junit.platform.engine.TestTag;
import org.junit.platform.engine.UniqueId;
import org.junit.platform.engine.support.descriptor.AbstractTestDescriptor;

/** A suite file: its cases are the children. Unique id segment {@code [suite:<id>]}. */
final class SuiteDescriptor extends AbstractTestDescriptor implements ConformanceNode {

    static final String SEGMENT = "suite";

    private final Suite suite;

    SuiteDescriptor(UniqueId uniqueId, Suite suite) {
        super(uniqueId, suite.title(), Sources.of(suite.origin(), suite.at()));
        this.suite = suite;
    }

    Suite suite() {
        return suite;
    }

    /** Notes once, before its cases run, how the suite's streams are timed (a note per case read every case's turns). */
    @Override
    public ConformanceContext before(ConformanceContext context) {
        context.metrics().timing(suite.id(), timing(suite, context.settings()));
        return context;
    }

    private static String timing(Suite suite, EngineOptions settings) {
        if (settings.provider() == EngineOptions.Provider.LIVE) {
            return "live provider: measured";
        }
        boolean recorded = suite.cases().stream().flatMap(c -> c.turns().stream())
                .anyMatch(turn -> !turn.recordings().isEmpty());
        return (recorded ? "recorded offsets replayed; scripted turns " : "scripted turns ")
                + "synthesized with latency " + suite.provider().latency().describe() + "; replay speed "
                + settings.replaySpeed();
    }

    @Override
    public Type getType() {
        return Type.CONTAINER;
    }

    @Override
    public Set<TestTag> getTags() {
        return Sources.tags(suite.tags());
    }

    @Override
    public String getLegacyReportingName() {
        return suite.id();
    }

    /**
     * Suites run beside each other when cases run in parallel, so a suite's slowest case (a batch deadline's wait) no
     * longer holds back the next suite's; the gates still run after all of them, alone ({@link GatesDescriptor},
     * docs/engine.md#parallel-suites).
     */
    @Override
    public ExecutionMode getExecutionMode() {
        return ExecutionMode.CONCURRENT;
    }
}
