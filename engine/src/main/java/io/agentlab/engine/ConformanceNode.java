package io.agentlab.engine;

import org.junit.platform.engine.TestDescriptor;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.support.hierarchical.Node;

/**
 * A node of the conformance tree below the engine: tells the run's {@link RunLog} when it starts, ends or is skipped,
 * through the callbacks JUnit's hierarchical executor calls on every node, so the reports list each test's outcome.
 */
interface ConformanceNode extends Node<ConformanceContext> {

    @Override
    default ConformanceContext prepare(ConformanceContext context) {
        context.log().started((TestDescriptor) this);
        return context;
    }

    @Override
    default void nodeSkipped(ConformanceContext context, TestDescriptor descriptor, SkipResult result) {
        context.log().skipped(descriptor, result.getReason().orElse("skipped"));
    }

    @Override
    default void nodeFinished(ConformanceContext context, TestDescriptor descriptor, TestExecutionResult result) {
        context.log().finished(descriptor, result);
    }
}
