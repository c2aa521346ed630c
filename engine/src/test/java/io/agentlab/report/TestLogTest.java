package io.agentlab.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** A run's test log keeps counts in memory and the outcomes on disk (docs/performance.md#memory). */
class TestLogTest {

    private static TestOutcome test(String suite, int i, TestOutcome.Status status) {
        String caseId = "case-" + i;
        return new TestOutcome("[engine:agentlab-conformance]/[suite:" + suite + "]/[case:" + caseId + "]/[mode:"
                + "dual_agent]", "mode", Optional.of(suite), Optional.of(caseId), "dual_agent", caseId + " [dual_agent]",
                List.of("tag-" + i % 3), status, i, status == TestOutcome.Status.PASSED ? Optional.empty()
                : Optional.of("broken " + i));
    }

    private static void add(TestLog log, int from, int to) {
        for (int i = from; i < to; i++) {
            log.add(test("s" + i % 4, i, i % 3 == 0 ? TestOutcome.Status.FAILED : TestOutcome.Status.PASSED));
        }
    }

    @Test
    @DisplayName("after a thousand more tests the log holds what it held before them; the broken are counted")
    void keepsNoTestInMemory() {
        try (TestLog log = new TestLog()) {
            add(log, 0, 1_600); // past the broken tests it lists
            long early = Footprint.of(log);
            add(log, 1_600, 2_600);
            assertThat(Footprint.of(log)).as("elements held after 2,600 tests against 1,600").isEqualTo(early);
            assertThat(log.size()).isEqualTo(2_600);
            assertThat(log.brokenCount()).isEqualTo(867);
            assertThat(log.broken()).hasSize(TestLog.LISTED_BROKEN);
            assertThat(log.count(TestOutcome.Status.PASSED)).isEqualTo(1_733);
        }
    }

    @Test
    @DisplayName("a suite's tests read back in report order, failures first; suites with failures first, gates last")
    void readBackInReportOrder() {
        try (TestLog log = new TestLog()) {
            log.add(test("b", 2, TestOutcome.Status.PASSED));
            log.add(new TestOutcome("[engine:agentlab-conformance]/[gates:run]/[gate:parity]", "gate",
                    Optional.empty(), Optional.empty(), "parity", "parity", List.of(), TestOutcome.Status.PASSED, 0,
                    Optional.empty()));
            log.add(test("b", 1, TestOutcome.Status.PASSED));
            log.add(test("a", 3, TestOutcome.Status.PASSED));
            log.add(test("b", 4, TestOutcome.Status.FAILED));
            assertThat(log.suites()).extracting(TestLog.Suite::name).containsExactly("b", "a", TestLog.GATES);
            List<String> b = new ArrayList<>();
            log.forEach("b", test -> b.add(test.caseId().orElseThrow()));
            assertThat(b).containsExactly("case-4", "case-1", "case-2");
            assertThat(log.all()).hasSize(5).first().satisfies(test -> assertThat(test.caseId()).contains("case-4"));
            assertThat(log.all().get(1)).as("read back as written").isEqualTo(test("a", 3, TestOutcome.Status.PASSED));
            assertThat(log.filterModes()).containsExactly("dual_agent", "gate");
            assertThat(log.tags()).containsExactly("tag-0", "tag-1", "tag-2");
        }
    }
}
