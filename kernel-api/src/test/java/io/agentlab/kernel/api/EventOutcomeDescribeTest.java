package io.agentlab.kernel.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * An outcome in words, as the wire's {@code TOOL_CALL_RESULT.error} and the kit's failure messages carry it
 * (docs/wire.md#outcomes): never a record's {@code toString}, which names Java fields.
 */
class EventOutcomeDescribeTest {

    private static final EventOutcome OFFLINE = new EventOutcome.Failed("device_offline", "the speaker is offline",
            false, 1);

    @Test
    @DisplayName("each outcome in the words a client reads, a shared outcome as the one it shares")
    void words() {
        assertThat(OFFLINE.describe()).isEqualTo("device_offline: the speaker is offline");
        assertThat(new EventOutcome.Failed("port_unreachable", "", true, 2).describe()).isEqualTo("port_unreachable");
        assertThat(new EventOutcome.TimedOut(Duration.ofMillis(1500), EventOutcome.TimeoutScope.EVENT, true)
                .describe()).isEqualTo("timed out after 1500 ms (event)");
        assertThat(new EventOutcome.TimedOut(Duration.ZERO, EventOutcome.TimeoutScope.BATCH, true).describe())
                .as("a limit not known").isEqualTo("timed out (batch)");
        assertThat(new EventOutcome.Rejected(EventOutcome.RejectionReason.UNKNOWN_EVENT, "no event x.y", List.of())
                .describe()).isEqualTo("unknown_event: no event x.y");
        assertThat(new EventOutcome.NeedsClarification("Which time?", Set.of("time")).describe())
                .isEqualTo("Which time?");
        assertThat(new EventOutcome.Succeeded(Map.of("level", 30), 1).describe()).isEqualTo("succeeded");
        assertThat(new EventOutcome.Succeeded(Map.of(), 2).describe()).isEqualTo("succeeded after 2 attempts");
        assertThat(new EventOutcome.Deduplicated("e1", OFFLINE).describe()).isEqualTo(OFFLINE.describe());
        assertThat(new EventOutcome.Replayed(new EventOutcome.Deduplicated("e1", OFFLINE)).describe())
                .isEqualTo(OFFLINE.describe());
    }

    @Test
    @DisplayName("a summary: the status, then what the outcome says beyond it, never the status twice")
    void summary() {
        assertThat(OFFLINE.summary()).isEqualTo("failed (device_offline: the speaker is offline)");
        assertThat(new EventOutcome.Succeeded(Map.of(), 1).summary()).isEqualTo("succeeded");
        assertThat(new EventOutcome.Succeeded(Map.of(), 2).summary()).isEqualTo("succeeded after 2 attempts");
        assertThat(new EventOutcome.NeedsClarification("", Set.of("time")).summary()).isEqualTo("needs_clarification");
        assertThat(new EventOutcome.Deduplicated("e1", new EventOutcome.Succeeded(Map.of(), 1)).summary())
                .isEqualTo("deduplicated (succeeded)");
        assertThat(new EventOutcome.TimedOut(Duration.ofMillis(1500), EventOutcome.TimeoutScope.EVENT, true).summary())
                .isEqualTo("timed out after 1500 ms (event)");
        assertThat(new EventOutcome.Failed("failed_twice", "again", false, 1).summary())
                .as("a code that starts like the status").isEqualTo("failed (failed_twice: again)");
    }
}
