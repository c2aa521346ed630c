package io.agentlab.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * Reads the JMH results and the measurement mains' figures, prints one table of figures, ratios and goals, and
 * writes it as {@code <results>/<date>.md}.
 */
public final class Report {

    private record Row(String figure, String value, String goal, String status, String how) {
    }

    private final List<Row> rows = new ArrayList<>();

    private Report() {
    }

    /** {@code args[0]}: the figures folder; {@code args[1]}: the results folder. */
    public static void main(String[] args) throws IOException {
        Path figures = Path.of(args[0]);
        Path results = Path.of(args[1]);
        Report report = new Report();
        report.read(figures);
        String markdown = report.markdown();
        System.out.println(markdown);
        Files.createDirectories(results);
        Path file = results.resolve(LocalDate.now() + ".md");
        Files.writeString(file, markdown);
        System.out.println("written to " + file);
    }

    private void read(Path figures) throws IOException {
        JsonNode jmh = Figures.JSON.readTree(Files.readString(figures.resolve("jmh.json")));
        JsonNode visible = Figures.JSON.readTree(Files.readString(figures.resolve("first-visible.json")));
        JsonNode engine = Figures.JSON.readTree(Files.readString(figures.resolve("engine.json")));

        double overhead1 = percentile50(jmh, "KernelOverheadBenchmark.batch", Map.of("events", "1", "idleMicros", "0"));
        double overhead16 = percentile50(jmh, "KernelOverheadBenchmark.batch",
                Map.of("events", "16", "idleMicros", "0")) / 16;
        double isolated1 = percentile50(jmh, "KernelOverheadBenchmark.batch",
                Map.of("events", "1", "idleMicros", "1000"));
        goal("kernel overhead per event, batch of 1, back to back (median)", overhead1, "µs", "≤ 20 µs",
                overhead1 <= 20, "JMH SampleTime, in-memory handler");
        rows.add(new Row("kernel overhead per event, batch of 16, back to back (median / 16)", format(overhead16)
                + " µs", "", "", "JMH SampleTime"));
        rows.add(new Row("kernel overhead, batch of 1 after 1 ms idle (median)", format(isolated1) + " µs", "", "",
                "JMH SampleTime; the kernel's threads have parked, so both hand-offs are wake-ups"));
        for (String limit : List.of("16", "4")) {
            double wall = score(jmh, "BatchWallBenchmark.batch", Map.of("limit", limit));
            double ideal = BatchWallBenchmark.HANDLER_MS
                    * Math.ceil((double) BatchWallBenchmark.EVENTS / Integer.parseInt(limit));
            double ratio = wall / ideal;
            goal("batch wall / ideal, 16 × 50 ms at limit " + limit + " (" + format(wall) + " / " + format(ideal)
                    + " ms)", ratio, "", "≤ 1.05", ratio <= 1.05, "JMH SingleShotTime, mean of " + BatchWallBenchmark.MEASURED + " batches after "
                    + BatchWallBenchmark.WARM_UP);
        }
        double parserBytes = StreamParsingBenchmark.bytes(StreamParsingBenchmark.dualDeltas());
        double parser = score(jmh, "StreamParsingBenchmark.hiddenBlockParser", Map.of()) * parserBytes / 1e6;
        goal("hidden-block parser throughput", parser, "MB/s", "≥ 200 MB/s", parser >= 200,
                "JMH Throughput × " + (long) parserBytes + " B/op; alloc " + alloc(jmh,
                        "StreamParsingBenchmark.hiddenBlockParser") + " per op");
        double accumulatorBytes = StreamParsingBenchmark.bytes(StreamParsingBenchmark.toolPayloads());
        double accumulator = score(jmh, "StreamParsingBenchmark.toolCallAccumulator", Map.of()) * accumulatorBytes / 1e6;
        rows.add(new Row("tool-call accumulator throughput", format(accumulator) + " MB/s", "", "",
                "JMH Throughput × " + (long) accumulatorBytes + " B/op of chunk JSON; alloc "
                        + alloc(jmh, "StreamParsingBenchmark.toolCallAccumulator") + " per op"));
        for (String mode : List.of("dual_agent", "chat_agent_tools")) {
            double added = visible.path("runtime_added_in_process_ms_p50." + mode).asDouble();
            goal("runtime-added first-visible delay, " + mode + " (median)", added, "ms", "≤ 1 ms", added <= 1,
                    "runtime metrics, in-process provider, 2,000 turns; p95 "
                            + visible.path("runtime_added_in_process_ms_p95." + mode).asDouble() + " ms");
            rows.add(new Row("first-visible TTFT over the recorded offset, " + mode + " (median)",
                    visible.path("first_visible_over_recorded_offset_ms_p50." + mode).asDouble() + " ms", "", "",
                    "WireMock replay at speed 1.0, 60 turns; p95 "
                            + visible.path("first_visible_over_recorded_offset_ms_p95." + mode).asDouble() + " ms"));
        }
        rows.add(new Row("engine throughput at replay speed 0", engine.path("engine_cases_per_second").asDouble()
                + " cases/s", "", "", engine.path("engine_cases").asInt() + " generated cases × 2 modes + parity in "
                + engine.path("engine_seconds").asDouble() + " s; " + engine.path("engine_tests_failed").asInt()
                + " failed"));
        rows.add(new Row("engine heap peak", engine.path("engine_heap_peak_mb").asDouble() + " MB", "", "",
                "sum of heap pools' peak usage, -Xmx" + engine.path("engine_max_heap_mb").asLong() + "m"));
    }

