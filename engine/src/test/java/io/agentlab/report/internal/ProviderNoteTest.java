package io.agentlab.report.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentlab.kernel.api.InvocationMode;
import io.agentlab.report.RunMetadata;
import io.agentlab.report.metrics.ModeMetrics;
import io.agentlab.report.metrics.TurnRecord;
import io.agentlab.report.metrics.TurnSample;
import io.agentlab.runtime.llm.CallRole;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * A runtime over the wire that sends its model calls elsewhere fails every case with its own error; the run says the
 * cause once, and only when no turn reached the kit's provider and some ended with a provider error
 * (docs/wire.md#no-provider-call).
 */
class ProviderNoteTest {

    private static final String WIRE = "over the wire: http://127.0.0.1:4100 (started: python3 r.py)";

    /** A turn with {@code calls} model calls, ended by {@code error}. */
    private static TurnRecord turn(int i, InvocationMode mode, int calls, Optional<String> error) {
        List<TurnRecord.Call> made = new ArrayList<>();
        for (int c = 0; c < calls; c++) {
            made.add(new TurnRecord.Call(CallRole.CHAT, "m", Duration.ZERO, Duration.ofMillis(40),
                    Duration.ofMillis(400), 100, 10, true, Optional.empty()));
        }
        return new TurnRecord("s", "c" + i, 0, mode, "hi", TurnRecord.Timing.MODELLED, Optional.empty(),
                TurnSample.ArgumentScore.NONE, new TurnRecord.Clock(Duration.ofMillis(500), Optional.empty(),
                Duration.ofMillis(400), Optional.empty(), Optional.empty()), made, List.of(), List.of(),
                Optional.empty(), false, false, error, true);
    }

    private static Optional<String> note(String subject, TurnRecord... turns) {
        RunMetadata meta = new RunMetadata(Instant.EPOCH, Instant.EPOCH.plusSeconds(1), "0.1-test", Optional.empty(),
                "recorded", 0, List.of("dual_agent", "chat_agent_tools"), List.of("m"), "a kernel", "a machine",
                "whole suites", subject, Map.of());
        List<ModeMetrics> modes = new ArrayList<>();
        for (InvocationMode mode : InvocationMode.values()) {
            List<TurnSample> samples = java.util.Arrays.stream(turns).filter(t -> t.mode() == mode)
                    .map(TurnRecord::sample).toList();
            if (!samples.isEmpty()) {
                modes.add(ModeMetrics.of(mode, samples));
            }
        }
        return new RunReport(meta, List.of(), modes, List.of(), List.of(), List.of(), Map.of(), List.of())
                .providerNote();
    }

    private static final Optional<String> CONNECTION = Optional.of("provider_connection");

    @Test
    @DisplayName("no model call in any turn of either mode, and provider errors: one cause line counting both")
    void noCallAnywhere() {
        assertThat(note(WIRE, turn(1, InvocationMode.DUAL_AGENT, 0, CONNECTION),
                turn(2, InvocationMode.CHAT_AGENT_TOOLS, 0, CONNECTION),
                turn(3, InvocationMode.CHAT_AGENT_TOOLS, 0, Optional.empty())))
                .hasValue("cause: the kit's provider served no model call in any of the 3 turns, and 2 of them "
                        + "ended with a provider error: the runtime's model calls must go to the "
                        + "AGENTLAB_PROVIDER_BASE_URL the kit gives it (docs/wire.md#no-provider-call)");
    }

    @Test
    @DisplayName("one turn among many that reached the provider is enough to say nothing: a mean rounds it away")
    void oneCallAmongMany() {
        List<TurnRecord> turns = new ArrayList<>();
        for (int i = 0; i < 30_000; i++) {
            turns.add(turn(i, InvocationMode.CHAT_AGENT_TOOLS, 0, CONNECTION));
        }
        turns.add(turn(30_000, InvocationMode.CHAT_AGENT_TOOLS, 1, Optional.empty()));
        assertThat(note(WIRE, turns.toArray(TurnRecord[]::new))).isEmpty();
    }

    @Test
    @DisplayName("nothing without a provider error, and nothing in-process, where the kit calls its own provider")
    void otherwiseNothing() {
        assertThat(note(WIRE, turn(1, InvocationMode.DUAL_AGENT, 0, Optional.of("RUN_CANCELED")))).isEmpty();
        assertThat(note(RunMetadata.inProcess("a kernel"), turn(1, InvocationMode.DUAL_AGENT, 0, CONNECTION)))
                .isEmpty();
        assertThat(note(WIRE)).isEmpty();
    }
}
