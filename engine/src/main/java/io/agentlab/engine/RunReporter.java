package io.agentlab.engine;

import io.agentlab.engine.internal.execution.CaseRunner;
import io.agentlab.report.metrics.ModeMetrics;
import io.agentlab.report.metrics.TurnTimeline;
import io.agentlab.report.internal.CapabilityGrowth;
import io.agentlab.report.internal.ConsoleReport;
import io.agentlab.report.internal.ControlMatrix;
import io.agentlab.report.internal.Coverage;
import io.agentlab.report.internal.Evaluation;
import io.agentlab.report.internal.History;
import io.agentlab.report.internal.HtmlReport;
import io.agentlab.report.internal.InBackground;
import io.agentlab.report.internal.MarkdownReport;
import io.agentlab.report.internal.RunMetadata;
import io.agentlab.report.internal.RunReport;
import io.agentlab.engine.internal.suite.SuiteReader;
import io.agentlab.kernel.api.EventDefinition;
import io.agentlab.kernel.api.EventPlugin;
import io.agentlab.kernel.api.InvocationMode;
import io.agentlab.runtime.llm.Json;
import io.agentlab.providers.recorded.TimedReplay;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.junit.platform.commons.JUnitException;
import org.junit.platform.engine.TestDescriptor;
import org.junit.platform.engine.reporting.FileEntry;

/**
 * The after-run component: once every suite and gate has finished, it turns what the run collected — the turn
 * records, every test's outcome from the {@link RunLog} — into the reports. It runs the control matrix and the
 * capability-growth count, compares with the baseline and a previous run, writes {@code metrics.json},
 * {@code report.md} and {@code index.html} through the request's output directory creator (published as file
 * entries, and copied to {@code agentlab.report.directory}), and prints the console report. The engine's root calls
 * it once and knows nothing of what it writes.
 */
final class RunReporter {

    /** The metrics file's name. */
    static final String METRICS_FILE = "metrics.json";
    /** The Markdown report's name. */
    static final String MARKDOWN_FILE = "report.md";
    /** The HTML report's name. */
    static final String HTML_FILE = "index.html";
    /** An evaluation's figures with their intervals, as JSON ({@code agentlab.evaluate}). */
    static final String EVALUATION_FILE = "evaluation.json";
    /** The same as a Markdown table. */
    static final String EVALUATION_MARKDOWN_FILE = "evaluation.md";
    /** The folder, under the report folders, that receives a partial launch's reports. */
    static final String PARTIAL_FOLDER = "partial";
    /** Enabled events the capability-growth curve reaches (the offered ones, then synthetic ones). */
    static final int GROWTH_EVENTS = 50;

    private RunReporter() {
    }

    /**
     * The capability-growth curve for these offered events, counted on a daemon thread
     * ({@link CapabilityGrowth#inBackground}): the engine node starts it when the run begins and the report waits for
     * it (docs/performance.md#report-parts).
     */
    static CompletableFuture<List<CapabilityGrowth.Point>> growth(List<EventDefinition> offered) {
        return CapabilityGrowth.inBackground(offered, Math.max(GROWTH_EVENTS, offered.size()),
                SuiteReader.DEFAULT_MODEL, CaseRunner.PERSONA);
    }

    /**
     * Writes and prints the reports of the run in {@code context}; {@code replay} serves the control turns, unless
     * {@code controls} holds them already (started beside the cases at replay speed 0).
     */
    static void report(ConformanceContext context, TestDescriptor root, Coverage coverage, Optional<TimedReplay> replay,
                       Optional<CompletableFuture<List<ControlMatrix.Cell>>> controls,
                       CompletableFuture<List<CapabilityGrowth.Point>> growth) throws IOException {
        EngineOptions settings = context.settings();
        // a partial launch never replaces the whole run's reports (docs/engine.md#partial-launches)
        Optional<Path> extra = settings.reportDirectory().map(folder -> coverage.partial()
                ? folder.resolve(PARTIAL_FOLDER) : folder);
        List<ModeMetrics> modes = new ArrayList<>();
        for (InvocationMode mode : InvocationMode.values()) {
            ModeMetrics metrics = context.metrics().mode(mode);
            if (metrics.turns() > 0) {
                modes.add(metrics);
            }
        }
        // read the references before this run's files replace any of them
        // a subset's figures moved against the whole run's only by what was left out: no comparison
        List<History> history = coverage.partial() ? List.of() : history(context, extra, modes);
        RunReport report = build(context, replay, controls, growth, modes, history, coverage);
        Optional<Path> directory = outputDirectory(context, root)
                .map(folder -> coverage.partial() ? folder.resolve(PARTIAL_FOLDER) : folder);
        Map<String, String> files = new LinkedHashMap<>();
        context.metrics().run(report.metadata().toMap());
        context.metrics().coverage(coverage.toMap());
        files.put(METRICS_FILE, context.metrics().toJson());
        files.put(MARKDOWN_FILE, MarkdownReport.render(report));
        files.put(HTML_FILE, HtmlReport.render(report));
        Optional<Evaluation> evaluation = settings.evaluate()
                ? Optional.of(Evaluation.of(context.metrics().samples())) : Optional.empty();
        evaluation.ifPresent(figures -> {
            files.put(EVALUATION_MARKDOWN_FILE, figures.markdown());
            files.put(EVALUATION_FILE, Json.write(figures.toMap()));
        });
        if (extra.isPresent()) {
            Files.createDirectories(extra.get());
        }
        if (directory.isPresent()) {
            Files.createDirectories(directory.get());
        }
        for (Map.Entry<String, String> file : files.entrySet()) {
            if (directory.isPresent()) {
                Path written = Files.writeString(directory.get().resolve(file.getKey()), file.getValue(),
                        StandardCharsets.UTF_8);
                context.request().getEngineExecutionListener().fileEntryPublished(root, FileEntry.from(written,
                        file.getKey().endsWith(".json") ? "application/json" : file.getKey().endsWith(".md")
                                ? "text/markdown" : "text/html"));
            }
            if (extra.isPresent()) {
                Files.writeString(extra.get().resolve(file.getKey()), file.getValue(), StandardCharsets.UTF_8);
            }
        }
        Optional<Path> shown = extra.or(() -> directory);
        System.out.println("\n" + ConsoleReport.render(report) + evaluation.map(figures -> figures.markdown() + "\n")
                .orElse("") + shown.map(folder -> "report: " + folder.resolve(HTML_FILE).toAbsolutePath())
                .orElse("report: not written (the client provides no output directory, as EngineTestKit by default; "
                        + "set " + Constants.REPORT_DIRECTORY + " to keep one)"));
    }

