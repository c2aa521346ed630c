package io.agentlab.engine.gates;

import io.agentlab.engine.metrics.MetricsReport;
import io.agentlab.engine.metrics.ModeMetrics;
import io.agentlab.kernel.api.InvocationMode;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.MathContext;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.junit.platform.engine.ConfigurationParameters;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * The gates of a run, from configuration: thresholds on the per-mode metrics, strict parity, and a committed
 * baseline with a maximum regression ({@code docs/configuration.md}, "Gates").
 */
public final class Gates {

    /** Turn gates on. */
    public static final String ENABLED = "agentlab.gates.enabled";
    /** Minimum event-selection precision per mode; default 0.95. */
    public static final String MIN_PRECISION = "agentlab.gate.min-precision";
    /** Minimum event-selection recall per mode; default 0.95. */
    public static final String MIN_RECALL = "agentlab.gate.min-recall";
    /** Maximum ChatAgent calls per ordinary turn per mode; default 1.0. */
    public static final String MAX_CALLS_PER_ORDINARY_TURN = "agentlab.gate.max-chat-calls-per-ordinary-turn";
    /** Maximum estimated cost per successful event per mode (USD); no default (the gate is skipped). */
    public static final String MAX_COST_PER_SUCCESS = "agentlab.gate.max-cost-per-successful-event";
    /** Maximum chat_agent_tools ÷ dual_agent first-visible TTFT p50; default 1.5. */
    public static final String MAX_TTFT_RATIO = "agentlab.gate.max-ttft-ratio";
    /** Whether every case must behave identically in both modes; default true. */
    public static final String STRICT_PARITY = "agentlab.gate.parity";
    /** A committed baseline file ({@code metrics} per mode). */
    public static final String BASELINE_FILE = "agentlab.baseline.file";
    /** The largest regression against the baseline, as a fraction; default 0.10. */
    public static final String MAX_REGRESSION = "agentlab.baseline.max-regression";
    /** Write the current figures to the baseline file instead of checking them. */
    public static final String UPDATE_BASELINE = "agentlab.baseline.update";

    private static final JsonMapper JSON = JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();

    /**
     * A baseline figure: how to read it and which way is better.
     *
     * @param key          its name in the baseline file
     * @param value        how to read it
     * @param higherBetter whether a larger value is better
     */
    record Figure(String key, Function<ModeMetrics, Number> value, boolean higherBetter) {
    }

    static final List<Figure> BASELINE_FIGURES = List.of(
            new Figure("chatPromptTokensPerTurn", m -> m.turns() == 0 ? null
                    : Math.round(m.chatPromptTokens() * 10.0 / m.turns()) / 10.0, false),
            new Figure("llmCallsPerTurn", ModeMetrics::llmCallsPerTurn, false),
            new Figure("fallbackRate", ModeMetrics::fallbackRate, false),
            new Figure("selectionPrecision", ModeMetrics::selectionPrecision, true),
            new Figure("selectionRecall", ModeMetrics::selectionRecall, true),
            new Figure("deterministicHitRate", ModeMetrics::deterministicHitRate, true),
            new Figure("executionSuccessRate", ModeMetrics::executionSuccessRate, true));

    private Gates() {
    }

    /** Whether gates are on for this run. */
    public static boolean enabled(ConfigurationParameters parameters) {
        return parameters.getBoolean(ENABLED).orElse(false);
    }

    /** The configured gates, in a stable order. */
    public static List<Gate> from(ConfigurationParameters parameters, List<InvocationMode> modes) {
        List<Gate> gates = new ArrayList<>();
        if (parameters.getBoolean(STRICT_PARITY).orElse(true)) {
            gates.add(new Gate("parity", "parity: every case behaves the same in both modes", Gates::parity));
        }
        double precision = number(parameters, MIN_PRECISION, 0.95);
        double recall = number(parameters, MIN_RECALL, 0.95);
        double calls = number(parameters, MAX_CALLS_PER_ORDINARY_TURN, 1.0);
        Optional<Double> cost = parameters.get(MAX_COST_PER_SUCCESS).map(v -> parse(MAX_COST_PER_SUCCESS, v));
        for (InvocationMode mode : modes) {
            String m = mode.wireName();
            gates.add(atLeast("min-precision-" + m, "event-selection precision (" + m + ") ≥ " + precision, mode,
                    ModeMetrics::selectionPrecision, precision, MIN_PRECISION));
            gates.add(atLeast("min-recall-" + m, "event-selection recall (" + m + ") ≥ " + recall, mode,
                    ModeMetrics::selectionRecall, recall, MIN_RECALL));
            gates.add(atMost("max-chat-calls-per-ordinary-turn-" + m, "ChatAgent calls per ordinary turn (" + m
                    + ") ≤ " + calls, mode, ModeMetrics::chatCallsPerOrdinaryTurn, calls, MAX_CALLS_PER_ORDINARY_TURN));
            gates.add(cost.map(max -> atMost("max-cost-per-successful-event-" + m, "cost per successful event ("
                    + m + ") ≤ " + max, mode, ModeMetrics::costPerSuccessfulEvent, max, MAX_COST_PER_SUCCESS))
                    .orElse(new Gate("max-cost-per-successful-event-" + m, "cost per successful event (" + m + ")",
                            metrics -> new Gate.Verdict.Skip(MAX_COST_PER_SUCCESS + " is not set"))));
        }
        if (modes.size() == 2) {
            double ratio = number(parameters, MAX_TTFT_RATIO, 1.5);
            gates.add(new Gate("max-ttft-ratio", "first-visible TTFT p50, chat_agent_tools ÷ dual_agent ≤ " + ratio,
                    metrics -> ttftRatio(metrics, ratio)));
        }
        parameters.get(BASELINE_FILE).map(Path::of).ifPresent(file -> gates.addAll(baseline(file, parameters, modes)));
        return gates;
    }

