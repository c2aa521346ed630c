package io.agentlab.engine;

import io.agentlab.engine.internal.execution.CaseRunner;
import io.agentlab.engine.internal.execution.LiveCalls;
import io.agentlab.engine.internal.execution.RecordedEvaluation;
import io.agentlab.engine.internal.report.ControlMatrix;
import io.agentlab.engine.internal.report.InBackground;
import io.agentlab.engine.internal.suite.SuiteReader;
import io.agentlab.kernel.api.EventDefinition;
import io.agentlab.kernel.api.EventPlugin;
import io.agentlab.providers.recorded.RecordingProxy;
import io.agentlab.kernel.runtime.llm.OpenAiCompatibleClient;
import io.agentlab.providers.recorded.TimedReplay;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import org.junit.platform.engine.UniqueId;
import org.junit.platform.engine.support.descriptor.EngineDescriptor;
import org.junit.platform.engine.support.hierarchical.Node;

/**
 * The engine's root: starts the shared replay server before any suite runs; afterwards hands the run to the
 * {@link RunReporter}, the after-run component that writes and prints the reports, and closes the server. A run in
 * which suites were selected but no case ran fails.
 */
final class ConformanceEngineDescriptor extends EngineDescriptor implements Node<ConformanceContext> {

    private TimedReplay replay;
    private RecordingProxy recorder;
    private List<String> selectedSuites = List.of();
    private ConformanceSettings settings;
    private CompletableFuture<List<ControlMatrix.Cell>> controls;
    /** Set when the run is over: a control matrix still running beside it stops before its next turn. */
    private final AtomicBoolean controlsStop = new AtomicBoolean();

    ConformanceEngineDescriptor(UniqueId uniqueId) {
        super(uniqueId, "Agent Lab conformance");
    }

    @Override
    public ConformanceContext before(ConformanceContext context) {
        ConformanceSettings settings = context.settings();
        Optional<OpenAiCompatibleClient.Config> live = settings.live();
        if (live.isPresent() && settings.liveRecordDirectory().isPresent()) {
            // every exchange goes through the recording proxy, which keeps it redacted
            OpenAiCompatibleClient.Config direct = live.get();
            try {
                recorder = RecordingProxy.start(direct.baseUrl(), settings.liveRecordDirectory().get(),
                        settings.liveRecordFamily());
            } catch (IOException e) {
                throw new UncheckedIOException("cannot start recording into " + settings.liveRecordDirectory().get(), e);
            }
            live = Optional.of(new OpenAiCompatibleClient.Config(recorder.baseUrl(), direct.apiKeyEnvironmentVariable(),
                    direct.connectTimeout(), direct.readTimeout(), direct.callTimeout(), direct.finishGrace()));
        }
        if (live.isEmpty()) {
            replay = TimedReplay.start(List.of(), settings.replaySpeed());
            if (settings.controlRuns() && settings.replaySpeed() == 0) {
                // at speed 0 no timing figure means anything, so the control turns need not wait for the cases: they
                // run beside them, each in its own replay scope (docs/performance.md#report-parts)
                TimedReplay server = replay;
                List<EventDefinition> offered = settings.factory().plugins().stream().map(EventPlugin::definition)
                        .toList();
                controls = InBackground.start("agentlab-control-matrix", () -> ControlMatrix.run(server, offered,
                        SuiteReader.DEFAULT_LATENCY, SuiteReader.DEFAULT_MODEL, CaseRunner.PERSONA,
                        controlsStop::get));
            }
        }
        BooleanSupplier cancelled = () -> context.request().getCancellationToken().isCancellationRequested();
        return context.withRunner(new CaseRunner(new CaseRunner.Environment(settings.factory(), replay,
                settings.recordings(), settings.seed(), cancelled, live, settings.pricing(),
                settings.aguiProfile(), new LiveCalls(settings.liveCalls()),
                settings.replayDirectory().map(RecordedEvaluation::load))));
    }

    /** The settings discovery read, so the run uses the same instance (one parse per run). */
    void settings(ConformanceSettings settings) {
        this.settings = settings;
    }

    Optional<ConformanceSettings> settings() {
        return Optional.ofNullable(settings);
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
            RunReporter.report(context, this, Optional.ofNullable(replay), Optional.ofNullable(controls));
        } finally {
            if (recorder != null) {
                recorder.close();
                System.out.println("recorded " + recorder.written().size() + " exchange(s) into "
                        + context.settings().liveRecordDirectory().orElseThrow().toAbsolutePath()
                        + (recorder.problems().isEmpty() ? "" : "; not recorded: " + recorder.problems()));
            }
            controlsStop.set(true); // the report has its matrix, or there is no report: nothing waits for more turns
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
}
