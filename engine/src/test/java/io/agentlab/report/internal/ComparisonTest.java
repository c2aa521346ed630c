package io.agentlab.report.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.agentlab.report.metrics.Figure;
import io.agentlab.report.metrics.Metric;
import io.agentlab.report.metrics.ModeMetrics;
import io.agentlab.report.metrics.Samples;
import io.agentlab.kernel.api.InvocationMode;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * A mode is called better only beyond noise, in the metric's better direction. Reference p-values are SciPy 1.17's
 * ({@code mannwhitneyu(method='asymptotic', use_continuity=True)}; the pooled z-test by hand with {@code norm.sf}).
 */
class ComparisonTest {

    @Test
    @DisplayName("Mann-Whitney U with tie and continuity correction matches SciPy's asymptotic p-values")
    void mannWhitney() {
        Statistics.Test separated = Statistics.mannWhitney(new double[] {1.0, 2.0, 3.0, 4.0, 5.0},
                new double[] {6.0, 7.0, 8.0, 9.0, 10.0});
        assertThat(separated.p()).isCloseTo(0.012185780355344813, within(1e-6));
        assertThat(separated.direction()).as("the second sample is larger").isEqualTo(1);
        Statistics.Test ties = Statistics.mannWhitney(new double[] {1.0, 2.0, 2.0, 3.0, 3.0, 3.0, 4.0},
                new double[] {2.0, 3.0, 4.0, 4.0, 5.0, 5.0, 6.0, 6.0});
        assertThat(ties.p()).isCloseTo(0.025144761173357368, within(1e-6));
        Statistics.Test mostlyTied = Statistics.mannWhitney(new double[] {5.0, 5.0, 5.0, 5.0, 5.0},
                new double[] {5.0, 5.0, 5.0, 5.0, 5.5});
        assertThat(mostlyTied.p()).isCloseTo(0.4237107971667934, within(1e-6));
        assertThat(Statistics.mannWhitney(new double[] {6.0, 7.0}, new double[] {1.0, 2.0}).direction())
                .isEqualTo(-1);
    }

    @Test
    @DisplayName("the pooled two-proportion z-test and the normal tail match SciPy")
    void proportions() {
        Statistics.Test test = Statistics.twoProportions(45, 50, 30, 50);
        assertThat(test.z()).isCloseTo(3.4641016151377553, within(1e-9));
        assertThat(test.p()).isCloseTo(0.0005320055051392477, within(1e-7));
        assertThat(test.direction()).isEqualTo(-1);
        assertThat(2 * Statistics.upperTail(1.0)).isCloseTo(0.31731050786291415, within(1e-7));
        assertThat(2 * Statistics.upperTail(0.1)).isCloseTo(0.920344325445942, within(1e-7));
    }

    @Test
    @DisplayName("lower is better for timings and tokens: the faster, leaner mode wins beyond noise")
    void lowerIsBetter() {
        Comparison ttft = compare(Metric.FIRST_VISIBLE_TTFT, distribution(100, 10), distribution(200, 10));
        assertThat(ttft.verdict()).isInstanceOfSatisfying(Comparison.Verdict.Better.class, better -> {
            assertThat(better.better()).isEqualTo(InvocationMode.DUAL_AGENT);
            assertThat(better.p()).isLessThan(Comparison.ALPHA);
        });
        assertThat(ttft.ratio()).hasValueSatisfying(r -> assertThat(r).isGreaterThan(1.9));
        Comparison tokens = compare(Metric.CHAT_PROMPT_TOKENS_PER_TURN, mean(600, 10), mean(300, 10));
        assertThat(tokens.verdict()).isInstanceOfSatisfying(Comparison.Verdict.Better.class,
                better -> assertThat(better.better()).isEqualTo(InvocationMode.CHAT_AGENT_TOOLS));
        assertThat(tokens.verdict().text()).startsWith("chat_agent_tools better (Mann-Whitney p < 0.001)");
    }

