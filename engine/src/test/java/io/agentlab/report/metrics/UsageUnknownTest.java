package io.agentlab.report.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentlab.kernel.api.InvocationMode;
import io.agentlab.runtime.llm.CallRole;
import io.agentlab.runtime.llm.Json;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * A call without usage (a server error, a provider that reports none) makes its turn's tokens unknown, never zero
 * ({@code docs/design.md#usage-missing-unknown}): before, a run where every other turn failed showed half the real
 * prompt tokens per turn.
 */
class UsageUnknownTest {

    private static TurnSample turn(int index, TurnSample.Call... calls) {
        return new TurnSample("s", "c", index, InvocationMode.DUAL_AGENT, Optional.of(Duration.ofMillis(100)),
                Duration.ofMillis(300), Optional.empty(), Duration.ofMillis(400), true, List.of(calls), 0, List.of(),
                Optional.empty(), List.of(), Optional.empty(), TurnRecord.Timing.LIVE, false);
    }

    private static TurnSample.Call call(CallRole role, long prompt, long completion) {
        return new TurnSample.Call(role, Duration.ofMillis(50), prompt, completion, true);
    }

    private static TurnSample.Call failed(CallRole role) {
        return new TurnSample.Call(role, Duration.ZERO, 0, 0, false);
    }

    @Test
    @DisplayName("turns without usage are left out of token sums and averages and counted as usage unknown")
    void missingUsageIsUnknown() {
        List<TurnSample> turns = List.of(
                turn(0, call(CallRole.CHAT, 127, 9)),
                turn(1, failed(CallRole.CHAT)),
                turn(2, call(CallRole.CHAT, 131, 11), call(CallRole.EVENT_AGENT, 60, 5)),
                turn(3, call(CallRole.CHAT, 120, 7), failed(CallRole.FOLLOW_UP)),
                turn(4, call(CallRole.CHAT, 125, 8), failed(CallRole.EVENT_AGENT)));
        ModeMetrics metrics = ModeMetrics.of(InvocationMode.DUAL_AGENT, turns);

        assertThat(metrics.value(Metric.CHAT_PROMPT_TOKENS_PER_TURN)).as("mean over turns 0, 2 and 4")
                .isEqualTo(Figure.round((127 + 131 + 125) / 3.0));
        assertThat(metrics.value(Metric.CHAT_PROMPT_TOKENS)).isEqualTo(127L + 131 + 125);
        assertThat(metrics.value(Metric.CHAT_COMPLETION_TOKENS_PER_TURN)).isEqualTo(Figure.round((9 + 11 + 8) / 3.0));
        assertThat(metrics.value(Metric.FALLBACK_TOKENS)).as("turn 4's EventAgent tokens are unknown").isEqualTo(65L);
        assertThat(metrics.value(Metric.USAGE_UNKNOWN_TURNS)).isEqualTo(3L);
        assertThat(metrics.value(Metric.LLM_CALLS_PER_TURN)).as("calls still count, usage or not")
                .isEqualTo(Figure.round(8 / 5.0));
    }

    @Test
    @DisplayName("metrics.json keeps whether each call reported usage")
    void roundTrip() {
        TurnRecord record = new TurnRecord("s", "c", 1, InvocationMode.DUAL_AGENT, "hi", TurnRecord.Timing.LIVE,
                Optional.empty(), TurnSample.ArgumentScore.NONE, new TurnRecord.Clock(Duration.ofMillis(400),
                Optional.of(Duration.ofMillis(100)), Duration.ofMillis(300), Optional.empty(), Optional.empty()),
                List.of(new TurnRecord.Call(CallRole.CHAT, "m", Duration.ZERO, Duration.ofMillis(50),
                                Duration.ofMillis(300), 127, 9, true, Optional.empty()),
                        new TurnRecord.Call(CallRole.FOLLOW_UP, "m", Duration.ofMillis(310), Duration.ZERO,
                                Duration.ZERO, 0, 0, false, Optional.of("provider_http_500"))),
                List.of(), List.of(), Optional.empty(), false, true, Optional.empty());
        Map<String, Object> turn = new LinkedHashMap<>();
        turn.put("suite", "s");
        turn.put("case", "c");
        turn.put("turn", 2);
        turn.put("mode", "dual_agent");
        turn.put("record", record.toMap());

        TurnRecord read = TurnRecord.fromJson(Json.tree(Json.write(turn)));

        assertThat(read).isEqualTo(record);
        assertThat(read.sample().calls()).extracting(TurnSample.Call::usageReported).containsExactly(true, false);
        assertThat(read.sample().usageKnown()).isFalse();
    }
}
