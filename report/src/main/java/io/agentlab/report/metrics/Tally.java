package io.agentlab.report.metrics;

import io.agentlab.kernel.api.InvocationMode;
import java.math.BigDecimal;
import java.util.EnumMap;
import java.util.Map;

/**
 * The per-mode figures of every turn added so far, in constant memory apart from its {@link Columns}: per mode and
 * metric, the summed numerator and denominator, and each sample appended to its column (docs/performance.md#memory).
 * {@link #mode} reads the columns back one metric at a time, so nothing but one column is ever in memory at once,
 * and every figure is exact: the nearest-rank percentiles of every sample, sums and rates of exact decimals.
 */
final class Tally {

    private static final Metric[] METRICS = Metric.values();
    private static final InvocationMode[] MODES = InvocationMode.values();

    private final Columns columns;
    private final int[] turns = new int[MODES.length];
    private final BigDecimal[][] numerators = new BigDecimal[MODES.length][METRICS.length];
    private final BigDecimal[][] denominators = new BigDecimal[MODES.length][METRICS.length];

    Tally(Columns columns) {
        this.columns = columns;
        for (int mode = 0; mode < MODES.length; mode++) {
            for (int metric = 0; metric < METRICS.length; metric++) {
                numerators[mode][metric] = BigDecimal.ZERO;
                denominators[mode][metric] = BigDecimal.ZERO;
            }
        }
    }

    /** Adds one turn's contribution to every metric of its mode. */
    void add(TurnSample sample) {
        int mode = sample.mode().ordinal();
        turns[mode]++;
        for (Metric metric : METRICS) {
            Metric.Part part = metric.contribution(sample);
            int m = metric.ordinal();
            for (Double value : part.samples()) {
                columns.append(column(mode, m), value);
            }
            BigDecimal numerator = numerators[mode][m];
            // a turn whose part is unknown makes the whole figure unknown (an unpriced cost)
            numerators[mode][m] = numerator == null || part.numerator() == null ? null
                    : numerator.add(part.numerator());
            denominators[mode][m] = denominators[mode][m].add(part.denominator());
        }
    }

    /** How many turns of {@code mode} were added. */
    int turns(InvocationMode mode) {
        return turns[mode.ordinal()];
    }

    /** The figures of {@code mode} over every turn added so far. */
    ModeMetrics mode(InvocationMode mode) {
        int m = mode.ordinal();
        Map<Metric, Figure> figures = new EnumMap<>(Metric.class);
        for (Metric metric : METRICS) {
            figures.put(metric, Figure.of(metric, turns[m], columns.snapshot(column(m, metric.ordinal())),
                    numerators[m][metric.ordinal()], denominators[m][metric.ordinal()]));
        }
        return new ModeMetrics(mode, turns[m], figures);
    }

    private static int column(int mode, int metric) {
        return mode * METRICS.length + metric;
    }
}
