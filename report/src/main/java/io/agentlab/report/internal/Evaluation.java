package io.agentlab.report.internal;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.agentlab.report.metrics.Metric;
import io.agentlab.report.metrics.TurnSample;
import io.agentlab.kernel.api.InvocationMode;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.apiguardian.api.API;

/**
 * An evaluation's figures with their noise: for every shown measure and mode, the estimate, its spread over the
 * repetitions and a 95 % interval, and the difference between the modes with its own interval, so "tools mode is 15 %
 * slower" can be told apart from noise ({@code docs/live-evaluation.md#reading-an-evaluation}).
 *
 * <p>Rates (event selection, arguments, clarification, answer first) pool their counts over every turn and repetition
 * and take the Wilson score interval; the difference of two rates takes Newcombe's interval built from the two Wilson
 * intervals. Timings and per-turn means take the mean of their samples with a Student-t interval, and their difference
 * Welch's interval. A cost per successful event (a ratio of sums) takes the mean of the repetitions' figures with a
 * t interval, and Welch's between the modes. Rates and means treat each event or turn as an independent trial: turns of one case are alike, so with few
 * cases an interval is narrower than the truth. The spread is the standard deviation of the figure between
 * repetitions (none with one repetition).
 *
 * @param repetitions how many repetitions the samples came from
 * @param rows        one row per measure, in catalogue order
 */
@API(status = INTERNAL, since = "0.1")
public record Evaluation(int repetitions, List<Row> rows) {

    /** Copies the rows. */
    public Evaluation {
        rows = List.copyOf(rows);
    }

    /**
     * One figure with its noise.
     *
     * @param value  the estimate (a rate, or a mean)
     * @param low    the 95 % interval's lower end
     * @param high   its upper end
     * @param spread the standard deviation of the figure between repetitions, when there were several
     * @param n      the trials behind it (events or turns for a rate, samples for a mean)
     */
    public record Estimate(double value, double low, double high, Optional<Double> spread, long n) {

        /** Whether the interval holds {@code truth}. */
        public boolean covers(double truth) {
            return low <= truth && truth <= high;
        }

        /** Whether the interval leaves zero out: for a difference, beyond noise. */
        public boolean excludesZero() {
            return low > 0 || high < 0;
        }
    }

    /**
     * One measure.
     *
     * @param metric     the measure
     * @param modes      its estimate per mode that had anything to count
     * @param difference {@code chat_agent_tools} minus {@code dual_agent}, when both have an estimate
     */
    public record Row(Metric metric, Map<InvocationMode, Estimate> modes, Optional<Estimate> difference) {
    }

    /** The rates and means of the shown measures, from every sample of the run. */
    public static Evaluation of(List<TurnSample> samples) {
        int repetitions = samples.stream().mapToInt(Evaluation::repetition).max().orElse(1);
        List<Row> rows = new ArrayList<>();
        for (Metric metric : Metric.shownMetrics()) {
            if (metric.aggregate() == Metric.Aggregate.SUM) {
                continue; // totals are counts, not estimates
            }
            Map<InvocationMode, Estimate> modes = new EnumMap<>(InvocationMode.class);
            for (InvocationMode mode : InvocationMode.values()) {
                List<TurnSample> mine = samples.stream().filter(s -> s.mode() == mode).toList();
                estimate(metric, mine).ifPresent(estimate -> modes.put(mode, estimate));
            }
            Optional<Estimate> difference = Optional.empty();
            Estimate dual = modes.get(InvocationMode.DUAL_AGENT);
            Estimate tools = modes.get(InvocationMode.CHAT_AGENT_TOOLS);
            if (dual != null && tools != null) {
                difference = Optional.of(metric.unit() == Metric.Unit.USD
                        ? welch(perRepetition(metric, of(samples, InvocationMode.CHAT_AGENT_TOOLS)),
                        perRepetition(metric, of(samples, InvocationMode.DUAL_AGENT)))
                        : metric.aggregate() == Metric.Aggregate.RATE ? newcombe(tools, dual)
                        : welch(values(metric, of(samples, InvocationMode.CHAT_AGENT_TOOLS)),
                        values(metric, of(samples, InvocationMode.DUAL_AGENT))));
            }
            if (!modes.isEmpty()) {
                rows.add(new Row(metric, modes, difference));
            }
        }
        return new Evaluation(repetitions, rows);
    }

    /** The row of {@code metric}, if anything was counted for it. */
    public Optional<Row> row(Metric metric) {
        return rows.stream().filter(row -> row.metric() == metric).findFirst();
    }

    private static List<TurnSample> of(List<TurnSample> samples, InvocationMode mode) {
        return samples.stream().filter(s -> s.mode() == mode).toList();
    }

