package io.agentlab.engine;

import java.util.Set;
import org.junit.platform.engine.UniqueId;
import org.junit.platform.engine.support.descriptor.AbstractTestDescriptor;
import org.junit.platform.engine.support.hierarchical.ExclusiveResource;

/**
 * The run's gates, the engine's last child: they judge the whole run, so they run after every suite finished. In a
 * serial run that is the children's order; in a parallel one, where suites run beside each other, the node holds the
 * global read-write lock, which makes the fork-join executor run it alone, once its concurrent siblings have joined
 * (as Jupiter's {@code @Isolated} classes; the engine always picks that executor, docs/engine.md#parallel-suites).
 * Segment {@code [gates:run]}.
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

    @Override
    public Set<ExclusiveResource> getExclusiveResources() {
        return Set.of(new ExclusiveResource(ExclusiveResource.GLOBAL_KEY, ExclusiveResource.LockMode.READ_WRITE));
    }
}
