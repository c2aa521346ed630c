package io.agentlab.report.gates;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The TTFT-ratio gate decides with its noise (docs/configuration.md#gates): identical runs whose true ratio sits
 * clearly on one side of the threshold get the same verdict every time, where comparing two p50s flipped; and a
 * couple of turns get "not enough samples", never a pass or a breach. Runs are simulated with seeded noise: each turn's
 * TTFT is its mode's true value times a log-normal jitter of 25 %, about what a loaded 2-core machine adds.
 */
class TtftRatioGateTest {

    private static final double THRESHOLD = 1.5;
    private static final int RUNS = 500;

    private static List<Double> turns(Random random, int n, double milliseconds) {
        List<Double> samples = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            samples.add(milliseconds * Math.exp(0.25 * random.nextGaussian()));
        }
        return samples;
    }

    private static double[] array(List<Double> values) {
        return values.stream().mapToDouble(Double::doubleValue).toArray();
    }

    private static double median(List<Double> values) {
        List<Double> sorted = values.stream().sorted().toList();
        return sorted.get(sorted.size() / 2);
    }

    /** How many of {@link #RUNS} identical simulated runs breach, with the gate and with the old p50 rule. */
    private static int[] breaches(double trueRatio, int turns) {
        Random random = new Random(42);
        int gate = 0;
        int p50 = 0;
        for (int run = 0; run < RUNS; run++) {
            List<Double> dual = turns(random, turns, 3.0);
            List<Double> tools = turns(random, turns, 3.0 * trueRatio);
            gate += Gates.ttftRatio(array(dual), array(tools), THRESHOLD) instanceof Gate.Verdict.Breach ? 1 : 0;
            p50 += median(tools) / median(dual) > THRESHOLD ? 1 : 0;
        }
        return new int[] {gate, p50};
    }

    @Test
    @DisplayName("a true ratio of 1.3 under a 1.5 threshold: the gate never breaches; the old p50 rule did, now and then")
    void belowThresholdNeverFlips() {
        int[] counts = breaches(1.3, 12);
        assertThat(counts[0]).as("breaches of %d identical runs, with the noise test", RUNS).isZero();
        assertThat(counts[1]).as("breaches of %d identical runs, comparing p50s (the old rule)", RUNS).isPositive();
    }

    @Test
    @DisplayName("a true ratio of 3 over a 1.5 threshold: the gate breaches in every run")
    void farAboveAlwaysBreaches() {
        assertThat(breaches(3.0, 12)[0]).isEqualTo(RUNS);
    }

    @Test
    @DisplayName("two turns a mode: not enough samples, neither pass nor breach; the detail names the test")
    void tooFewSamples() {
        Gate.Verdict verdict = Gates.ttftRatio(new double[] {3.0, 3.1}, new double[] {9.0, 9.5}, THRESHOLD);
        assertThat(verdict).isInstanceOfSatisfying(Gate.Verdict.Skip.class, skip -> assertThat(skip.reason())
                .isEqualTo("not enough samples to judge: 2 dual_agent and 2 chat_agent_tools turns with a first "
                        + "visible token, at least 5 each"));
        Gate.Verdict judged = Gates.ttftRatio(new double[] {3.0, 3.1, 2.9, 3.0, 3.2},
                new double[] {9.0, 9.5, 9.1, 8.8, 9.3}, THRESHOLD);
        assertThat(judged).isInstanceOfSatisfying(Gate.Verdict.Breach.class, breach -> assertThat(breach.detail())
                .contains("= 3", "beyond noise", "one-sided Mann-Whitney p", "agentlab.gates.max-ttft-ratio"));
    }
}