    private static Optional<Estimate> estimate(Metric metric, List<TurnSample> samples) {
        if (metric.unit() == Metric.Unit.USD) {
            // a cost per success is a ratio of sums: its noise is judged between repetitions (none when unpriced)
            List<Double> figures = perRepetition(metric, samples);
            if (figures.isEmpty()) {
                return Optional.empty();
            }
            double mean = mean(figures);
            double half = figures.size() < 2 ? Double.POSITIVE_INFINITY
                    : t(figures.size() - 1) * Math.sqrt(variance(figures) / figures.size());
            return Optional.of(new Estimate(mean, mean - half, mean + half, spread(metric, samples), figures.size()));
        }
        if (metric.aggregate() == Metric.Aggregate.RATE) {
            double hits = 0;
            double trials = 0;
            for (TurnSample sample : samples) {
                Metric.Part part = metric.contribution(sample);
                hits += part.numerator() == null ? 0 : part.numerator().doubleValue();
                trials += part.denominator().doubleValue();
            }
            if (trials == 0) {
                return Optional.empty();
            }
            double[] wilson = wilson(hits, trials);
            return Optional.of(new Estimate(hits / trials, wilson[0], wilson[1], spread(metric, samples),
                    Math.round(trials)));
        }
        List<Double> values = values(metric, samples);
        if (values.isEmpty()) {
            return Optional.empty();
        }
        double mean = mean(values);
        double half = values.size() < 2 ? Double.POSITIVE_INFINITY
                : t(values.size() - 1) * Math.sqrt(variance(values) / values.size());
        return Optional.of(new Estimate(mean, mean - half, mean + half, spread(metric, samples), values.size()));
    }

    private static List<Double> values(Metric metric, List<TurnSample> samples) {
        List<Double> values = new ArrayList<>();
        samples.forEach(sample -> values.addAll(metric.contribution(sample).samples()));
        return values;
    }

    /** The standard deviation of the figure between repetitions, computed repetition by repetition. */
    private static Optional<Double> spread(Metric metric, List<TurnSample> samples) {
        List<Double> figures = perRepetition(metric, samples);
        return figures.size() < 2 ? Optional.empty() : Optional.of(Math.sqrt(variance(figures)));
    }

    /** The figure of each repetition that had anything to count (a cost only when every turn was priced). */
    private static List<Double> perRepetition(Metric metric, List<TurnSample> samples) {
        Map<Integer, List<TurnSample>> byRepetition = new TreeMap<>();
        samples.forEach(sample -> byRepetition.computeIfAbsent(repetition(sample), r -> new ArrayList<>()).add(sample));
        List<Double> figures = new ArrayList<>();
        for (List<TurnSample> repetition : byRepetition.values()) {
            if (metric.aggregate() == Metric.Aggregate.RATE) {
                BigDecimal hits = BigDecimal.ZERO;
                BigDecimal trials = BigDecimal.ZERO;
                for (TurnSample sample : repetition) {
                    Metric.Part part = metric.contribution(sample);
                    hits = hits == null || part.numerator() == null ? null : hits.add(part.numerator());
                    trials = trials.add(part.denominator());
                }
                if (hits != null && trials.signum() > 0) {
                    figures.add(hits.doubleValue() / trials.doubleValue());
                }
            } else {
                List<Double> values = values(metric, repetition);
                if (!values.isEmpty()) {
                    figures.add(mean(values));
                }
            }
        }
        return figures;
    }

    /** The repetition a sample belongs to: 1, or the number after the case id's {@code @r}. */
    static int repetition(TurnSample sample) {
        int at = sample.caseId().lastIndexOf("@r");
        if (at < 0) {
            return 1;
        }
        try {
            return Integer.parseInt(sample.caseId().substring(at + 2));
        } catch (NumberFormatException e) {
            return 1;
        }
    }

    /** Wilson's score interval of {@code hits} in {@code trials}, at 95 %. */
    static double[] wilson(double hits, double trials) {
        double z = 1.959964;
        double p = hits / trials;
        double denominator = 1 + z * z / trials;
        double centre = (p + z * z / (2 * trials)) / denominator;
        double half = z * Math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator;
        return new double[] {Math.max(0, centre - half), Math.min(1, centre + half)};
    }

    /** Newcombe's hybrid score interval of {@code a - b}, from the two Wilson intervals. */
    static Estimate newcombe(Estimate a, Estimate b) {
        double d = a.value() - b.value();
        double low = d - Math.sqrt(square(a.value() - a.low()) + square(b.high() - b.value()));
        double high = d + Math.sqrt(square(a.high() - a.value()) + square(b.value() - b.low()));
        return new Estimate(d, low, high, Optional.empty(), Math.min(a.n(), b.n()));
    }

