package io.agentlab.report.internal;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.agentlab.report.metrics.Figure;
import io.agentlab.report.metrics.Metric;
import io.agentlab.report.metrics.ModeMetrics;
import io.agentlab.report.metrics.Samples;
import io.agentlab.kernel.api.InvocationMode;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * One measure of the two modes side by side, with a verdict that names a better mode only when the difference is
 * beyond noise. How noise is judged (the same words are on every report):
 * <ul>
 *   <li>timings, tokens, calls and costs: a two-sided Mann–Whitney U test (normal approximation with tie and
 *   continuity correction) of the two modes' samples — one per turn, or per event — at p &lt; {@value #ALPHA}, with at
 *   least {@value #MIN_SAMPLES} samples in each mode;</li>
 *   <li>rates: a two-sided two-proportion z-test at the same level, when both modes counted at least
 *   {@value #MIN_SAMPLES} and the pooled successes and failures are each at least {@value #MIN_SAMPLES};</li>
 *   <li>anything else (a count describing the run, a cost per success) is shown without a verdict.</li>
 * </ul>
 *
 * @param metric  the measure
 * @param dual    dual_agent's figure, null when that mode did not run
 * @param tools   chat_agent_tools's figure, null when that mode did not run
 * @param verdict what the figures say
 */
@API(status = INTERNAL, since = "0.1")
public record Comparison(Metric metric, Figure dual, Figure tools, Verdict verdict) {

    /** The significance level. */
    public static final double ALPHA = 0.01;
    /** The fewest samples (or counted events) per mode a verdict needs. */
    public static final int MIN_SAMPLES = 5;
    /** The rule, as the reports print it. */
    public static final String NOISE_RULE = "A mode is called better only when the difference is beyond noise: "
            + "timings, tokens, calls and costs by a two-sided Mann-Whitney U test of the per-turn (or per-event) "
            + "samples, rates by a two-sided two-proportion z-test, each at p < " + ALPHA + " with at least "
            + MIN_SAMPLES + " samples per mode; otherwise the verdict says why not. About one measure in a hundred "
            + "can pass this test by chance.";

    /** What the figures say. */
    public sealed interface Verdict {
        /** One line for a reader. */
        String text();

        /**
         * One mode is better, beyond noise.
         *
         * @param better the better mode
         * @param p      the test's p-value
         * @param test   which test
         */
        record Better(InvocationMode better, double p, String test) implements Verdict {
            @Override
            public String text() {
                return better.wireName() + " better (" + test + " p " + pValue(p) + ")";
            }
        }

        /**
         * The figures differ, but within noise.
         *
         * @param p    the test's p-value
         * @param test which test
         */
        record WithinNoise(double p, String test) implements Verdict {
            @Override
            public String text() {
                return "no difference beyond noise (" + test + " p " + pValue(p) + ")";
            }
        }

        /** The figures are the same. */
        record Same() implements Verdict {
            @Override
            public String text() {
                return "same";
            }
        }

        /**
         * No verdict, and why.
         *
         * @param reason why not
         */
        record None(String reason) implements Verdict {
            @Override
            public String text() {
                return reason;
            }
        }
    }

    /** The verdict on a measure a run over the wire cannot take (docs/wire.md#observability): not measured, not 0. */
    public static final String NOT_OBSERVABLE = "not observable over the wire: what it needs is inside the runtime "
            + "(docs/wire.md#measures)";

    /** The verdict on a timing when a latency model timed the streams (docs/engine.md#noise). */
    public static final String MODELLED = "no verdict: a latency model timed these streams, so the model, not a "
            + "measurement, decides the difference (compare recorded or live timings)";

    /** Both modes' figures for every shown measure, in catalogue order, from measured streams. */
    public static List<Comparison> of(ModeMetrics dual, ModeMetrics tools) {
        return of(dual, tools, false);
    }

    /**
     * Both modes' figures for every shown measure, in catalogue order.
     *
     * @param modelled whether a latency model timed any turn's streams: then no timing gets a verdict, since the
     *                 model's difference plus the machine's jitter is no evidence about the modes, and deciding on it
     *                 flipped between identical runs (docs/engine.md#noise)
     */
    public static List<Comparison> of(ModeMetrics dual, ModeMetrics tools, boolean modelled) {
        List<Comparison> comparisons = new ArrayList<>();
        for (Metric metric : Metric.shownMetrics()) {
            Comparison comparison = of(metric, dual, tools);
            comparisons.add(modelled && metric.isTiming() && !(comparison.verdict() instanceof Verdict.None)
                    ? new Comparison(metric, comparison.dual(), comparison.tools(), new Verdict.None(MODELLED))
                    : comparison);
        }
        return comparisons;
    }

    /** Both modes' figures for {@code metric}. */
    public static Comparison of(Metric metric, ModeMetrics dual, ModeMetrics tools) {
        Figure a = dual == null ? null : dual.figure(metric);
        Figure b = tools == null ? null : tools.figure(metric);
        return new Comparison(metric, a, b, judge(metric, a, b));
    }

    /** chat_agent_tools ÷ dual_agent of the headline numbers, when both are known and dual_agent's is not zero. */
    public Optional<Double> ratio() {
        Number a = dual == null ? null : dual.value();
        Number b = tools == null ? null : tools.value();
        if (a == null || b == null || a.doubleValue() == 0) {
            return Optional.empty();
        }
        return Optional.of(b.doubleValue() / a.doubleValue());
    }

    private static Verdict judge(Metric metric, Figure dual, Figure tools) {
        if (dual == null || tools == null) {
            return new Verdict.None("one mode did not run");
        }
        if (dual.value() == null || tools.value() == null) {
            return new Verdict.None("no figure in " + (dual.value() == null && tools.value() == null ? "either mode"
                    : dual.value() == null ? "dual_agent" : "chat_agent_tools"));
        }
        if (metric.better() == Metric.Better.NEITHER) {
            return new Verdict.None("describes the run");
        }
        if (metric.unit() == Metric.Unit.RATE && dual instanceof Figure.Scalar a && tools instanceof Figure.Scalar b) {
            return proportions(metric, a, b);
        }
        if (metric.aggregate() == Metric.Aggregate.RATE) {
            return new Verdict.None("not tested (a ratio of sums)");
        }
        return samples(metric, dual.samples(), tools.samples());
    }

    /**
     * Whether {@code sample} tends to be larger than {@code reference} beyond noise: a one-sided Mann–Whitney U test
     * at {@value #ALPHA}, as the comparison judges timings (used by the gates, docs/configuration.md#gates).
     *
     * @param p         the one-sided p-value
     * @param beyond    whether {@code sample} is larger beyond noise
     */
    public record Exceeds(double p, boolean beyond) {
    }

    /** {@link Exceeds} for two samples of at least {@value #MIN_SAMPLES} each, in any order. */
    public static Exceeds exceeds(double[] sample, double[] reference) {
        if (sample.length < MIN_SAMPLES || reference.length < MIN_SAMPLES) {
            throw new IllegalArgumentException("at least " + MIN_SAMPLES + " samples each, were " + sample.length
                    + " and " + reference.length);
        }
        Statistics.Test test = Statistics.mannWhitney(reference, sample);
        double p = test.direction() > 0 ? test.p() / 2 : 1 - test.p() / 2;
        return new Exceeds(p, test.direction() > 0 && p < ALPHA);
    }

    private static Verdict samples(Metric metric, Samples dual, Samples tools) {
        if (dual.size() < MIN_SAMPLES || tools.size() < MIN_SAMPLES) {
            return new Verdict.None("too few samples to judge (" + dual.size() + " and " + tools.size() + ")");
        }
        // one metric's two columns at a time, read back from the run's spool (docs/performance.md#memory)
        double[] first = dual.sorted();
        double[] second = tools.sorted();
        if (Arrays.equals(first, second)) {
            return new Verdict.Same();
        }
        Statistics.Test test = Statistics.mannWhitney(first, second);
        return verdict(metric, test, "Mann-Whitney");
    }

    private static Verdict proportions(Metric metric, Figure.Scalar dual, Figure.Scalar tools) {
        BigDecimal s1 = dual.numerator();
        BigDecimal n1 = dual.denominator();
        BigDecimal s2 = tools.numerator();
        BigDecimal n2 = tools.denominator();
        if (s1.compareTo(s2) == 0 && n1.compareTo(n2) == 0) {
            return new Verdict.Same();
        }
        long pooledSuccesses = s1.longValue() + s2.longValue();
        long pooledFailures = n1.longValue() + n2.longValue() - pooledSuccesses;
        if (n1.longValue() < MIN_SAMPLES || n2.longValue() < MIN_SAMPLES || pooledSuccesses < MIN_SAMPLES
                || pooledFailures < MIN_SAMPLES) {
            return dual.value().equals(tools.value()) ? new Verdict.Same()
                    : new Verdict.None("too few counted to judge (" + s1 + "/" + n1 + " and " + s2 + "/" + n2 + ")");
        }
        Statistics.Test test = Statistics.twoProportions(s1.longValue(), n1.longValue(), s2.longValue(),
                n2.longValue());
        return verdict(metric, test, "two-proportion z");
    }

    private static Verdict verdict(Metric metric, Statistics.Test test, String name) {
        if (test.p() >= ALPHA || test.direction() == 0) {
            return new Verdict.WithinNoise(test.p(), name);
        }
        // direction > 0: the second sample (chat_agent_tools) is larger
        boolean toolsLarger = test.direction() > 0;
        boolean toolsBetter = metric.better() == Metric.Better.HIGHER ? toolsLarger : !toolsLarger;
        return new Verdict.Better(toolsBetter ? InvocationMode.CHAT_AGENT_TOOLS : InvocationMode.DUAL_AGENT, test.p(),
                name);
    }

    private static String pValue(double p) {
        return p < 0.001 ? "< 0.001" : String.format(java.util.Locale.ROOT, "%.3f", p);
    }
}
