package io.agentlab.engine;

import java.util.Set;
import org.junit.platform.engine.TestTag;
import org.junit.platform.engine.UniqueId;
import org.junit.platform.engine.support.descriptor.AbstractTestDescriptor;

/**
 * A test under a case — one mode, or the parity check: named {@code <case id> [<label>]}, or with the suite in front
 * ({@link Naming}), pointing at the case's line, and run in order on the case's thread. The legacy reporting name
 * always carries the suite.
 */
abstract class CaseTestDescriptor extends AbstractTestDescriptor implements ConformanceNode {

    private final String label;
    private final Set<TestTag> tags;

    CaseTestDescriptor(UniqueId uniqueId, CaseDescriptor parent, String label, Naming naming) {
        super(uniqueId, naming.testName(parent.suite().id(), parent.testCase().id(), label),
                parent.getSource().orElse(null));
        this.label = label;
        this.tags = parent.getTags();
    }

    /** The suite's and the case's tags: tag filters judge tests, so a test carries what it inherits. */
    @Override
    public final Set<TestTag> getTags() {
        return tags;
    }

    final CaseDescriptor parentCase() {
        return (CaseDescriptor) getParent().orElseThrow();
    }

    @Override
    public final Type getType() {
        return Type.TEST;
    }

    @Override
    public final String getLegacyReportingName() {
        CaseDescriptor parent = parentCase();
        return parent.suite().id() + "." + parent.testCase().id() + " [" + label + "]";
    }

    @Override
    public final ExecutionMode getExecutionMode() {
        return ExecutionMode.SAME_THREAD;
    }
}
