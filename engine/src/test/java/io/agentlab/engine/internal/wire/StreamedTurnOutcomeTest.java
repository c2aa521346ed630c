package io.agentlab.engine.internal.wire;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentlab.agui.AguiProfile;
import io.agentlab.kernel.api.EventOutcome;
import io.agentlab.kernel.api.EventResult;
import io.agentlab.kernel.api.EventTimings;
import io.agentlab.kernel.api.InvocationMode;
import io.agentlab.kernel.api.ResolutionReport;
import io.agentlab.runtime.audit.AguiEmitter;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Over the wire an outcome is read back from its {@code TOOL_CALL_RESULT} (docs/wire.md#outcomes): a failure message
 * names what the runtime said, in the runtime's words, not its code twice nor a timeout's limit as 0 ms.
 */
class StreamedTurnOutcomeTest {

    /** The outcome the kit rebuilds from the stream the reference runtime emits for {@code outcome}. */
    private static EventOutcome readBack(EventOutcome outcome) {
        AguiEmitter agui = new AguiEmitter(AguiProfile.AGUI_1_0, "s1", "s1-t1");
        EventResult result = new EventResult("e1", "device.volume.adjust", 0, Map.of("value", 30),
                ResolutionReport.notAttempted(), new EventTimings(Duration.ZERO, Optional.empty(), Optional.empty(),
                Duration.ZERO), outcome);
        agui.runStarted();
        agui.stepStarted("events");
        agui.toolCallStarted("e1", "device.volume.adjust", "s1-t1-m0");
        agui.toolCallArgs(result);
        agui.toolCallEnded("e1");
        agui.toolCallResult(result);
        agui.stepFinished("events");
        agui.runFinished();
        StreamedTurn.Rebuilt rebuilt = StreamedTurn.of(InvocationMode.CHAT_AGENT_TOOLS, "s1-t1", Optional.empty(),
                Set.of(), agui.events(), List.of(), new StreamedTurn.Marks(Optional.empty(), Optional.empty(),
                        Optional.empty(), Duration.ZERO));
        return rebuilt.result().batch().orElseThrow().results().get(0).outcome();
    }

    @Test
    @DisplayName("each outcome read back describes itself as the runtime described it: a message or none, a timeout's "
            + "limit, the outcome a deduplicated or replayed event shares")
    void sameWords() {
        EventOutcome offline = new EventOutcome.Failed("device_offline", "the speaker is offline", false, 1);
        EventOutcome asked = new EventOutcome.NeedsClarification("Which volume?", Set.of("value"));
        EventOutcome timedOut = new EventOutcome.TimedOut(Duration.ofMillis(1500), EventOutcome.TimeoutScope.EVENT,
                true);
        for (EventOutcome outcome : List.of(offline, asked, timedOut,
                new EventOutcome.Failed("port_unreachable", "", true, 2),
                new EventOutcome.Failed("device_offline", "device_offline: twice", false, 1),
                new EventOutcome.Rejected(EventOutcome.RejectionReason.INVALID_ARGUMENTS, "/value: above 100",
                        List.of()),
                new EventOutcome.Rejected(EventOutcome.RejectionReason.UNKNOWN_EVENT, "", List.of()),
                new EventOutcome.Deduplicated("e0", offline), new EventOutcome.Replayed(asked),
                new EventOutcome.Replayed(timedOut))) {
            EventOutcome back = readBack(outcome);
            assertThat(back.status()).as(outcome.describe()).isEqualTo(outcome.status());
            assertThat(back.describe()).isEqualTo(outcome.describe());
        }
    }
}