    /**
     * The client's output directory for the engine's root, if it provides one: EngineTestKit's default creator refuses
     * every output, and a run whose tests all passed must not fail for it (docs/engine.md#reports-and-gates).
     */
    private static Optional<Path> outputDirectory(ConformanceContext context, TestDescriptor root) throws IOException {
        try {
            return Optional.of(context.request().getOutputDirectoryCreator().createOutputDirectory(root));
        } catch (JUnitException e) {
            return Optional.empty();
        }
    }

    private static RunReport build(ConformanceContext context, Optional<TimedReplay> replay,
                                   Optional<CompletableFuture<List<ControlMatrix.Cell>>> controls,
                                   CompletableFuture<List<CapabilityGrowth.Point>> growthCurve,
                                   List<ModeMetrics> modes, List<History> history, Coverage coverage) {
        EngineOptions settings = context.settings();
        List<TurnTimeline> timelines = context.metrics().timelines();
        List<EventDefinition> offered = settings.factory().plugins().stream().map(EventPlugin::definition).toList();
        List<ControlMatrix.Cell> matrix = controls.map(InBackground::join)
                .orElseGet(() -> replay.isEmpty() || !settings.controlRuns() ? List.of()
                        : ControlMatrix.run(replay.get(), offered, SuiteReader.DEFAULT_LATENCY,
                        SuiteReader.DEFAULT_MODEL, CaseRunner.PERSONA));
        List<CapabilityGrowth.Point> growth = InBackground.join(growthCurve);
        List<String> models = timelines.stream().flatMap(t -> t.calls().stream()).map(TurnTimeline.Call::model)
                .distinct().sorted().toList();
        RunMetadata metadata = new RunMetadata(context.log().startedAt(), Instant.now(), RunMetadata.engineVersion(),
                RunMetadata.currentCommit(), provider(settings), settings.replaySpeed(),
                settings.modes().stream().map(InvocationMode::wireName).toList(), models,
                settings.factory().getClass().getName(), RunMetadata.thisMachine(), coverage.describe());
        return new RunReport(metadata, context.log().outcomes(), modes, timelines, matrix, growth,
                context.metrics().timings(), history);
    }

    /** The baseline the gates check, and a previous run: the configured one, or the report folder's last. */
    private static List<History> history(ConformanceContext context, Optional<Path> reportDirectory,
                                         List<ModeMetrics> modes) {
        List<History> history = new ArrayList<>();
        context.request().getConfigurationParameters().get(Constants.BASELINE_FILE).map(Path::of)
                .ifPresent(file -> history.add(History.against(file, "baseline", modes)));
        Optional<Path> previous = context.settings().previousMetrics().or(() -> reportDirectory
                .map(directory -> directory.resolve(METRICS_FILE)).filter(Files::isRegularFile));
        previous.ifPresent(file -> history.add(History.against(file, "previous run", modes)));
        return history;
    }

    private static String provider(EngineOptions settings) {
        String name = settings.provider().name().toLowerCase(Locale.ROOT);
        if (settings.provider() == EngineOptions.Provider.LIVE) {
            // the host only: a URL could carry more than a report should show
            return name + settings.liveBaseUrl().map(url -> {
                try {
                    return " (" + URI.create(url).getHost() + ")";
                } catch (IllegalArgumentException e) {
                    return "";
                }
            }).orElse("");
        }
        return name;
    }
}
