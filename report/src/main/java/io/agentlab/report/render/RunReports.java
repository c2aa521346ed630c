package io.agentlab.report.render;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.agentlab.kernel.api.InvocationMode;
import io.agentlab.report.Coverage;
import io.agentlab.report.RunMetadata;
import io.agentlab.report.TestOutcome;
import io.agentlab.report.controls.CapabilityGrowth;
import io.agentlab.report.controls.ControlMatrix;
import io.agentlab.report.internal.ConsoleReport;
import io.agentlab.report.internal.Evaluation;
import io.agentlab.report.internal.History;
import io.agentlab.report.internal.HtmlReport;
import io.agentlab.report.internal.MarkdownReport;
import io.agentlab.report.internal.RunReport;
import io.agentlab.report.metrics.MetricsReport;
import io.agentlab.report.metrics.ModeMetrics;
import io.agentlab.runtime.llm.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * The reports of one run, rendered: the files of a report folder ({@code metrics.json}, {@code report.md},
 * {@code index.html}, and an evaluation's figures when asked for) and the console summary. The one way the engine
 * and {@code agentlab merge} turn a run's {@link MetricsReport} and test outcomes into reports; the renderers behind it
 * are internal ({@code docs/api.md#report}).
 *
 * <pre>{@code
 * RunReports reports = RunReports.builder(metrics, metadata).tests(outcomes).compareWith("baseline", file).build();
 * reports.writeTo(folder);
 * System.out.println(reports.console());
 * }</pre>
 */
@API(status = EXPERIMENTAL, since = "0.2")
public final class RunReports {

    /** The metrics file: how the run was made, the per-mode figures and every turn's record. */
    public static final String METRICS_FILE = "metrics.json";
    /** The Markdown report. */
    public static final String MARKDOWN_FILE = "report.md";
    /** The HTML report. */
    public static final String HTML_FILE = "index.html";
    /** An evaluation's figures with their intervals, as JSON. */
    public static final String EVALUATION_FILE = "evaluation.json";
    /** The same as a Markdown table. */
    public static final String EVALUATION_MARKDOWN_FILE = "evaluation.md";
    /**
     * The folder, under a report folder, that receives a partial launch's reports (a rerun, a filtered run, a shard),
     * so they never replace the whole run's ({@code docs/engine.md#partial-launches}).
     */
    public static final String PARTIAL_FOLDER = "partial";

    private final Map<String, String> files;
    private final String console;

    private RunReports(Map<String, String> files, String console) {
        this.files = files;
        this.console = console;
    }

    /**
     * Starts the reports of the run {@code metrics} collected, made as {@code metadata} says.
     *
     * @param metrics  the run's turns, timings and parity verdicts
     * @param metadata how the run was made
     */
    public static Builder builder(MetricsReport metrics, RunMetadata metadata) {
        return new Builder(metrics, metadata);
    }

    /** The report folder's files by name, in the order they are written. */
    public Map<String, String> files() {
        return files;
    }

    /** The console summary: the results, the per-mode comparison and, when asked for, the evaluation's table. */
    public String console() {
        return console;
    }

    /**
     * Writes every file into {@code folder}, creating it.
     *
     * @return the files written, in {@link #files()} order
     * @throws IOException when the folder or a file cannot be written
     */
    public List<Path> writeTo(Path folder) throws IOException {
        Files.createDirectories(folder);
        List<Path> written = new ArrayList<>();
        for (Map.Entry<String, String> file : files.entrySet()) {
            written.add(Files.writeString(folder.resolve(file.getKey()), file.getValue(), StandardCharsets.UTF_8));
        }
        return written;
    }

    /** The media type of one of the report's files, by its name. */
    public static String mediaType(String fileName) {
        return fileName.endsWith(".json") ? "application/json" : fileName.endsWith(".md") ? "text/markdown"
                : "text/html";
    }

    /** Collects the parts of the reports; {@link #build()} renders them. Not thread-safe. */
    @API(status = EXPERIMENTAL, since = "0.2")
    public static final class Builder {

        private final MetricsReport metrics;
        private final RunMetadata metadata;
        private final List<TestOutcome> tests = new ArrayList<>();
        private final List<History> history = new ArrayList<>();
        private List<ControlMatrix.Cell> controls = List.of();
        private List<CapabilityGrowth.Point> growth = List.of();
        private Optional<Coverage> coverage = Optional.empty();
        private boolean evaluation;

        private Builder(MetricsReport metrics, RunMetadata metadata) {
            this.metrics = Objects.requireNonNull(metrics, "metrics");
            this.metadata = Objects.requireNonNull(metadata, "metadata");
        }

        /** Adds the outcomes of the run's tests (cases, gates, contract rules). */
        public Builder tests(List<TestOutcome> outcomes) {
            tests.addAll(outcomes);
            return this;
        }

        /** The all-disabled/all-enabled control cells, when they ran. */
        public Builder controlMatrix(List<ControlMatrix.Cell> cells) {
            controls = List.copyOf(cells);
            return this;
        }

        /** The capability-growth curve, when it was counted. */
        public Builder capabilityGrowth(List<CapabilityGrowth.Point> points) {
            growth = List.copyOf(points);
            return this;
        }

        /**
         * Compares the run's per-mode figures with a reference: a baseline file or an earlier {@code metrics.json}.
         * The file is read here, so call this before the run's own files replace it; a reference that cannot be read
         * is shown as a problem in the reports, never a failure.
         *
         * @param label what the reports call it ({@code "baseline"}, {@code "previous run"})
         * @param file  the reference
         */
        public Builder compareWith(String label, Path file) {
            history.add(History.against(file, label, metrics));
            return this;
        }

        /** What the launch covered, noted in {@code metrics.json} ({@code agentlab baseline} refuses a partial run). */
        public Builder coverage(Coverage covered) {
            coverage = Optional.of(covered);
            return this;
        }

        /** Whether to add an evaluation's figures with their intervals ({@value #EVALUATION_FILE}). */
        public Builder evaluation(boolean add) {
            evaluation = add;
            return this;
        }

        /** Renders the reports; notes the metadata (and coverage) in {@code metrics}, which {@code metrics.json} shows. */
        public RunReports build() {
            List<ModeMetrics> modes = modes(metrics);
            metrics.run(metadata.toMap());
            coverage.ifPresent(covered -> metrics.coverage(covered.toMap()));
            RunReport report = new RunReport(metadata, tests, modes, metrics.timelines(), controls, growth,
                    metrics.timings(), history);
            Map<String, String> files = new LinkedHashMap<>();
            files.put(METRICS_FILE, metrics.toJson());
            files.put(MARKDOWN_FILE, MarkdownReport.render(report));
            files.put(HTML_FILE, HtmlReport.render(report));
            String console = ConsoleReport.render(report);
            if (evaluation) {
                Evaluation figures = Evaluation.of(metrics.samples());
                files.put(EVALUATION_MARKDOWN_FILE, figures.markdown());
                files.put(EVALUATION_FILE, Json.write(figures.toMap()));
                console += figures.markdown() + "\n";
            }
            return new RunReports(Collections.unmodifiableMap(files), console);
        }

        /** The figures of every mode that ran, dual_agent first. */
        private static List<ModeMetrics> modes(MetricsReport metrics) {
            List<ModeMetrics> modes = new ArrayList<>();
            for (InvocationMode mode : InvocationMode.values()) {
                ModeMetrics figures = metrics.mode(mode);
                if (figures.turns() > 0) {
                    modes.add(figures);
                }
            }
            return modes;
        }
    }
}