    @Test
    @DisplayName("timings a latency model made get no verdict, whatever their samples say; tokens still do")
    void modelledTimingsGetNoVerdict() {
        ModeMetrics dual = new ModeMetrics(InvocationMode.DUAL_AGENT, 10, Map.of(Metric.FIRST_VISIBLE_TTFT,
                distribution(100, 10), Metric.CHAT_PROMPT_TOKENS_PER_TURN, mean(600, 10)));
        ModeMetrics tools = new ModeMetrics(InvocationMode.CHAT_AGENT_TOOLS, 10, Map.of(Metric.FIRST_VISIBLE_TTFT,
                distribution(200, 10), Metric.CHAT_PROMPT_TOKENS_PER_TURN, mean(300, 10)));
        List<Comparison> modelled = Comparison.of(dual, tools, true);
        assertThat(verdictOf(modelled, Metric.FIRST_VISIBLE_TTFT)).isEqualTo(
                new Comparison.Verdict.None(Comparison.MODELLED));
        assertThat(verdictOf(modelled, Metric.CHAT_PROMPT_TOKENS_PER_TURN)).isInstanceOf(Comparison.Verdict.Better.class);
        assertThat(verdictOf(Comparison.of(dual, tools, false), Metric.FIRST_VISIBLE_TTFT))
                .as("measured timings keep their verdict").isInstanceOf(Comparison.Verdict.Better.class);
    }

    private static Comparison.Verdict verdictOf(List<Comparison> comparisons, Metric metric) {
        return comparisons.stream().filter(c -> c.metric() == metric).findFirst().orElseThrow().verdict();
    }

    @Test
    @DisplayName("higher is better for rates, judged by the two-proportion test")
    void higherIsBetter() {
        Comparison recall = compare(Metric.SELECTION_RECALL, rate(45, 50), rate(30, 50));
        assertThat(recall.verdict()).isInstanceOfSatisfying(Comparison.Verdict.Better.class, better ->
                assertThat(better.better()).isEqualTo(InvocationMode.DUAL_AGENT));
        assertThat(compare(Metric.SELECTION_RECALL, rate(45, 50), rate(44, 50)).verdict())
                .isInstanceOf(Comparison.Verdict.WithinNoise.class);
        assertThat(compare(Metric.SELECTION_RECALL, rate(50, 50), rate(50, 50)).verdict())
                .isInstanceOf(Comparison.Verdict.Same.class);
        assertThat(compare(Metric.SELECTION_RECALL, rate(3, 3), rate(2, 3)).verdict().text())
                .startsWith("too few counted to judge");
    }

    @Test
    @DisplayName("no verdict without enough samples, for overlapping samples, or for a count that describes the run")
    void noVerdict() {
        assertThat(compare(Metric.TURN_WALL_TIME, distribution(100, 3), distribution(300, 3)).verdict().text())
                .isEqualTo("too few samples to judge (3 and 3)");
        assertThat(compare(Metric.TURN_WALL_TIME, distribution(100, 10), distribution(101, 10)).verdict())
                .isInstanceOf(Comparison.Verdict.WithinNoise.class);
        assertThat(compare(Metric.TURN_WALL_TIME, distribution(100, 10), distribution(100, 10)).verdict())
                .isInstanceOf(Comparison.Verdict.Same.class);
        assertThat(compare(Metric.LOGICAL_EVENTS, mean(5, 10), mean(6, 10)).verdict().text())
                .isEqualTo("describes the run");
        assertThat(Comparison.of(Metric.TURN_WALL_TIME, modeMetrics(InvocationMode.DUAL_AGENT, Metric.TURN_WALL_TIME,
                distribution(1, 10)), null).verdict().text()).isEqualTo("one mode did not run");
    }

    private static Comparison compare(Metric metric, Figure dual, Figure tools) {
        return Comparison.of(metric, modeMetrics(InvocationMode.DUAL_AGENT, metric, dual),
                modeMetrics(InvocationMode.CHAT_AGENT_TOOLS, metric, tools));
    }

    private static ModeMetrics modeMetrics(InvocationMode mode, Metric metric, Figure figure) {
        return new ModeMetrics(mode, 10, Map.of(metric, figure));
    }

    /** {@code count} samples from {@code start}, one apart. */
    private static Figure distribution(double start, int count) {
        return Figure.Distribution.of(IntStream.range(0, count).mapToObj(i -> start + i).toList());
    }

    private static Figure mean(double start, int count) {
        List<Double> samples = IntStream.range(0, count).mapToObj(i -> start + i).toList();
        return new Figure.Scalar(samples.stream().mapToDouble(d -> d).average().orElseThrow(), Samples.of(samples),
                null, null);
    }

    private static Figure rate(long successes, long trials) {
        return new Figure.Scalar((double) successes / trials, Samples.NONE, BigDecimal.valueOf(successes),
                BigDecimal.valueOf(trials));
    }
}
