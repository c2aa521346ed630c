package io.agentlab.report.metrics;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.agentlab.kernel.api.InvocationMode;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apiguardian.api.API;

/**
 * The measures of one mode: every {@link Metric} of the catalogue, aggregated over the mode's turns. Rates are null
 * when nothing was there to count; costs are null unless every call was priced.
 *
 * @param mode    the mode
 * @param turns   turns measured
 * @param figures one figure per metric, in catalogue order
 */
@API(status = INTERNAL, since = "0.1")
public record ModeMetrics(InvocationMode mode, int turns, Map<Metric, Figure> figures) {

    /** Copies the figures. */
    public ModeMetrics {
        figures = Collections.unmodifiableMap(new EnumMap<>(figures));
    }

    /**
     * Aggregates the turns of {@code mode} among {@code samples}: the same figures whether the samples come from one
     * run or from the {@code metrics.json} of several shards. A run's own figures come from its {@link MetricsReport},
     * which adds up the same way without keeping the samples in memory.
     */
    public static ModeMetrics of(InvocationMode mode, List<TurnSample> samples) {
        Tally tally = new Tally(Columns.inMemory());
        samples.stream().filter(s -> s.mode() == mode).forEach(tally::add);
        return tally.mode(mode);
    }

    /** The figure of {@code metric}. */
    public Figure figure(Metric metric) {
        return figures.get(metric);
    }

    /** The headline number of {@code metric} (a distribution's median); null when unknown. */
    public Number value(Metric metric) {
        return figure(metric).value();
    }

    /** The measures as an ordered map, for {@code metrics.json}: {@code turns}, then the catalogue. */
    public Map<String, Object> toMap() {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("turns", turns);
        figures.forEach((metric, figure) -> map.put(metric.key(), figure.toJson()));
        return map;
    }
}
