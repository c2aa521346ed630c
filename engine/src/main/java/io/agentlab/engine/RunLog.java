package io.agentlab.engine;

import io.agentlab.report.TestLog;
import io.agentlab.report.TestOutcome;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.platform.engine.TestDescriptor;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.TestTag;
import org.junit.platform.engine.UniqueId;

/**
 * What happened to every test of one run, from any thread: the results list of the reports. Nodes feed it through the
 * {@link ConformanceNode} callbacks JUnit calls around each of them; the tree is never asked afterwards. Each outcome
 * goes to the run's {@link TestLog} as the test ends, which keeps it on disk (docs/performance.md#memory); what is in
 * memory is the tests running now.
 */
final class RunLog implements AutoCloseable {

    private final Instant startedAt = Instant.now();
    private final Map<UniqueId, Long> started = new ConcurrentHashMap<>();
    private final TestLog outcomes = new TestLog();
    private final Map<String, Long> notObservable = new TreeMap<>();

    /** When the execution started. */
    Instant startedAt() {
        return startedAt;
    }

    void started(TestDescriptor descriptor) {
        started.put(descriptor.getUniqueId(), System.nanoTime());
    }

    /** A finished test, or a failed container (its tests report themselves otherwise). */
    synchronized void finished(TestDescriptor descriptor, TestExecutionResult result) {
        Long start = started.remove(descriptor.getUniqueId());
        TestOutcome.Status status = TestOutcome.Status.of(result);
        if (descriptor.isTest() || status == TestOutcome.Status.FAILED) {
            outcomes.add(outcome(descriptor, status, start == null ? 0 : (System.nanoTime() - start) / 1e6,
                    TestOutcome.message(result)));
        }
    }

    /** A skipped test, or every test under a skipped container. */
    synchronized void skipped(TestDescriptor descriptor, String reason) {
        started.remove(descriptor.getUniqueId());
        List<TestDescriptor> tests = descriptor.isTest() ? List.of(descriptor)
                : descriptor.getDescendants().stream().filter(TestDescriptor::isTest).map(t -> (TestDescriptor) t)
                .toList();
        for (TestDescriptor test : tests) {
            outcomes.add(outcome(test, TestOutcome.Status.SKIPPED, 0, Optional.of(reason)));
        }
    }

    /** Counts one expectation (or part of one) of kind {@code key} a runtime over the wire could not show. */
    synchronized void notObservable(String key) {
        notObservable.merge(key, 1L, Long::sum);
    }

    /** Per kind, how many expectations (or parts) the wire could not show (docs/wire.md#observability), by key. */
    synchronized Map<String, Long> notObservable() {
        return new TreeMap<>(notObservable);
    }

    /** Every outcome so far. */
    TestLog tests() {
        return outcomes;
    }

    /** Deletes the log's spool. */
    @Override
    public void close() {
        outcomes.close();
    }

    private static TestOutcome outcome(TestDescriptor test, TestOutcome.Status status, double ms,
                                       Optional<String> message) {
        Set<String> tags = new TreeSet<>();
        for (Optional<TestDescriptor> node = Optional.of(test); node.isPresent(); node = node.get().getParent()) {
            node.get().getTags().stream().map(TestTag::getName).forEach(tags::add); // a test inherits its case's tags
        }
        return TestOutcome.of(test.getUniqueId(), test.getDisplayName(), test.isTest(), tags, status, ms, message);
    }
}
