package io.agentlab.report.internal;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.agentlab.report.metrics.Metric;
import io.agentlab.report.metrics.ModeMetrics;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import org.apiguardian.api.API;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * What moved against an earlier reference: a committed baseline or a previous run's {@code metrics.json}. Both keep
 * per-mode figures under {@code modes.<mode>.<metric key>} (a distribution by its {@code p50}), so one reader serves
 * both.
 *
 * @param source what was compared against ("baseline conformance-suites/baseline.json", "previous run ...")
 * @param moves  every catalogue figure present in both, largest relative change first; unchanged ones included
 * @param problem why the reference could not be read, if it could not (the moves are then empty)
 */
@API(status = INTERNAL, since = "0.1")
public record History(String source, List<Move> moves, Optional<String> problem) {

    private static final JsonMapper JSON = JsonMapper.builder().build();

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
     */
    public record Move(String mode, Metric metric, double before, double after) {

        /** (after − before) ÷ before; infinite when it rose from zero. */
        public double relativeChange() {
            return before == 0 ? (after == 0 ? 0 : Double.POSITIVE_INFINITY) : (after - before) / before;
        }

        /** {@code better}, {@code worse} or {@code unchanged}, by the metric's better direction. */
        public String direction() {
            if (after == before || metric.better() == Metric.Better.NEITHER) {
                return after == before ? "unchanged" : "changed";
            }
            return (after < before) == (metric.better() == Metric.Better.LOWER) ? "better" : "worse";
        }
    }

    /** Compares this run's {@code modes} with the reference in {@code file}; an unreadable file is a problem, not a failure. */
    public static History against(Path file, String label, List<ModeMetrics> modes) {
        String source = label + " " + file;
        JsonNode root;
        try {
            root = JSON.readTree(Files.readString(file, StandardCharsets.UTF_8));
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
        List<Move> moves = new ArrayList<>();
        for (ModeMetrics now : modes) {
            JsonNode then = root.path("modes").path(now.mode().wireName());
            for (Metric metric : Metric.values()) {
                JsonNode node = then.path(metric.key());
                JsonNode value = node.isObject() ? node.path("p50") : node;
                Number current = now.value(metric);
                if (value.isNumber() && current != null) {
                    moves.add(new Move(now.mode().wireName(), metric, value.asDouble(), current.doubleValue()));
                }
            }
        }
        moves.sort(Comparator.comparingDouble((Move move) -> -Math.abs(move.relativeChange())));
        return new History(source, moves, moves.isEmpty() && !root.path("modes").isObject()
                ? Optional.of("it has no per-mode figures ('modes')") : Optional.empty());
    }

    /** The figures that changed. */
    public List<Move> changed() {
        return moves.stream().filter(move -> move.before() != move.after()).toList();
    }
}
