package io.agentlab.report.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentlab.kernel.api.InvocationMode;
import io.agentlab.report.RunMetadata;
import io.agentlab.report.metrics.TurnRecord;
import io.agentlab.report.metrics.TurnSample;
import io.agentlab.report.metrics.TurnTimeline;
import io.agentlab.runtime.llm.CallRole;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The footnote beside the timings says what made them, and only when it applies: the latency model, recorded
 * offsets, or at replay speed 0 the kit's own time alone (docs/cli.md#commands).
 */
class ModelledNoteTest {

    private static TurnTimeline turn(int i, TurnRecord.Timing timing) {
        return new TurnRecord("s", "c" + i, 0, InvocationMode.DUAL_AGENT, "hi", timing, Optional.empty(),
                TurnSample.ArgumentScore.NONE, new TurnRecord.Clock(Duration.ofMillis(500),
                Optional.of(Duration.ofMillis(40)), Duration.ofMillis(400), Optional.empty(), Optional.empty()),
                List.of(new TurnRecord.Call(CallRole.CHAT, "m", Duration.ZERO, Duration.ofMillis(40),
                        Duration.ofMillis(400), 100, 10, true, Optional.empty())),
                List.of(), List.of(), Optional.empty(), false, false, Optional.empty()).timeline();
    }

    private static Optional<String> note(double speed, TurnRecord.Timing... timings) {
        return note(RunMetadata.inProcess("a kernel"), speed, timings);
    }

    private static Optional<String> note(String subject, double speed, TurnRecord.Timing... timings) {
        RunMetadata meta = new RunMetadata(Instant.EPOCH, Instant.EPOCH.plusSeconds(1), "0.1-test", Optional.empty(),
                "recorded", speed, List.of("dual_agent"), List.of("m"), "a kernel", "a machine", "whole suites",
                subject, Map.of());
        List<TurnTimeline> turns = new java.util.ArrayList<>();
        for (int i = 0; i < timings.length; i++) {
            turns.add(turn(i, timings[i]));
        }
        return new RunReport(meta, List.of(), List.of(), turns, List.of(), List.of(), Map.of(), List.of())
                .modelledNote();
    }

    @Test
    @DisplayName("at a speed above 0, the share of turns the latency model timed, and how many replayed recordings")
    void modelled() {
        assertThat(note(0.5, TurnRecord.Timing.MODELLED, TurnRecord.Timing.RECORDED, TurnRecord.Timing.MODELLED))
                .hasValue("timings of 2 of 3 turns come from the latency model of synthesized streams, not a "
                        + "measurement; 1 replay recorded offsets (replay speed 0.5)");
    }

    @Test
    @DisplayName("at speed 0, the kit's own time: no model and no recording was waited for")
    void speedZero() {
        assertThat(note(0, TurnRecord.Timing.MODELLED, TurnRecord.Timing.RECORDED, TurnRecord.Timing.LIVE))
                .hasValue("timings of 2 of 3 turns are the kit's own time alone: at replay speed 0 no modelled or "
                        + "recorded provider latency is waited for");
    }

    @Test
    @DisplayName("at speed 0 over the wire, the kit's and the runtime's own time: the runtime's processing is in it")
    void speedZeroOverTheWire() {
        assertThat(note("over the wire: http://127.0.0.1:{port} (started: python3 r.py)", 0,
                TurnRecord.Timing.MODELLED, TurnRecord.Timing.MODELLED))
                .hasValue("timings of 2 of 2 turns are the kit's and the runtime's own time: at replay speed 0 no "
                        + "modelled or recorded provider latency is waited for");
    }

    @Test
    @DisplayName("no footnote where no latency model timed a turn: the reports mark timings 'model' by it")
    void none() {
        assertThat(note(1, TurnRecord.Timing.RECORDED, TurnRecord.Timing.LIVE)).isEmpty();
        assertThat(note(0, TurnRecord.Timing.RECORDED, TurnRecord.Timing.LIVE)).isEmpty();
    }
}
