package io.agentlab.report.internal;

import io.agentlab.report.metrics.Figure;
import io.agentlab.report.metrics.Metric;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/**
 * One number format per unit, used by every report so a row never mixes {@code 13} and {@code 13.034}: milliseconds
 * and tokens per turn with one decimal, calls per turn with two, counts as integers, rates as percentages with one
 * decimal, dollars with six decimals.
 */
final class Format {

    private Format() {
    }

    /** A figure: a distribution as {@code p50 / p95}, anything else as its value; {@code -} when unknown. */
    static String figure(Metric metric, Figure figure) {
        if (figure == null) {
            return "-";
        }
        if (figure instanceof Figure.Distribution distribution) {
            return distribution.count() == 0 ? "-" : value(metric, distribution.p50()) + " / "
                    + value(metric, distribution.p95());
        }
        return value(metric, figure.value());
    }

    /** One number of {@code metric}. */
    static String value(Metric metric, Number value) {
        if (value == null) {
            return "-";
        }
        double v = value.doubleValue();
        return switch (metric.unit()) {
            case MS -> String.format(Locale.ROOT, "%.1f", v);
            case TOKENS -> metric.aggregate() == Metric.Aggregate.SUM ? String.format(Locale.ROOT, "%d", Math.round(v))
                    : String.format(Locale.ROOT, "%.1f", v);
            case CALLS -> metric.aggregate() == Metric.Aggregate.SUM ? String.format(Locale.ROOT, "%d", Math.round(v))
                    : String.format(Locale.ROOT, "%.2f", v);
            case EVENTS, TURNS -> String.format(Locale.ROOT, "%d", Math.round(v));
            case RATE -> String.format(Locale.ROOT, "%.1f%%", v * 100);
            case USD -> (value instanceof BigDecimal d ? d : BigDecimal.valueOf(v))
                    .setScale(6, java.math.RoundingMode.HALF_UP).toPlainString();
        };
    }

    /** The unit as a column shows it; a distribution adds which percentiles. */
    static String unit(Metric metric) {
        return metric.unit().symbol() + (metric.aggregate() == Metric.Aggregate.DISTRIBUTION ? " p50/p95" : "")
                + (metric.aggregate() == Metric.Aggregate.MEAN ? " per turn" : "");
    }

    /** A ratio such as {@code 1.82x}, or empty. */
    static String ratio(Comparison comparison, String times) {
        return comparison.ratio().map(r -> String.format(Locale.ROOT, "%.2f%s", r, times)).orElse("");
    }

    /** Milliseconds on a timeline: whole below ten seconds' worth of precision needs. */
    static String ms(double value) {
        return fixed(value, 1);
    }

    /**
     * {@code value} with {@code places} decimals, exactly as {@code String.format(Locale.ROOT, "%.<places>f", value)}
     * writes it (half up on the shortest decimal form), without a {@link java.util.Formatter}: the timelines write
     * thousands of coordinates, and parsing a format string for each was a third of a 200-case report's time
     * (docs/performance.md#report-parts). {@code FormatTest} compares the two.
     */
    static String fixed(double value, int places) {
        if (!Double.isFinite(value)) {
            return String.format(Locale.ROOT, "%." + places + "f", value);
        }
        String digits = BigDecimal.valueOf(Math.abs(value)).setScale(places, RoundingMode.HALF_UP).toPlainString();
        return value < 0 || (value == 0 && 1 / value < 0) ? "-" + digits : digits;
    }

    /** An instant to the second, in UTC. */
    static String instant(Instant instant) {
        return DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'", Locale.ROOT).withZone(ZoneOffset.UTC)
                .format(instant);
    }

    /** A plain decimal without trailing zeros. */
    static String plain(double value) {
        return BigDecimal.valueOf(value).stripTrailingZeros().toPlainString();
    }
}
