package io.agentlab.engine;

import io.agentlab.engine.internal.execution.CaseRunner;
import io.agentlab.engine.internal.suite.SuiteReader;
import io.agentlab.engine.internal.wire.RuntimeProcess;
import io.agentlab.kernel.api.EventDefinition;
import io.agentlab.kernel.api.EventPlugin;
import io.agentlab.kernel.api.InvocationMode;
import io.agentlab.providers.recorded.TimedReplay;
import io.agentlab.report.Coverage;
import io.agentlab.report.RunMetadata;
import io.agentlab.report.controls.CapabilityGrowth;
import io.agentlab.report.controls.ControlMatrix;
import io.agentlab.report.render.RunReports;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.junit.platform.commons.JUnitException;
import org.junit.platform.engine.TestDescriptor;
import org.junit.platform.engine.reporting.FileEntry;

/**
 * The after-run component: once every suite and gate has finished, it hands what the run collected — the turn
 * records, every test's outcome from the {@link RunLog}, the control matrix and the capability-growth curve, the
 * baseline and a previous run to compare with — to {@link RunReports}, writes the files through the request's output
 * directory creator (published as file entries, and copied to {@code agentlab.report.directory}), and prints the
 * console report. The engine's root calls it once and knows nothing of what it writes.
 */
final class RunReporter {

    /** Enabled events the capability-growth curve reaches (the offered ones, then synthetic ones). */
    static final int GROWTH_EVENTS = 50;

    private RunReporter() {
    }

    /**
     * The capability-growth curve for these offered events, counted on a daemon thread ({@link InBackground}): the
     * engine node starts it when the run begins and the report waits for it (docs/performance.md#report-parts).
     */
    static CompletableFuture<List<CapabilityGrowth.Point>> growth(List<EventDefinition> offered) {
        List<EventDefinition> events = List.copyOf(offered);
        return InBackground.start("agentlab-capability-growth", () -> CapabilityGrowth.measure(events,
                Math.max(GROWTH_EVENTS, events.size()), SuiteReader.DEFAULT_MODEL, CaseRunner.PERSONA));
    }

    /**
     * Writes and prints the reports of the run in {@code context}; {@code replay} serves the control turns, unless
     * {@code controls} holds them already (started beside the cases at replay speed 0); {@code wire} is the runtime
     * over the wire, when it is the subject.
     */
    static void report(ConformanceContext context, TestDescriptor root, Coverage coverage, Optional<RuntimeProcess> wire,
                       Optional<TimedReplay> replay,
                       Optional<CompletableFuture<List<ControlMatrix.Cell>>> controls,
                       CompletableFuture<List<CapabilityGrowth.Point>> growth) throws IOException {
        EngineOptions settings = context.settings();
        // a partial launch never replaces the whole run's reports (docs/engine.md#partial-launches)
        Optional<Path> extra = settings.reportDirectory().map(folder -> coverage.partial()
                ? folder.resolve(RunReports.PARTIAL_FOLDER) : folder);
        List<ControlMatrix.Cell> matrix = controls.map(InBackground::join).orElseGet(() -> controls(context, replay));
        List<CapabilityGrowth.Point> curve = InBackground.join(growth);
        RunReports.Builder builder = RunReports.builder(context.metrics(), metadata(context, coverage, wire))
                .tests(context.log().tests()).coverage(coverage).evaluation(settings.evaluate())
                .controlMatrix(matrix).capabilityGrowth(curve);
        // read the references before this run's files replace any of them; a subset's figures moved against the
        // whole run's only by what was left out: no comparison
        if (!coverage.partial()) {
            context.request().getConfigurationParameters().get(Constants.BASELINE_FILE).map(Path::of)
                    .ifPresent(file -> builder.compareWith("baseline", file));
            settings.previousMetrics().or(() -> extra.map(directory -> directory.resolve(RunReports.METRICS_FILE))
                    .filter(Files::isRegularFile)).ifPresent(file -> builder.compareWith("previous run", file));
        }
        try (RunReports reports = builder.build()) {
            Optional<Path> directory = outputDirectory(context, root)
                    .map(folder -> coverage.partial() ? folder.resolve(RunReports.PARTIAL_FOLDER) : folder);
            if (directory.isPresent()) {
                for (Path written : reports.writeTo(directory.get())) {
                    String name = written.getFileName().toString();
                    context.request().getEngineExecutionListener().fileEntryPublished(root,
                            FileEntry.from(written, RunReports.mediaType(name)));
                }
            }
            if (extra.isPresent()) {
                // rendered once: the second folder gets copies
                if (directory.isPresent()) {
                    reports.copyTo(extra.get());
                } else {
                    reports.writeTo(extra.get());
                }
            }
            Optional<Path> shown = extra.or(() -> directory);
            System.out.println("\n" + reports.console() + shown.map(folder -> "report: "
                            + folder.resolve(RunReports.HTML_FILE).toAbsolutePath())
                    .orElse("report: not written (the client provides no output directory, as EngineTestKit by "
                            + "default; set " + Constants.REPORT_DIRECTORY + " to keep one)"));
        }
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

    /** The control cells served now by {@code replay}, when control runs are on and nothing started them before. */
    private static List<ControlMatrix.Cell> controls(ConformanceContext context, Optional<TimedReplay> replay) {
        if (replay.isEmpty() || !context.settings().controlRuns()) {
            return List.of();
        }
        List<EventDefinition> offered = context.settings().factory().plugins().stream().map(EventPlugin::definition)
                .toList();
        return ControlMatrix.run(replay.get(), offered, SuiteReader.DEFAULT_LATENCY, SuiteReader.DEFAULT_MODEL,
                CaseRunner.PERSONA);
    }

    private static RunMetadata metadata(ConformanceContext context, Coverage coverage, Optional<RuntimeProcess> wire) {
        EngineOptions settings = context.settings();
        List<String> models = context.metrics().models();
        return new RunMetadata(context.log().startedAt(), Instant.now(), RunMetadata.engineVersion(),
                RunMetadata.currentCommit(), provider(settings), settings.replaySpeed(),
                settings.modes().stream().map(InvocationMode::wireName).toList(), models,
                settings.factory().getClass().getName(), RunMetadata.thisMachine(), coverage.describe(),
                wire.map(RuntimeProcess::describe)
                        .orElseGet(() -> RunMetadata.inProcess(settings.factory().getClass().getName())),
                context.log().notObservable());
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