    private static Gate.Verdict parity(MetricsReport metrics) {
        Map<String, Boolean> verdicts = metrics.parityVerdicts();
        List<String> broken = verdicts.entrySet().stream().filter(e -> !e.getValue()).map(Map.Entry::getKey).toList();
        if (verdicts.isEmpty()) {
            return new Gate.Verdict.Skip("no case ran in both modes");
        }
        return broken.isEmpty() ? new Gate.Verdict.Pass(verdicts.size() + " cases, all alike in both modes")
                : new Gate.Verdict.Breach(broken.size() + " of " + verdicts.size() + " cases differ between the modes: "
                + broken + " (see their parity nodes; " + STRICT_PARITY + "=false turns this gate off)");
    }

    private static Gate atLeast(String id, String description, InvocationMode mode, Function<ModeMetrics, Number> value,
                                double threshold, String key) {
        return new Gate(id, description, metrics -> judge(metrics.mode(mode), value, threshold, key, true));
    }

    private static Gate atMost(String id, String description, InvocationMode mode, Function<ModeMetrics, Number> value,
                               double threshold, String key) {
        return new Gate(id, description, metrics -> judge(metrics.mode(mode), value, threshold, key, false));
    }

    private static Gate.Verdict judge(ModeMetrics metrics, Function<ModeMetrics, Number> read, double threshold,
                                      String key, boolean atLeast) {
        Number value = metrics.turns() == 0 ? null : read.apply(metrics);
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
        Double dual = metrics.mode(InvocationMode.DUAL_AGENT).firstVisibleTtftMs().p50();
        Double tools = metrics.mode(InvocationMode.CHAT_AGENT_TOOLS).firstVisibleTtftMs().p50();
        if (dual == null || tools == null || dual == 0) {
            return new Gate.Verdict.Skip("first-visible TTFT missing in a mode");
        }
        double ratio = tools / dual;
        String detail = String.format(Locale.ROOT, "chat_agent_tools %s ms ÷ dual_agent %s ms = %s, threshold ≤ %s (%s)",
                format(tools), format(dual), format(ratio), format(threshold), MAX_TTFT_RATIO);
        return ratio <= threshold ? new Gate.Verdict.Pass(detail) : new Gate.Verdict.Breach(detail);
    }

    private static List<Gate> baseline(Path file, ConfigurationParameters parameters, List<InvocationMode> modes) {
        double maxRegression = number(parameters, MAX_REGRESSION, 0.10);
        if (parameters.getBoolean(UPDATE_BASELINE).orElse(false)) {
            return List.of(new Gate("baseline-update", "baseline: write the current figures to " + file,
                    metrics -> {
                        writeBaseline(file, metrics, modes);
                        return new Gate.Verdict.Pass("wrote " + file.toAbsolutePath());
                    }));
        }
        JsonNode baseline;
        try {
            baseline = JSON.readTree(Files.readString(file));
        } catch (IOException e) {
            throw new UncheckedIOException(BASELINE_FILE + ": cannot read " + file + " (create it with "
                    + UPDATE_BASELINE + "=true)", e);
        }
        List<Gate> gates = new ArrayList<>();
        for (InvocationMode mode : modes) {
            for (Figure figure : BASELINE_FIGURES) {
                JsonNode recorded = baseline.path("modes").path(mode.wireName()).path(figure.key());
                if (!recorded.isNumber()) {
                    continue;
                }
                double base = recorded.asDouble();
                double limit = figure.higherBetter() ? base * (1 - maxRegression) : base * (1 + maxRegression);
                String id = "baseline-" + mode.wireName() + "-" + figure.key();
                gates.add(new Gate(id, "baseline: " + figure.key() + " (" + mode.wireName() + ") within "
                        + Math.round(maxRegression * 100) + "% of " + format(base), metrics -> {
                    Gate.Verdict verdict = judge(metrics.mode(mode), figure.value(), limit, MAX_REGRESSION,
                            figure.higherBetter());
                    return verdict instanceof Gate.Verdict.Breach breach ? new Gate.Verdict.Breach(breach.detail()
                            + "; baseline " + format(base) + " in " + file + " (refresh with " + UPDATE_BASELINE
                            + "=true if the change is intended)") : verdict;
                }));
            }
        }
        return gates;
    }

    private static void writeBaseline(Path file, MetricsReport metrics, List<InvocationMode> modes) {
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("comment", "Per-mode figures the gates compare against; refresh with " + UPDATE_BASELINE + "=true.");
        Map<String, Object> byMode = new LinkedHashMap<>();
        for (InvocationMode mode : modes) {
            ModeMetrics m = metrics.mode(mode);
            Map<String, Object> figures = new LinkedHashMap<>();
            for (Figure figure : BASELINE_FIGURES) {
                figures.put(figure.key(), m.turns() == 0 ? null : figure.value().apply(m));
            }
            byMode.put(mode.wireName(), figures);
        }
        root.put("modes", byMode);
        try {
            Files.writeString(file, JSON.writeValueAsString(root) + "\n");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the baseline " + file, e);
        }
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