    /** Welch's interval of the difference of two means, {@code tools} minus {@code dual}. */
    private static Estimate welch(List<Double> tools, List<Double> dual) {
        double d = mean(tools) - mean(dual);
        if (tools.size() < 2 || dual.size() < 2) {
            return new Estimate(d, Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY, Optional.empty(),
                    Math.min(tools.size(), dual.size()));
        }
        double a = variance(tools) / tools.size();
        double b = variance(dual) / dual.size();
        double se = Math.sqrt(a + b);
        double df = se == 0 ? Math.min(tools.size(), dual.size()) - 1
                : square(a + b) / (square(a) / (tools.size() - 1) + square(b) / (dual.size() - 1));
        double half = t((int) Math.floor(df)) * se;
        return new Estimate(d, d - half, d + half, Optional.empty(), Math.min(tools.size(), dual.size()));
    }

    /** Two-sided 95 % Student-t quantiles; a degree of freedom between two listed is rounded down (wider). */
    private static final double[][] T = {{1, 12.706}, {2, 4.303}, {3, 3.182}, {4, 2.776}, {5, 2.571}, {6, 2.447},
        {7, 2.365}, {8, 2.306}, {9, 2.262}, {10, 2.228}, {12, 2.179}, {15, 2.131}, {20, 2.086}, {25, 2.060},
        {30, 2.042}, {40, 2.021}, {60, 2.000}, {120, 1.980}};

    static double t(int degrees) {
        if (degrees < 1) {
            return Double.POSITIVE_INFINITY;
        }
        double quantile = T[0][1];
        for (double[] row : T) {
            if (row[0] <= degrees) {
                quantile = row[1];
            }
        }
        return degrees > 1000 ? 1.959964 : quantile;
    }

    private static double mean(List<Double> values) {
        return values.stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN);
    }

    private static double variance(List<Double> values) {
        double mean = mean(values);
        return values.stream().mapToDouble(v -> square(v - mean)).sum() / (values.size() - 1);
    }

    private static double square(double value) {
        return value * value;
    }

    /** The figures as {@code evaluation.json} writes them. */
    public Map<String, Object> toMap() {
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("repetitions", repetitions);
        List<Object> measures = new ArrayList<>();
        for (Row row : rows) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("metric", row.metric().key());
            m.put("unit", row.metric().unit().symbol());
            Map<String, Object> modes = new LinkedHashMap<>();
            row.modes().forEach((mode, estimate) -> modes.put(mode.wireName(), json(estimate)));
            m.put("modes", modes);
            m.put("toolsMinusDual", row.difference().map(Evaluation::json).orElse(null));
            m.put("beyondNoise", row.difference().map(Estimate::excludesZero).orElse(null));
            measures.add(m);
        }
        root.put("measures", measures);
        return root;
    }

    private static Map<String, Object> json(Estimate estimate) {
        Map<String, Object> e = new LinkedHashMap<>();
        e.put("value", finite(estimate.value()));
        e.put("low", finite(estimate.low()));
        e.put("high", finite(estimate.high()));
        e.put("spread", estimate.spread().orElse(null));
        e.put("n", estimate.n());
        return e;
    }

    private static Double finite(double value) {
        return Double.isFinite(value) ? value : null;
    }

    /** The figures as a Markdown table: each mode's estimate with its interval and spread, and the difference. */
    public String markdown() {
        StringBuilder out = new StringBuilder("## Evaluation (" + repetitions + " repetition"
                + (repetitions == 1 ? "" : "s") + " per case and mode; 95 % intervals)\n\n");
        out.append("| measure | dual_agent | chat_agent_tools | tools − dual | beyond noise |\n");
        out.append("| --- | --- | --- | --- | --- |\n");
        for (Row row : rows) {
            out.append("| ").append(row.metric().label()).append(" | ")
                    .append(cell(row.metric(), row.modes().get(InvocationMode.DUAL_AGENT))).append(" | ")
                    .append(cell(row.metric(), row.modes().get(InvocationMode.CHAT_AGENT_TOOLS))).append(" | ")
                    .append(row.difference().map(d -> cell(row.metric(), d)).orElse("-")).append(" | ")
                    .append(row.difference().map(d -> d.excludesZero() ? "yes" : "no").orElse("-")).append(" |\n");
        }
        return out.toString();
    }

    private static String cell(Metric metric, Estimate estimate) {
        if (estimate == null) {
            return "-";
        }
        return number(metric, estimate.value()) + " [" + number(metric, estimate.low()) + ", "
                + number(metric, estimate.high()) + "]" + estimate.spread().map(s -> " ±" + number(metric, s))
                .orElse("") + " (n=" + estimate.n() + ")";
    }

    private static String number(Metric metric, double value) {
        if (!Double.isFinite(value)) {
            return value > 0 ? "∞" : "-∞";
        }
        return metric.unit() == Metric.Unit.RATE ? String.format(Locale.ROOT, "%.1f %%", value * 100)
                : String.format(Locale.ROOT, "%.1f %s", value, metric.unit().symbol());
    }
}
