package io.agentlab.runner;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentlab.report.TestOutcome;
import org.junit.jupiter.api.Test;
import org.junit.platform.commons.JUnitException;
import org.junit.platform.engine.TestExecutionResult;

/**
 * What a failure says when its throwable only wraps the reason: found on a 20,000-case run with a 160 MiB heap, which
 * ended "TestEngine with ID 'agentlab-conformance' failed to execute tests" and nothing else; the out-of-memory error
 * was the cause, never shown.
 */
class FailureMessageTest {

    @Test
    void causesFollowTheMessage() {
        JUnitException wrapped = new JUnitException("TestEngine with ID 'agentlab-conformance' failed to execute tests",
                new IllegalStateException("report not written", new OutOfMemoryError("Java heap space")));

        assertThat(TestOutcome.message(TestExecutionResult.failed(wrapped))).contains("""
                TestEngine with ID 'agentlab-conformance' failed to execute tests
                caused by: java.lang.IllegalStateException: report not written
                caused by: java.lang.OutOfMemoryError: Java heap space""");
    }

    @Test
    void withoutCauseTheMessageAloneAndWithoutMessageTheType() {
        assertThat(TestOutcome.message(TestExecutionResult.failed(new AssertionError("expected 3"))))
                .contains("expected 3");
        assertThat(TestOutcome.message(TestExecutionResult.failed(new IllegalStateException())))
                .contains("java.lang.IllegalStateException");
        assertThat(TestOutcome.message(TestExecutionResult.successful())).isEmpty();
    }

    @Test
    void aCauseCycleEnds() {
        IllegalStateException first = new IllegalStateException("first");
        IllegalStateException second = new IllegalStateException("second", first);
        first.initCause(second);

        assertThat(TestOutcome.message(TestExecutionResult.failed(first)))
                .contains("first\ncaused by: java.lang.IllegalStateException: second");
    }

    @Test
    void aLongChainIsCut() {
        Throwable chain = new IllegalStateException("cause 20");
        for (int i = 19; i >= 0; i--) {
            chain = new IllegalStateException("cause " + i, chain);
        }

        String message = TestOutcome.message(TestExecutionResult.failed(chain)).orElseThrow();
        assertThat(message.lines()).hasSize(9).last().isEqualTo("caused by: java.lang.IllegalStateException: cause 8");
    }
}