    private void goal(String figure, double value, String unit, String goal, boolean met, String how) {
        rows.add(new Row(figure, format(value) + (unit.isEmpty() ? "" : " " + unit), goal, met ? "met" : "MISSED", how));
    }

    private String markdown() {
        StringBuilder out = new StringBuilder("# Benchmarks, " + LocalDate.now() + "\n\n");
        out.append("Machine: ").append(Runtime.getRuntime().availableProcessors()).append(" cores, Java ")
                .append(System.getProperty("java.version")).append(", ").append(System.getProperty("os.name"))
                .append(". Command: `benchmarks/run.sh`.\n\n");
        out.append("| figure | value | goal | status | how |\n| --- | --- | --- | --- | --- |\n");
        for (Row row : rows) {
            out.append("| ").append(row.figure()).append(" | ").append(row.value()).append(" | ").append(row.goal())
                    .append(" | ").append(row.status()).append(" | ").append(row.how()).append(" |\n");
        }
        return out.toString();
    }

    private static Optional<JsonNode> find(JsonNode jmh, String benchmark, Map<String, String> params) {
        for (JsonNode result : jmh) {
            if (result.path("benchmark").asString().endsWith(benchmark) && params.entrySet().stream().allMatch(
                    param -> param.getValue().equals(result.path("params").path(param.getKey()).asString()))) {
                return Optional.of(result);
            }
        }
        return Optional.empty();
    }

    private static JsonNode result(JsonNode jmh, String benchmark, Map<String, String> params) {
        return find(jmh, benchmark, params).orElseThrow(() -> new IllegalStateException("no JMH result for "
                + benchmark + " " + params));
    }

    private static double score(JsonNode jmh, String benchmark, Map<String, String> params) {
        return result(jmh, benchmark, params).path("primaryMetric").path("score").asDouble();
    }

    private static double percentile50(JsonNode jmh, String benchmark, Map<String, String> params) {
        return result(jmh, benchmark, params).path("primaryMetric").path("scorePercentiles").path("50.0").asDouble();
    }

    private static String alloc(JsonNode jmh, String benchmark) {
        JsonNode secondary = find(jmh, benchmark, Map.of()).orElseThrow().path("secondaryMetrics");
        for (var entry : secondary.properties()) {
            if (entry.getKey().endsWith("gc.alloc.rate.norm")) {
                return format(entry.getValue().path("score").asDouble()) + " B";
            }
        }
        return "(run with -prof gc)";
    }

    private static String format(double value) {
        return String.format(Locale.ROOT, value >= 100 ? "%.0f" : value >= 10 ? "%.1f" : "%.3f", value);
    }
}
