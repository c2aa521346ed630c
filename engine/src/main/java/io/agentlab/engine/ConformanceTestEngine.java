package io.agentlab.engine;

import static org.apiguardian.api.API.Status.STABLE;

import io.agentlab.report.gates.Gate;
import io.agentlab.report.gates.Gates;
import io.agentlab.report.metrics.MetricsReport;
import io.agentlab.report.RunMetadata;
import io.agentlab.engine.internal.suite.RecordingLibrary;
import io.agentlab.engine.internal.suite.SuiteReader;
import io.agentlab.kernel.api.EventDefinition;
import io.agentlab.kernel.api.EventPlugin;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apiguardian.api.API;
import org.junit.platform.commons.io.ResourceFilter;
import org.junit.platform.engine.ConfigurationParameters;
import org.junit.platform.engine.DiscoveryIssue;
import org.junit.platform.engine.EngineDiscoveryRequest;
import org.junit.platform.engine.ExecutionRequest;
import org.junit.platform.engine.TestDescriptor;
import org.junit.platform.engine.UniqueId;
import org.junit.platform.engine.support.config.PrefixedConfigurationParameters;
import org.junit.platform.engine.support.discovery.DiscoveryIssueReporter;
import org.junit.platform.engine.support.discovery.EngineDiscoveryRequestResolver;
import org.junit.platform.engine.support.hierarchical.HierarchicalTestEngine;
import org.junit.platform.engine.support.hierarchical.HierarchicalTestExecutorService;
import org.junit.platform.engine.support.hierarchical.ParallelHierarchicalTestExecutorServiceFactory;
import org.junit.platform.engine.support.hierarchical.SameThreadHierarchicalTestExecutorService;

/**
 * The JUnit Platform engine {@value #ENGINE_ID}: discovers YAML conformance suites and runs every case in both
 * invocation modes against the kernel under test, with a parity node per case and per-mode metrics
 * ({@code docs/engine.md}). Run it from Surefire with a {@code @Suite @IncludeEngines("agentlab-conformance")} class
 * that selects the suites, or directly through the Launcher.
 */
@API(status = STABLE, since = "0.1")
public final class ConformanceTestEngine extends HierarchicalTestEngine<ConformanceContext> {

    /** The engine id. */
    public static final String ENGINE_ID = "agentlab-conformance";

    @Override
    public String getId() {
        return ENGINE_ID;
    }

    @Override
    public Optional<String> getGroupId() {
        return Optional.of("io.agentlab");
    }

    @Override
    public Optional<String> getArtifactId() {
        return Optional.of("agentlab-engine");
    }

    @Override
    public Optional<String> getVersion() {
        return Optional.of(RunMetadata.engineVersion());
    }

    /**
     * Resolves the selectors into suite, case and gate nodes and reports what is wrong as discovery issues; nothing
     * else: no thread is started and nothing is cached beyond the returned tree, so a discovery that is never executed
     * (an IDE's test tree) costs nothing afterwards. What a run warms up starts with its execution
     * ({@code ConformanceEngineDescriptor#before}, docs/performance.md#start-up-in-the-kit).
     */
    @Override
    public TestDescriptor discover(EngineDiscoveryRequest request, UniqueId uniqueId) {
        ConformanceEngineDescriptor engine = new ConformanceEngineDescriptor(uniqueId);
        DiscoveryIssueReporter issues = DiscoveryIssueReporter.deduplicating(
                DiscoveryIssueReporter.forwarding(request.getDiscoveryListener(), uniqueId));
        ConfigurationParameters parameters = ConfigurationKeys.withAliases(request.getConfigurationParameters());
        EngineOptions settings;
        Naming naming;
        List<EventDefinition> definitions;
        try {
            settings = EngineOptions.read(parameters);
            naming = settings.naming();
            definitions = settings.factory().plugins().stream().map(EventPlugin::definition).toList();
            engine.settings(settings);
        } catch (RuntimeException e) {
            issues.reportIssue(DiscoveryIssue.builder(DiscoveryIssue.Severity.ERROR,
                    "cannot configure the conformance engine: " + e.getMessage()).cause(e));
            return engine;
        }
        reportKeyProblems(request.getConfigurationParameters(), issues);
        resolve(request, engine, settings, naming, parameters, definitions, issues);
        // a recording that departs from its family's usual shape is read all the same; say where, once per note
        // (docs/recording.md#protocol-and-notes)
        settings.recordings().notes().forEach(note -> issues.reportIssue(DiscoveryIssue.builder(
                DiscoveryIssue.Severity.INFO, note)));
        List<ConformanceEngineDescriptor.Selected> selected = selected(engine, settings);
        engine.selected(selected);
        if (!parameters.getBoolean(RunInParts.OTHER_PARTS_HAVE_TESTS).orElse(false)) {
            // a part of a run in parts whose other parts have tests is no silent zero (docs/engine.md#runs-in-parts)
            reportSilentZero(selected, settings, issues);
        }
        addGates(engine, parameters, settings, issues);
        return engine;
    }

