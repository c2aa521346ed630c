package io.agentlab.engine;

import io.agentlab.engine.internal.execution.CaseRunner;
import io.agentlab.engine.internal.execution.KernelSource;
import io.agentlab.engine.internal.execution.LiveCalls;
import io.agentlab.engine.internal.execution.ProviderSource;
import io.agentlab.engine.internal.execution.RecordedEvaluation;
import io.agentlab.engine.internal.execution.RemoteRuntime;
import io.agentlab.engine.internal.wire.PortStandIns;
import io.agentlab.engine.internal.wire.RuntimeProcess;
import io.agentlab.engine.internal.wire.WireCaseRunner;
import io.agentlab.report.controls.CapabilityGrowth;
import io.agentlab.report.controls.ControlMatrix;
import io.agentlab.report.Coverage;
import io.agentlab.engine.internal.suite.SuiteReader;
import io.agentlab.kernel.api.EventDefinition;
import io.agentlab.kernel.api.EventKernelFactory;
import io.agentlab.kernel.api.EventPlugin;
import io.agentlab.providers.recorded.RecordingProxy;
import io.agentlab.provider.openai.OpenAiCompatibleClient;
import io.agentlab.providers.recorded.TimedReplay;
import io.agentlab.tokens.PromptTokens;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.junit.platform.engine.TestDescriptor;
import org.junit.platform.engine.UniqueId;
import org.junit.platform.engine.reporting.ReportEntry;
import org.junit.platform.engine.support.descriptor.EngineDescriptor;
import org.junit.platform.engine.support.hierarchical.Node;

/**
 * The engine's root: starts the shared replay server and the run's background work before any suite runs; afterwards hands the run to the
 * {@link RunReporter}, the after-run component that writes and prints the reports, and closes the server. Before
 * anything runs it measures what the launch covers ({@link Coverage}): the gates and the reports read it.
 */
final class ConformanceEngineDescriptor extends EngineDescriptor implements Node<ConformanceContext> {

    /** The key of the report entry that says what the launch covers. */
    static final String COVERAGE_ENTRY = "agentlab.coverage";

    private TimedReplay replay;
    private RecordingProxy recorder;
    /** The subject over the wire, when there is one (docs/wire.md). */
    private RuntimeProcess process;
    private PortStandIns standIns;
    private List<Selected> selected = List.of();
    private Coverage coverage = new Coverage(List.of(), false, false);
    private EngineOptions settings;
    private CompletableFuture<List<ControlMatrix.Cell>> controls;
    /** This run's capability-growth curve, counted beside the cases. */
    private CompletableFuture<List<CapabilityGrowth.Point>> growth;
    /** Set when the run is over: a control matrix still running beside it stops before its next turn. */
    private final AtomicBoolean controlsStop = new AtomicBoolean();
    /** Whether this execution ends the run: always, unless it is a part of a run in parts but the last. */
    private boolean lastPart = true;

    ConformanceEngineDescriptor(UniqueId uniqueId) {
        super(uniqueId, "Agent Lab conformance");
    }

