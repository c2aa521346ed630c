package io.agentlab.engine;

import io.agentlab.engine.execution.CaseRunner;
import io.agentlab.engine.metrics.ModeMetrics;
import io.agentlab.engine.report.CapabilityGrowth;
import io.agentlab.engine.report.ControlMatrix;
import io.agentlab.engine.report.HtmlReport;
import io.agentlab.engine.report.RunReport;
import io.agentlab.engine.suite.SuiteReader;
import io.agentlab.kernel.api.EventDefinition;
import io.agentlab.kernel.api.EventPlugin;
import io.agentlab.kernel.api.InvocationMode;
import io.agentlab.kernel.runtime.llm.OpenAiCompatibleClient;
import io.agentlab.providers.recorded.TimedReplay;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import org.junit.platform.engine.UniqueId;
import org.junit.platform.engine.reporting.FileEntry;
import org.junit.platform.engine.support.descriptor.EngineDescriptor;
import org.junit.platform.engine.support.hierarchical.Node;

/**
 * The engine's root: starts the shared replay server before any suite runs; afterwards runs the control matrix and
 * the capability-growth count, writes {@code metrics.json}, {@code report.md} and {@code index.html} through the
 * request's output directory creator (published as file entries), and prints the comparison table.
 */
final class ConformanceEngineDescriptor extends EngineDescriptor implements Node<ConformanceContext> {

    /** The metrics file's name. */
    static final String METRICS_FILE = "metrics.json";
    /** The Markdown report's name. */
    static final String MARKDOWN_FILE = "report.md";
    /** The HTML report's name. */
    static final String HTML_FILE = "index.html";
    /** Enabled events the capability-growth curve reaches (the offered ones, then synthetic ones). */
    static final int GROWTH_EVENTS = 50;

    private TimedReplay replay;
    private List<String> selectedSuites = List.of();

    ConformanceEngineDescriptor(UniqueId uniqueId) {
        super(uniqueId, "Agent Lab conformance");
    }

    @Override
    public ConformanceContext before(ConformanceContext context) {
        ConformanceSettings settings = context.settings();
        Optional<OpenAiCompatibleClient.Config> live = settings.live();
        if (live.isEmpty()) {
            replay = TimedReplay.start(List.of(), settings.replaySpeed());
        }
        BooleanSupplier cancelled = () -> context.request().getCancellationToken().isCancellationRequested();
        return context.withRunner(new CaseRunner(new CaseRunner.Environment(settings.factory(), replay,
                settings.recordings(), settings.seed(), cancelled, live, settings.pricing())));
    }

    /** Remembers which suites discovery selected, before filters and pruning may remove their nodes. */
    void selectedSuites(List<String> suites) {
        this.selectedSuites = List.copyOf(suites);
    }

    @Override
    public void after(ConformanceContext context) throws IOException {
        try {
            if (context.metrics().samples().isEmpty()) {
                if (!selectedSuites.isEmpty()
                        && !context.request().getCancellationToken().isCancellationRequested()) {
                    // No silent zero (docs/limits-and-safety.md#no-silent-zero): suites were selected, nothing ran.
                    throw new NoCaseRanException(selectedSuites);
                }
                return;
            }
            RunReport report = report(context);
            Path directory = context.request().getOutputDirectoryCreator().createOutputDirectory(this);
            Map<String, String> files = new LinkedHashMap<>();
            files.put(METRICS_FILE, context.metrics().toJson());
            files.put(MARKDOWN_FILE, report.markdown());
            files.put(HTML_FILE, HtmlReport.render(report));
            Optional<Path> extra = context.settings().reportDirectory();
            if (extra.isPresent()) {
                Files.createDirectories(extra.get());
            }
            for (Map.Entry<String, String> file : files.entrySet()) {
                Path written = Files.writeString(directory.resolve(file.getKey()), file.getValue(), StandardCharsets.UTF_8);
                context.request().getEngineExecutionListener().fileEntryPublished(this, FileEntry.from(written,
                        file.getKey().endsWith(".json") ? "application/json" : file.getKey().endsWith(".md")
                                ? "text/markdown" : "text/html"));
                if (extra.isPresent()) {
                    Files.writeString(extra.get().resolve(file.getKey()), file.getValue(), StandardCharsets.UTF_8);
                }
            }
            System.out.println("\nAgent Lab conformance: mode comparison (" + context.metrics().samples().size()
                    + " turns)\n" + report.table() + "report: "
                    + extra.orElse(directory).resolve(HTML_FILE).toAbsolutePath());
        } finally {
            if (replay != null) {
                replay.close();
            }
        }
    }

    /** Fails the run: suites were selected, but no case ran in any mode. */
    static final class NoCaseRanException extends RuntimeException {
        NoCaseRanException(List<String> suites) {
            super("no conformance case ran, although " + suites.size() + " suite(s) were selected " + suites
                    + ": every case was filtered out or skipped (tag filters, agentlab.modes, the suites' own modes, "
                    + "agentlab.provider); a run that executes nothing must not pass");
        }
    }

    private RunReport report(ConformanceContext context) {
        ConformanceSettings settings = context.settings();
        List<ModeMetrics> modes = new ArrayList<>();
        for (InvocationMode mode : InvocationMode.values()) {
            ModeMetrics metrics = context.metrics().mode(mode);
            if (metrics.turns() > 0) {
                modes.add(metrics);
            }
        }
        List<EventDefinition> offered = settings.factory().plugins().stream().map(EventPlugin::definition).toList();
        List<ControlMatrix.Cell> matrix = replay == null || !settings.controlRuns() ? List.of()
                : ControlMatrix.run(replay, offered, SuiteReader.DEFAULT_LATENCY, SuiteReader.DEFAULT_MODEL,
                CaseRunner.PERSONA);
        List<CapabilityGrowth.Point> growth = CapabilityGrowth.measure(offered, Math.max(GROWTH_EVENTS,
                offered.size()), SuiteReader.DEFAULT_MODEL, CaseRunner.PERSONA);
        return new RunReport(modes, matrix, growth, context.metrics().timings());
    }
}
