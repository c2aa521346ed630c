package io.agentlab.runner;

import io.agentlab.report.TestOutcome;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.TestTag;
import org.junit.platform.engine.UniqueId;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;

/**
 * Collects every test's outcome for {@code results.json}: tests as they finish (with their measured duration),
 * tests under a skipped container as skipped with its reason, and a failed container (the engine, a suite) as a
 * broken entry of kind {@code container}, so nothing that went wrong is lost. The outcomes go to a spool file as they
 * come ({@link SpooledTests}); what is in memory is the tests running now. One listener serves every execution of a
 * run in parts (docs/engine.md#runs-in-parts).
 */
final class ResultsListener implements TestExecutionListener {

    private final LongSupplier nanoTime;
    private final Map<String, Long> started = new ConcurrentHashMap<>();
    private final SpooledTests outcomes = SpooledTests.create();
    private TestPlan plan;

    ResultsListener(LongSupplier nanoTime) {
        this.nanoTime = nanoTime;
    }

    /** The nodes started and not yet finished (what this listener holds in memory besides the counts). */
    int running() {
        return started.size();
    }

    /** Every outcome so far, in the order they came: the spooled list itself. */
    synchronized List<TestOutcome> outcomes() {
        return outcomes;
    }

    @Override
    public void testPlanExecutionStarted(TestPlan testPlan) {
        plan = testPlan;
    }

    @Override
    public void executionStarted(TestIdentifier test) {
        started.put(test.getUniqueId(), nanoTime.getAsLong());
    }

    @Override
    public synchronized void executionSkipped(TestIdentifier test, String reason) {
        if (test.isTest()) {
            outcomes.append(outcome(test, TestOutcome.Status.SKIPPED, 0, Optional.of(reason)));
        } else {
            plan.getDescendants(test).stream().filter(TestIdentifier::isTest).forEach(descendant ->
                    outcomes.append(outcome(descendant, TestOutcome.Status.SKIPPED, 0, Optional.of(reason))));
        }
    }

    @Override
    public synchronized void executionFinished(TestIdentifier test, TestExecutionResult result) {
        // every node's start is forgotten when it ends: a passed container's too, or the map grows by a case
        Long start = started.remove(test.getUniqueId());
        if (!test.isTest() && result.getStatus() == TestExecutionResult.Status.SUCCESSFUL) {
            return;
        }
        double ms = start == null ? 0 : (nanoTime.getAsLong() - start) / 1e6;
        TestOutcome.Status status = TestOutcome.Status.of(result);
        Optional<String> message = TestOutcome.message(result);
        if (!test.isTest() && status == TestOutcome.Status.ABORTED) {
            return; // an aborted container's tests report themselves
        }
        outcomes.append(outcome(test, status, ms, message));
    }

    private static TestOutcome outcome(TestIdentifier test, TestOutcome.Status status, double ms,
                                       Optional<String> message) {
        return TestOutcome.of(UniqueId.parse(test.getUniqueId()), test.getDisplayName(), test.isTest(),
                test.getTags().stream().map(TestTag::getName).toList(), status, ms, message);
    }
}
