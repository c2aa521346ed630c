package io.agentlab.runner;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.UniqueId;
import org.junit.platform.engine.support.descriptor.AbstractTestDescriptor;
import org.junit.platform.launcher.TestIdentifier;

/** The progress a run prints: a counter, and how long is left at the pace so far (docs/cli.md#progress). */
class ProgressTest {

    private static final long SECOND = 1_000_000_000L;

    private final AtomicLong now = new AtomicLong();
    private final StringWriter written = new StringWriter();

    private static TestIdentifier test(int i) {
        return TestIdentifier.from(new AbstractTestDescriptor(UniqueId.forEngine("e").append("case", "c" + i),
                "case-" + i + " [dual_agent]") {
            @Override
            public Type getType() {
                return Type.TEST;
            }
        });
    }

    private static TestIdentifier container() {
        return TestIdentifier.from(new AbstractTestDescriptor(UniqueId.forEngine("e").append("suite", "s"), "suite") {
            @Override
            public Type getType() {
                return Type.CONTAINER;
            }
        });
    }

    /** {@code tests} tests, each taking {@code seconds} on the fake clock. */
    private Progress run(boolean terminal, int tests, long seconds) {
        Progress progress = new Progress(new PrintWriter(written, true), terminal, now::get);
        progress.started(tests);
        for (int i = 1; i <= tests; i++) {
            now.addAndGet(seconds * SECOND);
            progress.executionFinished(test(i), TestExecutionResult.successful());
        }
        return progress;
    }

    @Test
    @DisplayName("the time left: the pace since the first test times the tests to go, once three have finished, never "
            + "at the end")
    void timeLeft() {
        assertThat(Progress.timeLeft(2 * SECOND, 2, 100)).as("too few to judge by").isEmpty();
        assertThat(Progress.timeLeft(6 * SECOND, 3, 100)).as("3 s a test since the first").hasValue("~4:51 left");
        assertThat(Progress.timeLeft(59 * SECOND, 60, 100)).hasValue("~0:40 left");
        assertThat(Progress.timeLeft(90 * SECOND, 100, 100)).isEmpty();
    }

    @Test
    @DisplayName("on a terminal the counter line carries the estimate, rewritten in place")
    void terminal() {
        // the first test's start-up does not count: 30 s for it, then 2 s each (one of them 3 s); pace 5 s / 2 tests
        Progress progress = new Progress(new PrintWriter(written, true), true, now::get);
        progress.started(4);
        for (int i = 1; i <= 4; i++) {
            now.addAndGet((i == 1 ? 30 : 2) * SECOND);
            progress.executionFinished(test(i), TestExecutionResult.successful());
            if (i == 1) { // a container's failure is printed but is no test: the pace's clock stays where it started
                now.addAndGet(SECOND);
                progress.executionFinished(container(), TestExecutionResult.failed(new AssertionError("x")));
            }
        }
        assertThat(written.toString()).contains("[3/4] 0:35 ~0:03 left ok case-3 [dual_agent]");
        written.getBuffer().setLength(0);
        now.set(0);
        run(true, 4, 2);
        assertThat(written.toString()).contains("[1/4] 0:02 ok case-1 [dual_agent]")
                .contains("[3/4] 0:06 ~0:02 left ok case-3 [dual_agent]")
                .contains("[4/4] 0:08 ok case-4 [dual_agent]").doesNotContain("\n");
    }

    @Test
    @DisplayName("plain output: a line per test, and in a big run one at each quarter with the estimate")
    void plainQuarters() {
        run(false, 40, 1);
        assertThat(written.toString().lines().filter(line -> line.startsWith("  ...   ")).toList()).containsExactly(
                "  ...   10 of 40 tests in 0:10, ~0:30 left", "  ...   20 of 40 tests in 0:20, ~0:20 left",
                "  ...   30 of 40 tests in 0:30, ~0:10 left");
        assertThat(written.toString().lines().filter(line -> line.startsWith("  ok    "))).hasSize(40);
    }

    @Test
    @DisplayName("plain output of a small run: a line per test and nothing else")
    void plainSmall() {
        run(false, Progress.QUARTERS_FROM - 1, 1);
        assertThat(written.toString().lines()).hasSize(Progress.QUARTERS_FROM - 1)
                .allSatisfy(line -> assertThat(line).startsWith("  ok    "));
    }

    @Test
    @DisplayName("a run in parts counts on across its executions: one total, one clock, one line in place")
    void inParts() {
        Progress progress = new Progress(new PrintWriter(written, true), true, now::get);
        progress.startedInParts(4);
        for (int part = 0; part < 2; part++) {
            progress.testPlanExecutionStarted(null); // each part's plan holds two: ignored, the run's total stands
            for (int i = 1; i <= 2; i++) {
                now.addAndGet(2 * SECOND);
                progress.executionFinished(test(2 * part + i), TestExecutionResult.successful());
            }
            progress.testPlanExecutionFinished(null);
        }
        assertThat(written.toString()).contains("[3/4] 0:06 ~0:02 left ok case-3 [dual_agent]")
                .contains("[4/4] 0:08 ok case-4 [dual_agent]").doesNotContain("\n");
        progress.finished();
        assertThat(written.toString()).endsWith("\n");
    }
}
