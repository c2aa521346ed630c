package io.agentlab.report.metrics;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apiguardian.api.API;

/** One measure of one mode, aggregated over its turns as the {@link Metric}'s {@link Metric.Aggregate} says. */
@API(status = INTERNAL, since = "0.1")
public sealed interface Figure permits Figure.Distribution, Figure.Scalar {

    /** The headline number — a distribution's median, else the value; null when unknown or nothing was counted. */
    Number value();

    /** The samples behind it (per turn, or per event), what the noise test compares; empty for a rate. */
    List<Double> samples();

    /** The figure as {@code metrics.json} writes it. */
    Object toJson();

    /**
     * Every sample, with nearest-rank percentiles in the metric's unit; p50 and p95 are null without samples.
     *
     * @param samples the samples, sorted
     */
    record Distribution(List<Double> samples) implements Figure {

        /** Sorts a copy. */
        public Distribution {
            List<Double> sorted = new ArrayList<>(samples);
            Collections.sort(sorted);
            samples = List.copyOf(sorted);
        }

        /** The distribution of {@code durations}, in milliseconds. */
        public static Distribution ofDurations(List<Duration> durations) {
            return new Distribution(millis(durations));
        }

        /** The median. */
        public Double p50() {
            return rank(0.50);
        }

        /** The 95th percentile. */
        public Double p95() {
            return rank(0.95);
        }

        /** How many samples. */
        public int count() {
            return samples.size();
        }

        @Override
        public Number value() {
            return p50();
        }

        @Override
        public Object toJson() {
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("samples", count());
            json.put("p50", p50());
            json.put("p95", p95());
            return json;
        }

        private Double rank(double quantile) {
            if (samples.isEmpty()) {
                return null;
            }
            int index = (int) Math.ceil(quantile * samples.size()) - 1;
            return Figure.round(samples.get(Math.max(0, Math.min(samples.size() - 1, index))));
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
    record Scalar(Number value, List<Double> samples, BigDecimal numerator, BigDecimal denominator)
            implements Figure {

        /** Copies the samples, sorted: a figure does not depend on the order its turns ran or merged in. */
        public Scalar {
            List<Double> sorted = new ArrayList<>(samples);
            Collections.sort(sorted);
            samples = List.copyOf(sorted);
        }

        @Override
        public Object toJson() {
            return value;
        }
    }

    /** Adds up the turns' contributions to {@code metric}. */
    static Figure of(Metric metric, List<Metric.Part> parts) {
        List<Double> samples = new ArrayList<>();
        BigDecimal numerator = BigDecimal.ZERO;
        BigDecimal denominator = BigDecimal.ZERO;
        for (Metric.Part part : parts) {
            samples.addAll(part.samples());
            numerator = numerator == null || part.numerator() == null ? null : numerator.add(part.numerator());
            denominator = denominator.add(part.denominator());
        }
        return switch (metric.aggregate()) {
            case DISTRIBUTION -> new Distribution(samples);
            case MEAN -> new Scalar(samples.isEmpty() ? null : round(samples.stream().mapToDouble(d -> d).average()
                    .orElseThrow()), samples, null, null);
            case SUM -> new Scalar(numerator == null || parts.isEmpty() ? null
                    : metric.unit() == Metric.Unit.USD ? numerator : (Number) numerator.longValue(), samples, null, null);
            case RATE -> new Scalar(rate(metric, numerator, denominator), samples, numerator, denominator);
        };
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