    @Override
    public ConformanceContext before(ConformanceContext context) {
        // a run spread over several executions reports once, in its last part (docs/engine.md#runs-in-parts)
        lastPart = context.parts().map(parts -> parts.last(parts.begin())).orElse(true);
        // what every run needs later is started here, when it runs, never by discovery
        // (docs/performance.md#start-up-in-the-kit): the token ranks load and the report's capability-growth curve,
        // which depends only on the offered events, is counted on another core beside the cases
        PromptTokens.loadInBackground();
        Supplier<CompletableFuture<List<CapabilityGrowth.Point>>> curve = () -> RunReporter.growth(
                context.settings().factory().plugins().stream().map(EventPlugin::definition).toList());
        growth = context.parts().map(parts -> parts.growth(curve)).orElseGet(curve);
        Coverage measured = measure();
        coverage = context.parts().map(parts -> parts.cover(measured)).orElse(measured);
        if (lastPart) {
            // every client shows report entries: the launch says what it covers before anything runs (a run in
            // parts says it once, for the whole run, when its last part begins)
            context.request().getEngineExecutionListener().reportingEntryPublished(this,
                    ReportEntry.from(COVERAGE_ENTRY, coverage.describe()));
        }
        EngineOptions settings = context.settings();
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
            // the server a runner started while the suites were discovered, else one started now
            // (docs/performance.md#start-up)
            replay = RunPreparation.of(context.request()).flatMap(prepared -> prepared.replay(settings.replaySpeed()))
                    .orElseGet(() -> TimedReplay.start(List.of(), settings.replaySpeed()));
            if (settings.controlRuns() && settings.replaySpeed() == 0 && lastPart) {
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
        Optional<RemoteRuntime> wire = settings.runtime().map(runtime -> overTheWire(runtime, settings));
        return context.withRunner(new CaseRunner(new CaseRunner.Environment(source(settings.factory()),
                providerSource(settings, live), cancelled, settings.pricing(), settings.aguiProfile(), wire)));
    }

    /**
     * The subject over the wire (docs/wire.md#start-up): the port stand-ins, the replay under one fixed base URL routed
     * to the current turn's scopes, and the runtime started or attached to. A runtime that cannot be made ready fails
     * every case with one line; the run goes on.
     */
    private WireCaseRunner overTheWire(RuntimeProcess.Settings runtime, EngineOptions settings) {
        try {
            standIns = PortStandIns.start(runtime.portsPort());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the port stand-ins on 127.0.0.1:" + runtime.portsPort()
                    + " (0: a free port)", e);
        }
        AtomicReference<TimedReplay.Router> router = new AtomicReference<>();
        TimedReplay.Router routed = (role, body) -> router.get().route(role, body);
        String provider = runtime.providerPort() == 0 ? replay.route("wire", routed)
                : replay.route("wire", routed, runtime.providerPort());
        if (runtime.command().isEmpty()) {
            // attach: the runtime was configured before the run; what it needs is printed once, so an operator can
            // see what to set (docs/wire.md#attach)
            System.out.println("agentlab: attaching to the runtime at " + runtime.url().orElseThrow() + "; it must be "
                    + "configured with " + RuntimeProcess.environment(provider, standIns.baseUrl()).entrySet().stream()
                    .map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining(" "))
                    + (runtime.providerPort() == 0 || runtime.portsPort() == 0 ? " (these change every run unless "
                    + Constants.RUNTIME_PROVIDER_PORT + " and " + Constants.RUNTIME_PORTS_PORT + " fix them)" : ""));
        }
        process = RuntimeProcess.open(runtime, provider, standIns.baseUrl());
        WireCaseRunner wire = new WireCaseRunner(process, standIns, settings.aguiProfile());
        router.set(wire.router());
        return wire;
    }

    /** Where the run's calls go, chosen once (docs/engine.md#provider-sources). */
    private ProviderSource providerSource(EngineOptions settings, Optional<OpenAiCompatibleClient.Config> live) {
        // read, and checked, whenever named: a live run that names one still fails on a broken directory
        Optional<RecordedEvaluation> recorded = settings.replayDirectory().map(RecordedEvaluation::load);
        if (live.isPresent()) {
            return ProviderSource.live(live.get(), new LiveCalls(settings.liveCalls()));
        }
        return recorded.map(evaluation -> ProviderSource.recorded(replay, settings.recordings(), settings.seed(),
                        evaluation))
                .orElseGet(() -> ProviderSource.replay(replay, settings.recordings(), settings.seed()));
    }

    /** The user's factory as the case runner reads it. */
    private static KernelSource source(KernelUnderTestFactory factory) {
        return new KernelSource() {
            @Override
            public List<EventPlugin> plugins() {
                return factory.plugins();
            }

            @Override
            public EventKernelFactory kernels() {
                return factory.kernels();
            }
        };
    }

    /** The settings discovery read, so the run uses the same instance (one parse per run). */
    void settings(EngineOptions settings) {
        this.settings = settings;
    }

    Optional<EngineOptions> settings() {
        return Optional.ofNullable(settings);
    }

    /**
     * A suite discovery selected, counted before the client's filters and pruning may remove its nodes.
     *
     * @param id              the suite's id
     * @param cases           the cases it holds
     * @param tests           its tests in the configured modes
     * @param discoveredTests its tests discovery resolved (fewer when unique ids selected part of it)
     */
    record Selected(String id, int cases, int tests, int discoveredTests) {
    }

    /** Remembers which suites discovery selected and how much of each, before filters and pruning. */
    void selected(List<Selected> suites) {
        this.selected = List.copyOf(suites);
    }

    /** What this launch covers, known once execution starts (after the client's filters). */
    Coverage coverage() {
        return coverage;
    }

    /** Counts what is left of each selected suite in the tree the client executes (docs/engine.md#partial-launches). */
    private Coverage measure() {
        List<Coverage.Suite> suites = new ArrayList<>();
        boolean byId = false;
        boolean filtered = false;
        for (Selected suite : selected) {
            Optional<SuiteDescriptor> node = getChildren().stream().filter(SuiteDescriptor.class::isInstance)
                    .map(SuiteDescriptor.class::cast).filter(d -> d.suite().id().equals(suite.id())).findFirst();
            int tests = node.map(d -> (int) d.getDescendants().stream().filter(TestDescriptor::isTest).count())
                    .orElse(0);
            int cases = node.map(d -> (int) d.getChildren().stream().filter(c -> c.getChildren().stream()
                    .anyMatch(TestDescriptor::isTest)).count()).orElse(0);
            byId |= suite.discoveredTests() < suite.tests();
            filtered |= tests < suite.discoveredTests();
            suites.add(new Coverage.Suite(suite.id(), suite.cases(), cases, suite.tests(), tests));
        }
        return new Coverage(suites, byId, filtered);
    }

    @Override
    public void after(ConformanceContext context) throws IOException {
        try {
            if (!lastPart) {
                return; // the run's reports are its last part's
            }
            if (context.metrics().turns() == 0) {
                // nothing ran: when discovery found no test the run already failed with a discovery issue; when the
                // client's filters removed every test, the client's own knob decides (--fail-if-no-tests,
                // failIfNoSpecifiedTests; docs/limits-and-safety.md#no-silent-zero)
                return;
            }
            RunReporter.report(context, this, coverage, Optional.ofNullable(process), Optional.ofNullable(replay),
                    Optional.ofNullable(controls), growth);
        } finally {
            if (recorder != null) {
                recorder.close();
                System.out.println("recorded " + recorder.written().size() + " exchange(s) into "
                        + context.settings().liveRecordDirectory().orElseThrow().toAbsolutePath()
                        + (recorder.problems().isEmpty() ? "" : "; not recorded: " + recorder.problems()));
            }
            if (process != null) {
                process.close();
            }
            if (standIns != null) {
                standIns.close();
            }
            controlsStop.set(true); // the report has its matrix, or there is no report: nothing waits for more turns
            if (replay != null) {
                replay.close();
            }
            if (context.parts().isEmpty()) {
                // the spools of the run's turns and tests (docs/performance.md#memory); a run in parts is its
                // client's to close, after its last part
                context.metrics().close();
                context.log().close();
            }
        }
    }
}
