package io.agentlab.report.internal;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.agentlab.kernel.api.InvocationMode;
import io.agentlab.report.metrics.Metric;
import io.agentlab.report.metrics.MetricsReport;
import io.agentlab.report.metrics.ModeMetrics;
import io.agentlab.report.metrics.TurnRecord;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import org.apiguardian.api.API;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * What moved against an earlier reference: a committed baseline or a previous run's {@code metrics.json}. Both keep
 * per-mode figures under {@code modes.<mode>.<metric key>} (a distribution by its {@code p50}), so one reader serves
 * both; a previous run's turn records also say whether a change is beyond noise.
 *
 * @param source what was compared against ("baseline conformance-suites/baseline.json", "previous run ...")
 * @param moves  every catalogue figure present in both, largest relative change first; unchanged ones included
 * @param problem why the reference could not be read, if it could not (the moves are then empty)
 */
@API(status = INTERNAL, since = "0.1")
public record History(String source, List<Move> moves, Optional<String> problem) {

    /** Copies the moves. */
    public History {
        moves = List.copyOf(moves);
    }

    /**
     * One figure then and now.
     *
     * @param mode   the mode's wire name
     * @param metric the measure
     * @param before the reference's value
     * @param after  this run's value
     * @param noise  why the change is not called better or worse, when it is not: within the noise of the two runs'
     *               samples, a latency model's timing, or no samples to judge by (a baseline keeps figures only)
     */
    public record Move(String mode, Metric metric, double before, double after, Optional<String> noise) {

        /** (after − before) ÷ before; infinite when it rose from zero. */
        public double relativeChange() {
            return before == 0 ? (after == 0 ? 0 : Double.POSITIVE_INFINITY) : (after - before) / before;
        }

        /**
         * {@code better} or {@code worse} by the metric's better direction, only beyond noise; else {@code changed}
         * (or {@code unchanged}): a report colours the first two only (docs/engine.md#what-moved).
         */
        public String direction() {
            if (after == before) {
                return "unchanged";
            }
            if (metric.better() == Metric.Better.NEITHER || noise.isPresent()) {
                return "changed";
            }
            return (after < before) == (metric.better() == Metric.Better.LOWER) ? "better" : "worse";
        }

        /** The direction with the reason a change is not called, as the reports' last column shows it. */
        public String describe() {
            return direction() + noise.filter(reason -> after != before).map(reason -> " (" + reason + ")").orElse("");
        }
    }

    /**
     * Compares this run's figures with the reference in {@code file}; an unreadable file is a problem, not a failure.
     * A previous run's {@code metrics.json} carries its turn records, so a change is called better or worse only when
     * the two runs' samples differ beyond noise (the comparison's own test, {@link Comparison}); a baseline keeps
     * figures only, so there only counted figures (tokens, calls, rates) are called, never timings; and a timing a
     * latency model made on either side is never called.
     */
    public static History against(Path file, String label, MetricsReport now) {
        String source = label + " " + file;
        JsonNode root;
        try {
            // the figures first, without the turns; then the turns one at a time, only when there are any
            root = MetricsReport.head(file);
        } catch (IOException e) {
            return new History(source, List.of(), Optional.of("cannot read it: " + e));
        } catch (JacksonException e) {
            return new History(source, List.of(), Optional.of("not JSON: " + e.getOriginalMessage()));
        }
        JsonNode run = root.path("run");
        if (run.path("startedAt").isString()) {
            source += " (" + run.path("startedAt").asString()
                    + (run.path("commit").isString() ? ", commit " + run.path("commit").asString() : "") + ")";
        }
        Optional<MetricsReport> then = Optional.empty();
        if (root.path("turns").asInt(0) > 0) {
            try {
                then = Optional.of(MetricsReport.read(file));
            } catch (IllegalArgumentException | UncheckedIOException e) {
                then = Optional.empty(); // an older kit's file: figures only, judged as a baseline's
            }
        }
        try {
            return compare(source, root, then, now);
        } finally {
            then.ifPresent(MetricsReport::close);
        }
    }

    private static History compare(String source, JsonNode root, Optional<MetricsReport> then, MetricsReport now) {
        boolean modelled = modelled(now) || then.map(History::modelled).orElse(false);
        List<Move> moves = new ArrayList<>();
        for (InvocationMode mode : InvocationMode.values()) {
            ModeMetrics current = now.mode(mode);
            if (current.turns() == 0) {
                continue;
            }
            Optional<ModeMetrics> before = then.map(report -> report.mode(mode)).filter(m -> m.turns() > 0);
            JsonNode figures = root.path("modes").path(mode.wireName());
            for (Metric metric : Metric.values()) {
                JsonNode node = figures.path(metric.key());
                JsonNode value = node.isObject() ? node.path("p50") : node;
                Number after = current.value(metric);
                if (value.isNumber() && after != null) {
                    moves.add(new Move(mode.wireName(), metric, value.asDouble(), after.doubleValue(),
                            noise(metric, before, current, modelled)));
                }
            }
        }
        moves.sort(Comparator.comparingDouble((Move move) -> -Math.abs(move.relativeChange())));
        return new History(source, moves, moves.isEmpty() && !root.path("modes").isObject()
                ? Optional.of("it has no per-mode figures ('modes')") : Optional.empty());
    }

    private static boolean modelled(MetricsReport report) {
        return report.timingCounts().getOrDefault(TurnRecord.Timing.MODELLED, 0L) > 0;
    }

    /** Why a change of {@code metric} is not called better or worse, if it is not. */
    private static Optional<String> noise(Metric metric, Optional<ModeMetrics> before, ModeMetrics after,
                                          boolean modelled) {
        if (metric.isTiming() && modelled) {
            return Optional.of("a latency model's timing");
        }
        if (before.isEmpty()) {
            return metric.isTiming() ? Optional.of("no samples in the reference to judge noise by") : Optional.empty();
        }
        // the comparison's own test, with the reference in the first place: "better" there means the reference was
        Comparison.Verdict verdict = Comparison.of(metric, before.get(), after).verdict();
        if (verdict instanceof Comparison.Verdict.Better) {
            return Optional.empty();
        }
        return Optional.of(verdict.text());
    }
    /** The figures that changed. */
    public List<Move> changed() {
        return moves.stream().filter(move -> move.before() != move.after()).toList();
    }
}
