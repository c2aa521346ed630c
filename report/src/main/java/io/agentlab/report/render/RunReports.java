package io.agentlab.report.render;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.agentlab.kernel.api.InvocationMode;
import io.agentlab.report.Coverage;
import io.agentlab.report.RunMetadata;
import io.agentlab.report.TestLog;
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
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * The reports of one run: the files of a report folder ({@code metrics.json}, {@code report.md}, {@code index.html},
 * and an evaluation's figures when asked for) and the console summary. The one way the engine and
 * {@code agentlab merge} turn a run's {@link MetricsReport} and test outcomes into reports; the renderers behind it are
 * internal ({@code docs/api.md#report}). The files are written as they are rendered, from the run's spooled turns and
 * tests, so no file is ever held in memory whole (docs/performance.md#memory).
 *
 * <pre>{@code
 * try (RunReports reports = RunReports.builder(metrics, metadata).tests(outcomes).compareWith("baseline", file)
 *         .build()) {
 *     reports.writeTo(folder);
 *     System.out.println(reports.console());
 * }
 * }</pre>
 */
@API(status = EXPERIMENTAL, since = "0.2")
public final class RunReports implements AutoCloseable {

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

    private final MetricsReport metrics;
    private final RunReport report;
    private final Optional<Evaluation> evaluation;
    private final String console;
    /** The test log the builder made for outcomes given as a list, closed with these reports. */
    private final Optional<TestLog> ownLog;
    private final List<Path> written = new ArrayList<>();

    private RunReports(MetricsReport metrics, RunReport report, Optional<Evaluation> evaluation, String console,
                       Optional<TestLog> ownLog) {
        this.metrics = metrics;
        this.report = report;
        this.evaluation = evaluation;
        this.console = console;
        this.ownLog = ownLog;
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

    /** The names of the report folder's files, in the order they are written. */
    public List<String> fileNames() {
        List<String> names = new ArrayList<>(List.of(METRICS_FILE, MARKDOWN_FILE, HTML_FILE));
        if (evaluation.isPresent()) {
            names.addAll(List.of(EVALUATION_MARKDOWN_FILE, EVALUATION_FILE));
        }
        return names;
    }

    /** The console summary: the results, the per-mode comparison and, when asked for, the evaluation's table. */
    public String console() {
        return console;
    }

    /**
     * Writes every file into {@code folder}, creating it, each rendered as it is written.
     *
     * @return the files written, in {@link #fileNames()} order
     * @throws IOException when the folder or a file cannot be written
     */
    public List<Path> writeTo(Path folder) throws IOException {
        Files.createDirectories(folder);
        List<Path> files = new ArrayList<>();
        for (String name : fileNames()) {
            Path file = folder.resolve(name);
            try (Writer out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
                switch (name) {
                    case METRICS_FILE -> metrics.writeJson(out);
                    case MARKDOWN_FILE -> MarkdownReport.render(report, out);
                    case HTML_FILE -> HtmlReport.render(report, out);
                    case EVALUATION_MARKDOWN_FILE -> out.write(evaluation.orElseThrow().markdown());
                    default -> out.write(Json.write(evaluation.orElseThrow().toMap()));
                }
            }
            files.add(file);
        }
        written.clear();
        written.addAll(files);
        return files;
    }

    /**
     * Copies the files the last {@link #writeTo} wrote into {@code folder}, creating it: a second place for the same
     * reports without rendering them again.
     *
     * @return the copies, in {@link #fileNames()} order
     * @throws IOException           when the folder or a file cannot be written
     * @throws IllegalStateException when nothing was written yet
     */
    public List<Path> copyTo(Path folder) throws IOException {
        if (written.isEmpty()) {
            throw new IllegalStateException("nothing written to copy: call writeTo first");
        }
        Files.createDirectories(folder);
        List<Path> copies = new ArrayList<>();
        for (Path file : written) {
            Path copy = folder.resolve(file.getFileName().toString());
            if (!Files.exists(copy) || !Files.isSameFile(file, copy)) {
                Files.copy(file, copy, StandardCopyOption.REPLACE_EXISTING);
            }
            copies.add(copy);
        }
        return copies;
    }

    /** The media type of one of the report's files, by its name. */
    public static String mediaType(String fileName) {
        return fileName.endsWith(".json") ? "application/json" : fileName.endsWith(".md") ? "text/markdown"
                : "text/html";
    }

    /** Lets go of what the builder made for these reports (the log of outcomes given as a list). */
    @Override
    public void close() {
        ownLog.ifPresent(TestLog::close);
    }

    /** Collects the parts of the reports; {@link #build()} renders them. Not thread-safe. */
    @API(status = EXPERIMENTAL, since = "0.2")
    public static final class Builder {

        private final MetricsReport metrics;
        private final RunMetadata metadata;
        private final List<History> history = new ArrayList<>();
        private TestLog tests;
        private boolean ownTests;
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
            if (tests == null) {
                tests = new TestLog();
                ownTests = true;
            }
            outcomes.forEach(tests::add);
            return this;
        }

        /**
         * The run's tests as its log kept them while it went (the engine's): read back as the reports are written,
         * never all at once. Outcomes given to {@link #tests(List)} afterwards are added to it.
         *
         * @throws IllegalStateException when outcomes were given before
         */
        public Builder tests(TestLog log) {
            if (tests != null) {
                throw new IllegalStateException("the tests were given already");
            }
            tests = Objects.requireNonNull(log, "log");
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

        /**
         * Gathers the reports: notes the metadata (and coverage) in {@code metrics}, which {@code metrics.json} shows,
         * reads the turns back once to choose the timelines drawn, and renders the console summary; the files are
         * rendered by {@link RunReports#writeTo}.
         */
        public RunReports build() {
            if (tests == null) {
                tests(List.of());
            }
            List<ModeMetrics> modes = modes(metrics);
            metrics.run(metadata.toMap());
            coverage.ifPresent(covered -> metrics.coverage(covered.toMap()));
            RunReport report = RunReport.of(metadata, tests, modes, metrics, controls, growth, history);
            String console = ConsoleReport.render(report);
            // an evaluation's figures need every sample in the turns' order: a live run of a few hundred turns
            Optional<Evaluation> figures = evaluation ? Optional.of(Evaluation.of(metrics.samples()))
                    : Optional.empty();
            if (figures.isPresent()) {
                console += figures.get().markdown() + "\n";
            }
            return new RunReports(metrics, report, figures, console, ownTests ? Optional.of(tests) : Optional.empty());
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
