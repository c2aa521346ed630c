package io.agentlab.report.gates;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.agentlab.report.metrics.Figure;
import io.agentlab.report.metrics.Metric;
import io.agentlab.report.metrics.MetricsReport;
import io.agentlab.report.metrics.ModeMetrics;
import io.agentlab.report.internal.Comparison;
import io.agentlab.kernel.api.InvocationMode;
import java.math.BigDecimal;
import java.math.MathContext;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.apiguardian.api.API;
import org.junit.platform.engine.ConfigurationParameters;

/**
 * The gates of a run, from configuration alone: thresholds on the per-mode metrics, strict parity, and a committed
 * baseline with a maximum regression ({@code docs/configuration.md#gates}; the keys are in
 * {@link io.agentlab.engine.Constants}). Making the gates reads no file: the
 * baseline is read when its first gate runs, and a run never writes it ({@link Baseline#refresh} does, as a command).
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class Gates {

    /** The key that once made a run write its baseline; now refused with a pointer to the command. */
    static final String REMOVED_UPDATE_BASELINE = "agentlab.baseline.update";

    private Gates() {
    }

    /**
     * Whether gates are on for this run. Like {@link #from}, it reads {@code parameters} as given: the engine and the
     * shard merge hand them with deprecated aliases applied ({@code ConfigurationKeys.withAliases}), so this package
     * needs nothing of the engine's root package (docs/development.md#guards).
     */
    public static boolean enabled(ConfigurationParameters parameters) {
        return parameters.getBoolean(GateKeys.ENABLED).orElse(false);
    }

    /**
     * The problem with {@code key}, if a run no longer accepts it: a baseline is refreshed by a command, not by a
     * run whose "gate" always passes.
     */
    public static Optional<String> retiredKeyProblem(String key) {
        return REMOVED_UPDATE_BASELINE.equals(key) ? Optional.of(REMOVED_UPDATE_BASELINE + " is no longer read: "
                + "a run only checks the baseline; " + Baseline.REFRESH_HINT) : Optional.empty();
    }

    /**
     * The configured gates, in a stable order; reads configuration only, as given (deprecated aliases already applied
     * by the caller, see {@link #enabled}).
     */
    public static List<Gate> from(ConfigurationParameters parameters, List<InvocationMode> modes) {
        List<Gate> gates = new ArrayList<>();
        if (parameters.getBoolean(GateKeys.PARITY).orElse(true)) {
            gates.add(new Gate("parity", "parity: every case behaves the same in both modes", Gates::parity));
        }
        double precision = number(parameters, GateKeys.MIN_PRECISION, 0.95);
        double recall = number(parameters, GateKeys.MIN_RECALL, 0.95);
        double calls = number(parameters, GateKeys.MAX_CALLS_PER_ORDINARY_TURN, 1.0);
        Optional<Double> cost = parameters.get(GateKeys.MAX_COST_PER_SUCCESS)
                .map(v -> parse(GateKeys.MAX_COST_PER_SUCCESS, v));
        for (InvocationMode mode : modes) {
            String m = mode.wireName();
            gates.add(limit("min-precision-" + m, "event-selection precision (" + m + ") ≥ " + precision, mode,
                    Metric.SELECTION_PRECISION, precision, GateKeys.MIN_PRECISION, true));
            gates.add(limit("min-recall-" + m, "event-selection recall (" + m + ") ≥ " + recall, mode,
                    Metric.SELECTION_RECALL, recall, GateKeys.MIN_RECALL, true));
            gates.add(limit("max-chat-calls-per-ordinary-turn-" + m, "ChatAgent calls per ordinary turn (" + m
                    + ") ≤ " + calls, mode, Metric.CHAT_CALLS_PER_ORDINARY_TURN, calls,
                    GateKeys.MAX_CALLS_PER_ORDINARY_TURN, false));
            gates.add(cost.map(max -> limit("max-cost-per-successful-event-" + m, "cost per successful event ("
                    + m + ") ≤ " + max, mode, Metric.COST_PER_SUCCESSFUL_EVENT, max, GateKeys.MAX_COST_PER_SUCCESS,
                    false))
                    .orElse(new Gate("max-cost-per-successful-event-" + m, "cost per successful event (" + m + ")",
                            metrics -> new Gate.Verdict.Skip(GateKeys.MAX_COST_PER_SUCCESS + " is not set"))));
        }
        if (modes.size() == 2) {
            double ratio = number(parameters, GateKeys.MAX_TTFT_RATIO, 1.5);
            gates.add(new Gate("max-ttft-ratio", "first-visible TTFT, chat_agent_tools ÷ dual_agent ≤ " + ratio
                    + " beyond noise",
                    metrics -> ttftRatio(metrics, ratio)));
        }
        parameters.get(GateKeys.BASELINE_FILE).map(Path::of).ifPresent(file -> gates.addAll(baseline(file, parameters, modes)));
        return gates;
    }

    private static Gate.Verdict parity(MetricsReport metrics) {
        MetricsReport.Parity parity = metrics.parity();
        if (parity.cases() == 0) {
            return new Gate.Verdict.Skip("no case ran in both modes");
        }
        long unnamed = parity.differing() - parity.named().size();
        return parity.differing() == 0 ? new Gate.Verdict.Pass(parity.cases() + " cases, all alike in both modes")
                : new Gate.Verdict.Breach(parity.differing() + " of " + parity.cases() + " cases differ between the "
                + "modes: " + parity.named() + (unnamed > 0 ? " and " + unnamed + " more" : "") + " (see their parity "
                + "nodes; " + GateKeys.PARITY + "=false turns this gate off)");
    }

    private static Gate limit(String id, String description, InvocationMode mode, Metric metric, double threshold,
                              String key, boolean atLeast) {
        return new Gate(id, description, metrics -> judge(metrics.mode(mode), metric, threshold, key, atLeast));
    }

    private static Gate.Verdict judge(ModeMetrics metrics, Metric metric, double threshold, String key,
                                      boolean atLeast) {
        Number value = metrics.turns() == 0 ? null : metrics.value(metric);
        if (value == null) {
            return new Gate.Verdict.Skip("no figure in this run (nothing to count)");
        }
        double v = value.doubleValue();
        boolean holds = atLeast ? v >= threshold : v <= threshold;
        String detail = String.format(Locale.ROOT, "measured %s, threshold %s %s (%s)", format(v), atLeast ? "≥" : "≤",
                format(threshold), key);
        return holds ? new Gate.Verdict.Pass(detail) : new Gate.Verdict.Breach(detail);
    }

    private static Gate.Verdict ttftRatio(MetricsReport metrics, double threshold) {
        Figure dual = metrics.mode(InvocationMode.DUAL_AGENT).figure(Metric.FIRST_VISIBLE_TTFT);
        Figure tools = metrics.mode(InvocationMode.CHAT_AGENT_TOOLS).figure(Metric.FIRST_VISIBLE_TTFT);
        if (dual == null || tools == null || dual.value() == null || tools.value() == null) {
            return new Gate.Verdict.Skip("first-visible TTFT missing in a mode");
        }
        return ttftRatio(dual.samples().sorted(), tools.samples().sorted(), threshold);
    }

    /**
     * The TTFT-ratio gate over the two modes' per-turn samples, decided with its noise (docs/configuration.md#gates): it
     * is breached only when chat_agent_tools's first-visible TTFT exceeds {@code threshold} × dual_agent's beyond noise
     * (a one-sided Mann–Whitney U test at {@value Comparison#ALPHA}, {@link Comparison#exceeds}); with fewer than
     * {@value Comparison#MIN_SAMPLES} turns in a mode it says there are not enough samples, rather than passing or
     * failing on a couple of turns. Comparing two p50s alone flipped between identical runs.
     */
    static Gate.Verdict ttftRatio(double[] dual, double[] tools, double threshold) {
        if (dual.length < Comparison.MIN_SAMPLES || tools.length < Comparison.MIN_SAMPLES) {
            return new Gate.Verdict.Skip("not enough samples to judge: " + dual.length + " dual_agent and "
                    + tools.length + " chat_agent_tools turns with a first visible token, at least "
                    + Comparison.MIN_SAMPLES + " each");
        }
        double ratio = median(tools) / median(dual);
        double[] scaled = new double[dual.length];
        for (int i = 0; i < dual.length; i++) {
            scaled[i] = dual[i] * threshold;
        }
        Comparison.Exceeds exceeds = Comparison.exceeds(tools, scaled);
        String detail = String.format(Locale.ROOT, "p50 chat_agent_tools %s ms ÷ dual_agent %s ms = %s over %d and %d "
                        + "turns; above %s × dual_agent %s (one-sided Mann-Whitney p %s, at < %s), threshold ≤ %s (%s)",
                format(median(tools)), format(median(dual)), format(ratio), tools.length, dual.length,
                format(threshold), exceeds.beyond() ? "beyond noise" : "not beyond noise",
                String.format(Locale.ROOT, "%.3f", exceeds.p()), Comparison.ALPHA, format(threshold), GateKeys.MAX_TTFT_RATIO);
        return exceeds.beyond() ? new Gate.Verdict.Breach(detail) : new Gate.Verdict.Pass(detail);
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        java.util.Arrays.sort(sorted);
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    /**
     * A {@code baseline-file} gate that reads the file when it runs, then one gate per mode and baseline metric: a
     * figure may not regress by more than the allowance in the metric's worse direction.
     */
    private static List<Gate> baseline(Path file, ConfigurationParameters parameters, List<InvocationMode> modes) {
        double maxRegression = number(parameters, GateKeys.BASELINE_MAX_REGRESSION, 0.10);
        Supplier<Loaded> loaded = memoize(() -> {
            try {
                return new Loaded(Optional.of(Baseline.read(file)), "");
            } catch (RuntimeException e) {
                return new Loaded(Optional.empty(), e.getMessage());
            }
        });
        List<Gate> gates = new ArrayList<>();
        gates.add(new Gate("baseline-file", "baseline: " + file + " is readable", metrics ->
                loaded.get().baseline().<Gate.Verdict>map(baseline -> new Gate.Verdict.Pass("read "
                        + file.toAbsolutePath() + ": " + baseline.figures().keySet()))
                        .orElseGet(() -> new Gate.Verdict.Breach(loaded.get().problem()))));
        for (InvocationMode mode : modes) {
            for (Metric metric : Metric.baselineMetrics()) {
                String id = "baseline-" + mode.wireName() + "-" + metric.key();
                gates.add(new Gate(id, "baseline: " + metric.key() + " (" + mode.wireName() + ") within "
                        + Math.round(maxRegression * 100) + "% of the baseline", metrics -> {
                    if (loaded.get().baseline().isEmpty()) {
                        return new Gate.Verdict.Skip("the baseline could not be read (gate baseline-file)");
                    }
                    Optional<Double> recorded = loaded.get().baseline().get().figure(mode.wireName(), metric);
                    if (recorded.isEmpty()) {
                        return new Gate.Verdict.Skip(file + " records no " + metric.key() + " for "
                                + mode.wireName() + "; " + Baseline.REFRESH_HINT);
                    }
                    double base = recorded.get();
                    boolean higherBetter = metric.better() == Metric.Better.HIGHER;
                    double limit = higherBetter ? base * (1 - maxRegression) : base * (1 + maxRegression);
                    Gate.Verdict verdict = judge(metrics.mode(mode), metric, limit, GateKeys.BASELINE_MAX_REGRESSION, higherBetter);
                    return verdict instanceof Gate.Verdict.Breach breach ? new Gate.Verdict.Breach(breach.detail()
                            + "; baseline " + format(base) + " in " + file + " (if the change is intended, "
                            + Baseline.REFRESH_HINT + ")") : verdict;
                }));
            }
        }
        return gates;
    }

    /** The baseline as read, or why it could not be. */
    private record Loaded(Optional<Baseline> baseline, String problem) {
    }

    private static <T> Supplier<T> memoize(Supplier<T> supplier) {
        return new Supplier<>() {
            private T value;

            @Override
            public synchronized T get() {
                if (value == null) {
                    value = supplier.get();
                }
                return value;
            }
        };
    }

    private static double number(ConfigurationParameters parameters, String key, double fallback) {
        return parameters.get(key).map(v -> parse(key, v)).orElse(fallback);
    }

    private static double parse(String key, String value) {
        try {
            return Double.parseDouble(value.strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + ": cannot use '" + value + "'; expected a number", e);
        }
    }

    private static String format(double value) {
        return new BigDecimal(value).round(new MathContext(4)).stripTrailingZeros().toPlainString();
    }
}
