package io.agentlab.report.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.agentlab.report.metrics.Metric;
import io.agentlab.report.metrics.TurnRecord;
import io.agentlab.report.metrics.TurnSample;
import io.agentlab.kernel.api.InvocationMode;
import io.agentlab.runtime.llm.CallRole;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The evaluation's intervals, against published values, and what they say about the modes. */
class EvaluationTest {

    @Test
    @DisplayName("Wilson's interval and Newcombe's interval of a difference give the published figures")
    void publishedIntervals() {
        double[] wilson = Evaluation.wilson(8, 10);
        assertThat(wilson[0]).isCloseTo(0.4902, within(0.0001));
        assertThat(wilson[1]).isCloseTo(0.9433, within(0.0001));
        // Newcombe (1998), Statistics in Medicine 17:873-890, example (a): 56/70 against 48/80, method 10
        double[] a = Evaluation.wilson(56, 70);
        double[] b = Evaluation.wilson(48, 80);
        Evaluation.Estimate difference = Evaluation.newcombe(
                new Evaluation.Estimate(0.8, a[0], a[1], Optional.empty(), 70),
                new Evaluation.Estimate(0.6, b[0], b[1], Optional.empty(), 80));
        assertThat(difference.value()).isCloseTo(0.2, within(1e-9));
        assertThat(difference.low()).isCloseTo(0.0524, within(0.0001));
        assertThat(difference.high()).isCloseTo(0.3339, within(0.0001));
        assertThat(difference.excludesZero()).isTrue();
        assertThat(Evaluation.t(4)).isEqualTo(2.776);
        assertThat(Evaluation.t(13)).as("rounded down to 12 degrees: wider, never narrower").isEqualTo(2.179);
    }

    private static TurnSample turn(InvocationMode mode, int repetition, long ttftMs, boolean hit) {
        return new TurnSample("s", repetition == 1 ? "c" : "c@r" + repetition, 0, mode,
                Optional.of(Duration.ofMillis(ttftMs)), Duration.ofMillis(ttftMs + 100), Optional.empty(),
                Duration.ofMillis(ttftMs + 200), true, List.of(new TurnSample.Call(CallRole.CHAT,
                Duration.ofMillis(ttftMs), 100, 10, true)), 1, List.of(), Optional.of(List.of("a.b.c")),
                List.of(hit ? "a.b.c" : "x.y.z"), Optional.empty(), TurnRecord.Timing.LIVE, false);
    }

    @Test
    @DisplayName("a clear difference in TTFT is beyond noise, an equal selection rate is not; spread is per repetition")
    void modes() {
        List<TurnSample> samples = new ArrayList<>();
        for (int repetition = 1; repetition <= 4; repetition++) {
            for (int i = 0; i < 25; i++) {
                samples.add(turn(InvocationMode.DUAL_AGENT, repetition, 300 + (i % 5), i % 5 != 0));
                samples.add(turn(InvocationMode.CHAT_AGENT_TOOLS, repetition, 400 + (i % 5), i % 5 != 1));
            }
        }
        Evaluation evaluation = Evaluation.of(samples);

        assertThat(evaluation.repetitions()).isEqualTo(4);
        Evaluation.Row ttft = evaluation.row(Metric.FIRST_VISIBLE_TTFT).orElseThrow();
        assertThat(ttft.modes().get(InvocationMode.DUAL_AGENT).value()).isCloseTo(302, within(1e-9));
        assertThat(ttft.difference().orElseThrow().value()).isCloseTo(100, within(1e-9));
        assertThat(ttft.difference().orElseThrow().excludesZero()).isTrue();
        Evaluation.Row recall = evaluation.row(Metric.SELECTION_RECALL).orElseThrow();
        assertThat(recall.modes().get(InvocationMode.DUAL_AGENT).value()).isCloseTo(0.8, within(1e-9));
        assertThat(recall.modes().get(InvocationMode.DUAL_AGENT).covers(0.8)).isTrue();
        assertThat(recall.modes().get(InvocationMode.DUAL_AGENT).n()).isEqualTo(100);
        assertThat(recall.modes().get(InvocationMode.DUAL_AGENT).spread()).contains(0.0);
        assertThat(recall.difference().orElseThrow().excludesZero()).isFalse();
        assertThat(evaluation.markdown()).contains("| event-selection recall | 80.0 % [", "| no |", "| yes |",
                "4 repetitions per case and mode");
        assertThat(evaluation.row(Metric.CHAT_PROMPT_TOKENS)).as("a total is a count, not an estimate").isEmpty();
    }
}
