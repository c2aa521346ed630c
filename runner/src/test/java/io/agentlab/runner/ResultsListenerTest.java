package io.agentlab.runner;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentlab.report.TestOutcome;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.UniqueId;
import org.junit.platform.engine.support.descriptor.AbstractTestDescriptor;
import org.junit.platform.launcher.TestIdentifier;

/** The results listener holds the nodes running now, not one entry per finished case (docs/performance.md#memory). */
class ResultsListenerTest {

    private static TestIdentifier node(String segment, boolean test) {
        return TestIdentifier.from(new AbstractTestDescriptor(UniqueId.forEngine("e").append("case", segment),
                segment) {
            @Override
            public Type getType() {
                return test ? Type.TEST : Type.CONTAINER;
            }
        });
    }

    @Test
    @DisplayName("after a thousand passed cases (a container and its test each) nothing is left running")
    void finishedNodesAreForgotten() {
        AtomicLong now = new AtomicLong();
        ResultsListener listener = new ResultsListener(now::incrementAndGet);
        for (int i = 0; i < 1_000; i++) {
            TestIdentifier container = node("c" + i, false);
            TestIdentifier test = node("c" + i + "-mode", true);
            listener.executionStarted(container);
            listener.executionStarted(test);
            listener.executionFinished(test, TestExecutionResult.successful());
            listener.executionFinished(container, TestExecutionResult.successful());
        }
        assertThat(listener.running()).isZero();
        assertThat(listener.outcomes()).hasSize(1_000).allSatisfy(outcome ->
                assertThat(outcome.status()).isEqualTo(TestOutcome.Status.PASSED));
    }
}
