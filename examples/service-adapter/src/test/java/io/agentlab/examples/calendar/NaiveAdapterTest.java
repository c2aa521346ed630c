package io.agentlab.examples.calendar;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.testkit.engine.EventConditions.displayName;
import static org.junit.platform.testkit.engine.EventConditions.event;
import static org.junit.platform.testkit.engine.EventConditions.finishedWithFailure;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.message;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.platform.testkit.engine.EngineTestKit;

/** What the contract tells the author of the naive adapter, rule by rule. */
class NaiveAdapterTest {

    @Test
    @DisplayName("the naive adapter fails idempotency and failure mapping, each message naming the rule")
    void naiveAdapterFails() {
        var results = EngineTestKit.engine("junit-jupiter").selectors(selectClass(NaiveRestCalendarContractFixture.class))
                .execute();
        results.testEvents().assertThatEvents()
                .haveExactly(1, event(displayName("required_AC-CAL-01_idempotent_when_repeated"),
                        finishedWithFailure(message(m -> m.startsWith("required_AC-CAL-01_idempotent_when_repeated "
                                + "(docs/design.md#plugin-schedule-idempotent): the same key gave "
                                + "ScheduledEntry[entryId=entry-")
                                && m.endsWith("expected one entry, created once")))))
                .haveExactly(1, event(displayName("required_AC-CAL-02_idempotent_under_concurrency"),
                        finishedWithFailure(message(m -> m.contains("8 concurrent requests with one key gave entries")))))
                .haveExactly(1, event(displayName("optional_AC-CAL-05_outage_is_transient_failure"),
                        finishedWithFailure(message(m -> m.contains("with the service unavailable the adapter threw "
                                + "java.lang.IllegalStateException: HTTP 503; expected a PortException with a code")))));
        results.testEvents().assertStatistics(stats -> stats.failed(5).succeeded(2));
    }
}