    /** A retired, deprecated, misplaced or unknown key: said, never ignored. */
    private static void reportKeyProblems(ConfigurationParameters given, DiscoveryIssueReporter issues) {
        for (String key : given.keySet()) {
            Optional<String> retired = Gates.retiredKeyProblem(key);
            Optional<String> deprecated = ConfigurationKeys.deprecation(key);
            if (retired.isPresent()) {
                issues.reportIssue(DiscoveryIssue.builder(DiscoveryIssue.Severity.ERROR, retired.get()));
            } else if (deprecated.isPresent()) {
                issues.reportIssue(DiscoveryIssue.builder(DiscoveryIssue.Severity.WARNING, deprecated.get()));
            } else {
                // a key of the command line or the Maven goal does nothing here: say so instead of ignoring it
                ConfigurationKeys.clientOnly(key).or(() -> ConfigurationKeys.problem(key)).ifPresent(problem ->
                        issues.reportIssue(DiscoveryIssue.builder(DiscoveryIssue.Severity.WARNING, problem)));
            }
        }
    }

    /** Resolves the selectors into the tree, modes before parity and gates last. */
    private static void resolve(EngineDiscoveryRequest request, ConformanceEngineDescriptor engine,
                                EngineOptions settings, Naming naming, ConfigurationParameters parameters,
                                List<EventDefinition> definitions, DiscoveryIssueReporter issues) {
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        // a run in parts discovers each file twice: the second reading skips the schema the first passed
        // (docs/performance.md#schema-passes)
        SuiteIndex index = new SuiteIndex(SuiteReader.Context.of(definitions, settings.recordings()),
                settings.suiteDirectories(), Path.of("").toAbsolutePath(), loader, issues,
                parameters.getBoolean(RunInParts.DISCOVERED_TWICE).orElse(false));
        UniqueId uniqueId = engine.getUniqueId();
        EngineDiscoveryRequestResolver.<ConformanceEngineDescriptor>builder()
                .addResourceContainerSelectorResolver(ResourceFilter.of(resource -> SuiteFiles.isScanned(resource.getName())))
                .addSelectorResolver(context -> new SuiteResolver(uniqueId, index, settings.modes(), naming, loader,
                        issues, () -> Gates.enabled(parameters) ? Optional.of(Gates.from(parameters, settings.modes()))
                                : Optional.empty()))
                .build()
                .resolve(request, engine, issues);
        engine.accept(ConformanceTestEngine::orderCaseChildren);
        // a gate selected by unique id (docs/engine.md#selecting-suites) judges the cases after it: gates run last
        engine.orderChildren(children -> {
            List<TestDescriptor> ordered = new ArrayList<>(children);
            ordered.sort(Comparator.comparing(child -> child instanceof GatesDescriptor ? 1 : 0));
            return ordered;
        });
    }

    /**
     * No silent zero, decided before any client's filter, so identically under every client
     * (docs/limits-and-safety.md#no-silent-zero): suites were selected and the engine made no test of them.
     */
    private static void reportSilentZero(List<ConformanceEngineDescriptor.Selected> selected, EngineOptions settings,
                                         DiscoveryIssueReporter issues) {
        if (!selected.isEmpty() && selected.stream().mapToInt(ConformanceEngineDescriptor.Selected::discoveredTests)
                .sum() == 0) {
            issues.reportIssue(DiscoveryIssue.builder(DiscoveryIssue.Severity.ERROR, RunInParts.NOTHING_DISCOVERED
                    + ", although " + selected.size() + " suite(s) were selected " + selected.stream()
                    .map(ConformanceEngineDescriptor.Selected::id).toList() + ": no case runs in "
                    + Constants.MODES + "=" + settings.modes().stream().map(m -> m.wireName()).toList()
                    + " (each suite's and case's own modes are intersected with it); a run that executes nothing "
                    + "must not pass"));
        }
    }

