package io.agentlab.report.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentlab.kernel.api.InvocationMode;
import io.agentlab.report.metrics.Figure;
import io.agentlab.report.metrics.Metric;
import io.agentlab.report.metrics.ModeMetrics;
import io.agentlab.report.metrics.Samples;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The reports' headline says no more than the comparison's verdicts, per family of measures (docs/engine.md#headline). */
class HeadlineTest {

    @Test
    @DisplayName("per family: the mode that won its measures, by how much and how sure; mixed and even said as such")
    void families() {
        List<Comparison> comparisons = List.of(
                compare(Metric.FIRST_VISIBLE_TTFT, distribution(100), distribution(400)),
                compare(Metric.TURN_WALL_TIME, distribution(500), distribution(500)),
                compare(Metric.CHAT_PROMPT_TOKENS_PER_TURN, mean(900), mean(300)),
                compare(Metric.SELECTION_RECALL, rate(45, 50), rate(30, 50)),
                compare(Metric.ARGUMENT_ACCURACY_AFTER, rate(30, 50), rate(45, 50)),
                compare(Metric.LOGICAL_EVENTS, mean(1), mean(1)));

        Headline headline = Headline.of(comparisons, false);

        assertThat(headline.families()).extracting(f -> f.kind().label())
                .as("logical events describe the run: no family").containsExactly("speed", "tokens", "accuracy");
        Headline.Family speed = headline.families().get(0);
        assertThat(speed.better()).contains(InvocationMode.DUAL_AGENT);
        assertThat(speed.text()).isEqualTo("speed: dual_agent better on 1 of 2 measures — first-visible TTFT "
                + "(ms p50/p95) dual_agent 104.0 / 109.0 vs chat_agent_tools 404.0 / 409.0, tools ÷ dual 3.88×, "
                + "dual_agent better (Mann-Whitney p < 0.001)");
        assertThat(headline.families().get(1).text()).startsWith("tokens: chat_agent_tools better on 1 of 1 measure —");
        assertThat(headline.families().get(2).better()).isEmpty();
        assertThat(headline.families().get(2).text())
                .startsWith("accuracy: mixed: dual_agent better on 1, chat_agent_tools on 1 of 2");
        assertThat(headline.summary()).contains("dual_agent is better on speed; chat_agent_tools is better on tokens; "
                + "neither on accuracy.");
        assertThat(headline.summary(0)).isEqualTo(headline.summary());
        // a run that fails (a runtime misconfigured fails every turn in both modes alike) says so after its answer
        assertThat(headline.summary(33)).contains(headline.summary().get() + " 33 tests broke, so this compares a "
                + "run that does not pass.");
        assertThat(headline.summary(1)).get().asString().endsWith(" 1 test broke, so this compares a run that does "
                + "not pass.");
    }

    @Test
    @DisplayName("timings a latency model made get no verdict in the headline either, and say so")
    void modelledTimings() {
        List<Comparison> comparisons = Comparison.of(modes(InvocationMode.DUAL_AGENT, distribution(100), mean(300)),
                modes(InvocationMode.CHAT_AGENT_TOOLS, distribution(400), mean(900)), true).stream()
                .filter(c -> c.metric() == Metric.FIRST_VISIBLE_TTFT || c.metric() == Metric.CHAT_PROMPT_TOKENS_PER_TURN)
                .toList();

        Headline headline = Headline.of(comparisons, true);

        Headline.Family speed = headline.families().get(0);
        assertThat(speed.modelled()).isTrue();
        assertThat(speed.dualWins()).as("the comparison withheld the verdict").isZero();
        assertThat(speed.text()).startsWith("speed: no verdict, the latency model made these timings (first-visible");
        assertThat(headline.families().get(1).modelled()).as("tokens are counted, never modelled").isFalse();
        assertThat(headline.summary()).contains("dual_agent is better on tokens; neither on speed.");
    }

    @Test
    @DisplayName("one mode alone: nothing to compare, no headline")
    void oneMode() {
        Comparison alone = Comparison.of(Metric.FIRST_VISIBLE_TTFT,
                modes(InvocationMode.DUAL_AGENT, distribution(100), mean(1)), null);
        assertThat(Headline.of(List.of(alone), false).summary()).isEmpty();
    }

    private static ModeMetrics modes(InvocationMode mode, Figure ttft, Figure tokens) {
        return new ModeMetrics(mode, 10, Map.of(Metric.FIRST_VISIBLE_TTFT, ttft, Metric.CHAT_PROMPT_TOKENS_PER_TURN,
                tokens));
    }

    private static Comparison compare(Metric metric, Figure dual, Figure tools) {
        return Comparison.of(metric, new ModeMetrics(InvocationMode.DUAL_AGENT, 10, Map.of(metric, dual)),
                new ModeMetrics(InvocationMode.CHAT_AGENT_TOOLS, 10, Map.of(metric, tools)));
    }

    private static Figure distribution(double start) {
        return Figure.Distribution.of(IntStream.range(0, 10).mapToObj(i -> start + i).toList());
    }

    private static Figure mean(double start) {
        List<Double> samples = IntStream.range(0, 10).mapToObj(i -> start + i).toList();
        return new Figure.Scalar(samples.stream().mapToDouble(d -> d).average().orElseThrow(), Samples.of(samples),
                null, null);
    }

    private static Figure rate(long successes, long trials) {
        return new Figure.Scalar((double) successes / trials, Samples.NONE, BigDecimal.valueOf(successes),
                BigDecimal.valueOf(trials));
    }
}
