package io.agentlab.report.metrics;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apiguardian.api.API;

/** One measure of one mode, aggregated over its turns as the {@link Metric}'s {@link Metric.Aggregate} says. */
@API(status = INTERNAL, since = "0.1")
public sealed interface Figure permits Figure.Distribution, Figure.Scalar {

    /** The headline number — a distribution's median, else the value; null when unknown or nothing was counted. */
    Number value();

    /**
     * The samples behind it (per turn, or per event), what the noise test compares; none for a rate. A run's figures
     * read them back from its spool when asked for (docs/performance.md#memory).
     */
    Samples samples();

    /** The figure as {@code metrics.json} writes it. */
    Object toJson();

    /**
     * Every sample, with nearest-rank percentiles in the metric's unit; p50 and p95 are null without samples.
     *
     * @param samples the samples
     * @param p50     their median ({@link #of} ranks it)
     * @param p95     their 95th percentile
     */
    record Distribution(Samples samples, Double p50, Double p95) implements Figure {

        /** The distribution of {@code samples}. */
        public static Distribution of(Samples samples) {
            return of(samples, samples.sorted());
        }

        /** The distribution of {@code values}. */
        public static Distribution of(Collection<? extends Number> values) {
            return of(Samples.of(values));
        }

        /** The distribution of {@code durations}, in milliseconds. */
        public static Distribution ofDurations(List<Duration> durations) {
            return of(millis(durations));
        }

        /** {@code samples}, whose values {@code sorted} holds in order: ranked without reading them again. */
        static Distribution of(Samples samples, double[] sorted) {
            return new Distribution(samples, rank(sorted, 0.50), rank(sorted, 0.95));
        }

        /** How many samples. */
        public int count() {
            return samples.size();
        }

        @Override
        public Number value() {
            return p50;
        }

        @Override
        public Object toJson() {
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("samples", count());
            json.put("p50", p50());
            json.put("p95", p95());
            return json;
        }

        private static Double rank(double[] sorted, double quantile) {
            if (sorted.length == 0) {
                return null;
            }
            int index = (int) Math.ceil(quantile * sorted.length) - 1;
            return Figure.round(sorted[Math.max(0, Math.min(sorted.length - 1, index))]);
        }
    }

    /**
     * A single number: a mean, a sum or a rate.
     *
     * @param value       the number; null when unknown or nothing was counted
     * @param samples     the per-turn values it comes from (means and sums)
     * @param numerator   a rate's summed numerator (null when unknown)
     * @param denominator a rate's summed denominator
     */
    record Scalar(Number value, Samples samples, BigDecimal numerator, BigDecimal denominator) implements Figure {

        @Override
        public Object toJson() {
            return value;
        }
    }

    /**
     * Adds up a mode's turns' contributions to {@code metric}: {@code turns} turns, whose samples {@code samples}
     * holds and whose numerators and denominators summed to these (a null numerator: one was unknown).
     */
    static Figure of(Metric metric, int turns, Samples samples, BigDecimal numerator, BigDecimal denominator) {
        return switch (metric.aggregate()) {
            // one read of the column: ranked, and never held by the figure
            case DISTRIBUTION -> Distribution.of(samples, samples.sorted());
            case MEAN -> new Scalar(samples.isEmpty() ? null : round(mean(samples.sorted())), samples, null, null);
            case SUM -> new Scalar(numerator == null || turns == 0 ? null
                    : metric.unit() == Metric.Unit.USD ? numerator : (Number) numerator.longValue(), samples, null, null);
            case RATE -> new Scalar(rate(metric, numerator, denominator), samples, numerator, denominator);
        };
    }

    /**
     * The mean, summed in ascending order whatever order the turns finished in; the catalogue's means are of counts,
     * which a double sums exactly in any order.
     */
    private static double mean(double[] sorted) {
        return Arrays.stream(sorted).average().orElseThrow();
    }

    private static Number rate(Metric metric, BigDecimal numerator, BigDecimal denominator) {
        if (numerator == null || denominator.signum() == 0) {
            return null;
        }
        if (metric.unit() == Metric.Unit.USD) {
            return numerator.divide(denominator, 8, RoundingMode.HALF_UP);
        }
        return round(numerator.doubleValue() / denominator.doubleValue());
    }

    /** Durations in milliseconds. */
    static List<Double> millis(List<Duration> durations) {
        return durations.stream().map(d -> d.toNanos() / 1e6).toList();
    }

    /** Four decimals: enough for every unit, stable in the files. */
    static double round(double value) {
        return Math.round(value * 10_000) / 10_000.0;
    }
}