    /** The gates node after the suites, when gates are enabled and none was selected by unique id. */
    private static void addGates(ConformanceEngineDescriptor engine, ConfigurationParameters parameters,
                                 EngineOptions settings, DiscoveryIssueReporter issues) {
        boolean gatesSelected = engine.getChildren().stream().anyMatch(GatesDescriptor.class::isInstance);
        if (Gates.enabled(parameters) && !engine.getChildren().isEmpty() && !gatesSelected) {
            try {
                GatesDescriptor gates = new GatesDescriptor(engine.getUniqueId().append(GatesDescriptor.SEGMENT,
                        GatesDescriptor.VALUE));
                for (Gate gate : Gates.from(parameters, settings.modes())) {
                    gates.addChild(new GateDescriptor(gates.getUniqueId().append(GateDescriptor.SEGMENT, gate.id()),
                            gate, false));
                }
                engine.addChild(gates);
            } catch (RuntimeException e) {
                issues.reportIssue(DiscoveryIssue.builder(DiscoveryIssue.Severity.ERROR,
                        "cannot set up the gates: " + e.getMessage()).cause(e));
            }
        }
    }

    /** Each suite discovery resolved, with what it holds and how much of it the selectors reached. */
    private static List<ConformanceEngineDescriptor.Selected> selected(ConformanceEngineDescriptor engine,
                                                                      EngineOptions settings) {
        List<ConformanceEngineDescriptor.Selected> selected = new ArrayList<>();
        for (TestDescriptor child : engine.getChildren()) {
            if (child instanceof SuiteDescriptor suite) {
                int tests = suite.suite().cases().stream().mapToInt(c -> CaseDescriptor.tests(c, settings.modes()))
                        .sum();
                int discovered = (int) suite.getDescendants().stream().filter(TestDescriptor::isTest).count();
                selected.add(new ConformanceEngineDescriptor.Selected(suite.suite().id(), suite.suite().cases().size(),
                        tests, discovered));
            }
        }
        return selected;
    }

    /** Mode nodes run before the parity node that compares them, whatever order selectors arrived in. */
    private static void orderCaseChildren(TestDescriptor descriptor) {
        if (descriptor instanceof CaseDescriptor) {
            descriptor.orderChildren(children -> {
                List<TestDescriptor> ordered = new ArrayList<>(children);
                ordered.sort(Comparator.comparing(child -> child instanceof ParityDescriptor ? 1 : 0));
                return ordered;
            });
        }
    }

    @Override
    protected HierarchicalTestExecutorService createExecutorService(ExecutionRequest request) {
        Optional<EngineOptions> settings = discovered(request);
        if (settings.filter(EngineOptions::overTheWire).isPresent()
                && request.getConfigurationParameters().getBoolean(Constants.PARALLEL).orElse(false)) {
            // one turn at a time: the runtime has one provider base URL (docs/wire.md#one-turn-at-a-time)
            System.out.println("agentlab: cases run one at a time against a runtime over the wire, which is served one "
                    + "turn at a time (docs/wire.md#one-turn-at-a-time); " + Constants.PARALLEL + " is ignored");
        }
        if (settings.map(EngineOptions::parallel).orElse(false)) {
            return ParallelHierarchicalTestExecutorServiceFactory.create(forkJoin(new PrefixedConfigurationParameters(
                    request.getConfigurationParameters(), Constants.PARALLEL_CONFIG_PREFIX)));
        }
        return new SameThreadHierarchicalTestExecutorService();
    }

    /**
     * {@code parameters} with the fork-join executor, whatever {@code executor-service} says: it runs a node holding
     * the global read-write lock after its concurrent siblings have joined, which is what puts the gates after the
     * suites (docs/engine.md#parallel-suites); another executor could run them first.
     */
    private static ConfigurationParameters forkJoin(ConfigurationParameters parameters) {
        return new ConfigurationParameters() {
            @Override
            public Optional<String> get(String key) {
                return key.equals(ParallelHierarchicalTestExecutorServiceFactory.EXECUTOR_SERVICE_PROPERTY_NAME)
                        ? Optional.of("fork_join_pool") : parameters.get(key);
            }

            @Override
            public Optional<Boolean> getBoolean(String key) {
                return parameters.getBoolean(key);
            }

            @Override
            public Set<String> keySet() {
                return parameters.keySet();
            }
        };
    }

    @Override
    protected ConformanceContext createExecutionContext(ExecutionRequest request) {
        // read again only when discovery could not, so the run fails saying why
        EngineOptions settings = discovered(request).orElseGet(() -> EngineOptions.read(
                request.getConfigurationParameters()));
        // one execution is a run, unless its client spread a run over several (docs/engine.md#runs-in-parts)
        Optional<RunInParts> parts = RunInParts.of(request);
        return new ConformanceContext(request, settings, null, parts.map(RunInParts::metrics)
                .orElseGet(MetricsReport::new), parts.map(RunInParts::log).orElseGet(RunLog::new), parts);
    }

    /** The settings discovery read, if it could. */
    private static Optional<EngineOptions> discovered(ExecutionRequest request) {
        return request.getRootTestDescriptor() instanceof ConformanceEngineDescriptor engine ? engine.settings()
                : Optional.empty();
    }
}
