package io.agentlab.report.gates;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.agentlab.report.metrics.Metric;
import io.agentlab.report.metrics.MetricsReport;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.apiguardian.api.API;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * A committed baseline: per mode, the figures of the catalogue's baseline metrics ({@link Metric#baselineMetrics()}),
 * under their {@code metrics.json} keys. The gates only read it, when they run; it is written by a command that copies
 * a finished run's figures ({@link #refresh}, {@code agentlab baseline}), so accepting a change is a deliberate act
 * and never a test that always passes.
 *
 * @param file    where it was read from
 * @param figures mode wire name → metric key → value
 */
@API(status = INTERNAL, since = "0.1")
public record Baseline(Path file, Map<String, Map<String, Double>> figures) {

    /** How to refresh one, for messages. */
    public static final String REFRESH_HINT = "refresh it from a run with `agentlab baseline --from <report>/"
            + "metrics.json --to <baseline.json>` (docs/configuration.md#gates)";

    private static final JsonMapper JSON = JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();

    /** Copies the figures, keeping their order. */
    public Baseline {
        Map<String, Map<String, Double>> copy = new LinkedHashMap<>();
        figures.forEach((mode, values) -> copy.put(mode, Collections.unmodifiableMap(new LinkedHashMap<>(values))));
        figures = Collections.unmodifiableMap(copy);
    }

    /** Reads a baseline file; the message of a failure names the file and says how to write one. */
    public static Baseline read(Path file) {
        JsonNode root;
        try {
            root = JSON.readTree(Files.readString(file, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the baseline " + file + ": " + reason(e) + "; " + REFRESH_HINT, e);
        } catch (JacksonException e) {
            throw new IllegalArgumentException("the baseline " + file + " is not JSON: " + e.getOriginalMessage()
                    + "; " + REFRESH_HINT, e);
        }
        return new Baseline(file, modeFigures(root, file));
    }

    /**
     * Why a file could not be read, in words: the file-system exceptions' message is the path alone, which the caller
     * already names ("no such file", not {@code java.nio.file.NoSuchFileException: b.json}).
     */
    private static String reason(IOException e) {
        if (e instanceof NoSuchFileException) {
            return "no such file";
        }
        if (e instanceof AccessDeniedException) {
            return "permission denied";
        }
        if (e instanceof CharacterCodingException) {
            return "not UTF-8 text";
        }
        String reason = e instanceof FileSystemException system ? system.getReason() : e.getMessage();
        return reason == null || reason.isBlank() ? e.getClass().getSimpleName() : reason;
    }

    /** The recorded value of {@code metric} in {@code mode}, if the file has one. */
    public Optional<Double> figure(String mode, Metric metric) {
        return Optional.ofNullable(figures.getOrDefault(mode, Map.of()).get(metric.key()));
    }

    /**
     * Writes the baseline figures of a finished run's {@code metrics.json} to {@code baseline}, replacing it; returns
     * what was written. Every mode of the run is recorded; a run without a mode's figure fails, naming it. A partial
     * launch's figures (its {@code coverage} says {@code partial}) are refused.
     */
    public static String refresh(Path metricsJson, Path baseline) {
        return refresh(metricsJson, baseline, false);
    }

    /**
     * As {@link #refresh(Path, Path)}; with {@code allowPartial} a partial launch's figures are accepted too (a run
     * of a tagged subset whose own baseline it is).
     */
    public static String refresh(Path metricsJson, Path baseline, boolean allowPartial) {
        JsonNode metrics;
        try {
            // the figures only: a long run's turns are never read into memory (docs/performance.md#memory)
            metrics = MetricsReport.head(metricsJson);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the run's metrics " + metricsJson + ": " + reason(e), e);
        } catch (JacksonException e) {
            throw new IllegalArgumentException(metricsJson + " is not JSON: " + e.getOriginalMessage(), e);
        }
        if (!metrics.path("modes").isObject() || metrics.path("modes").isEmpty()) {
            throw new IllegalArgumentException(metricsJson + " has no per-mode figures ('modes'): is it a "
                    + "metrics.json of a run in which a case ran?");
        }
        if (metrics.path("coverage").path("partial").asBoolean(false) && !allowPartial) {
            // the next whole run would fail every baseline gate a subset's figures set (docs/engine.md#partial-launches)
            throw new IllegalArgumentException(metricsJson + " is a partial launch's ("
                    + metrics.path("coverage").path("description").asString("part of its suites")
                    + "), not a whole run's: run the whole suites, or pass --allow-partial to accept them anyway");
        }
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("comment", "Per-mode figures the gates compare against; written by `agentlab baseline` from "
                + "a run's metrics.json" + run(metrics) + ". Edit only by refreshing.");
        Map<String, Object> byMode = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> mode : metrics.path("modes").properties()) {
            Map<String, Object> values = new LinkedHashMap<>();
            for (Metric metric : Metric.baselineMetrics()) {
                JsonNode value = mode.getValue().path(metric.key());
                if (!value.isNumber() && !value.isNull()) {
                    throw new IllegalArgumentException(metricsJson + " has no '" + metric.key() + "' for "
                            + mode.getKey() + " (written by an older kit? run the suites again)");
                }
                values.put(metric.key(), value.isNull() ? null : value.numberValue());
            }
            byMode.put(mode.getKey(), values);
        }
        root.put("modes", byMode);
        String text = JSON.writeValueAsString(root) + "\n";
        try {
            Path parent = baseline.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            Files.writeString(baseline, text, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the baseline " + baseline + ": " + reason(e), e);
        }
        return text;
    }

    private static String run(JsonNode metrics) {
        JsonNode run = metrics.path("run");
        StringBuilder text = new StringBuilder();
        if (run.path("commit").isString()) {
            text.append(" at commit ").append(run.path("commit").asString());
        }
        if (run.path("startedAt").isString()) {
            try {
                Instant started = Instant.parse(run.path("startedAt").asString());
                text.append(" of ").append(started.truncatedTo(ChronoUnit.SECONDS));
            } catch (DateTimeParseException e) {
                text.append(" of ").append(run.path("startedAt").asString());
            }
        }
        return text.toString();
    }

    private static Map<String, Map<String, Double>> modeFigures(JsonNode root, Path file) {
        if (!root.path("modes").isObject()) {
            throw new IllegalArgumentException("the baseline " + file + " has no 'modes' object; " + REFRESH_HINT);
        }
        Map<String, Map<String, Double>> figures = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> mode : root.path("modes").properties()) {
            Map<String, Double> values = new LinkedHashMap<>();
            for (Map.Entry<String, JsonNode> value : mode.getValue().properties()) {
                if (value.getValue().isNumber()) {
                    values.put(value.getKey(), value.getValue().asDouble());
                }
            }
            figures.put(mode.getKey(), values);
        }
        return figures;
    }
}
