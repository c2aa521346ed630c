package io.agentlab.engine;

import org.junit.platform.engine.UniqueId;
import org.junit.platform.engine.support.descriptor.AbstractTestDescriptor;

/**
 * The run's gates, the engine's last child: it runs on the engine's thread after every suite finished (suites run one
 * after another; their cases may run in parallel). Segment {@code [gates:run]}.
 */
final class GatesDescriptor extends AbstractTestDescriptor implements ConformanceNode {

    static final String SEGMENT = "gates";
    /** The one gates node's value: {@code [gates:run]}. */
    static final String VALUE = "run";

    GatesDescriptor(UniqueId uniqueId) {
        super(uniqueId, "gates");
    }

    @Override
    public Type getType() {
        return Type.CONTAINER;
    }

    @Override
    public ExecutionMode getExecutionMode() {
        return ExecutionMode.SAME_THREAD;
    }
}
