package io.agentlab.runner;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClasspathResource;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectDirectory;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectFile;

import io.agentlab.engine.ConformanceTestEngine;
import io.agentlab.engine.Constants;
import io.agentlab.engine.RunPreparation;
import io.agentlab.report.TestOutcome;
import io.agentlab.report.gates.Gates;
import io.agentlab.report.render.RunReports;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apiguardian.api.API;
import org.junit.platform.commons.PreconditionViolationException;
import org.junit.platform.engine.DiscoveryIssue;
import org.junit.platform.engine.DiscoverySelector;
import org.junit.platform.engine.SelectorResolutionResult;
import org.junit.platform.engine.TestSource;
import org.junit.platform.engine.UniqueId;
import org.junit.platform.engine.discovery.FileSelector;
import org.junit.platform.engine.reporting.ReportEntry;
import org.junit.platform.engine.support.descriptor.ClasspathResourceSource;
import org.junit.platform.engine.support.descriptor.FilePosition;
import org.junit.platform.engine.support.descriptor.FileSource;
import org.junit.platform.launcher.EngineFilter;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.LauncherConstants;
import org.junit.platform.launcher.LauncherDiscoveryListener;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.PostDiscoveryFilter;
import org.junit.platform.launcher.TagFilter;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherExecutionRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.reporting.legacy.xml.LegacyXmlReportGeneratingListener;

/**
 * Runs suites through the JUnit Launcher and the {@code agentlab-conformance} engine, for the command line and the
 * Maven goal alike: discovery first (every suite-file problem is a {@link UsageException}, one line each), then the
 * filters, then execution with the progress printer, JUnit's own XML reporting listeners (Open Test Reporting and the
 * legacy format, under {@code junit/}) and {@code results.json}.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class ConformanceRunner {

    /** How a discovery note (an INFO issue) starts among the warnings. */
    public static final String NOTE = "note: ";

    /** A warning line as printed: {@code note: …} for a note, {@code warning: …} otherwise. */
    public static String label(String warning) {
        return warning.startsWith(NOTE) ? warning : "warning: " + warning;
    }


    /** The engine's report entry saying what a launch covers. */
    static final String COVERAGE_ENTRY = "agentlab.coverage";

    /** The folder under the report folder that receives JUnit's XML reports. */
    public static final String JUNIT_FOLDER = "junit";

    private ConformanceRunner() {
    }

    /**
     * What discovery found without running anything ({@code agentlab validate}).
     *
     * @param suites   suites found
     * @param cases    cases found
     * @param tests    tests (case × mode, parity, gates)
     * @param problems discovery problems that stop a run (one line each)
     * @param warnings discovery warnings (unknown keys, for example)
     */
    public record Validation(int suites, int cases, long tests, List<String> problems, List<String> warnings) {
    }

    /** Discovers the suites and reports what a run would find, running nothing. */
    public static Validation validate(RunSpec spec) {
        Discovery discovery = discover(spec, spec.configuration());
        TestPlan plan = discovery.plan();
        int suites = 0;
        int cases = 0;
        for (TestIdentifier root : plan.getRoots()) {
            for (TestIdentifier node : plan.getDescendants(root)) {
                String type = lastSegmentType(node);
                suites += "suite".equals(type) ? 1 : 0;
                cases += "case".equals(type) ? 1 : 0;
            }
        }
        List<String> problems = new ArrayList<>(discovery.problems());
        if (problems.isEmpty() && cases == 0) {
            problems.add(nothingSelected(spec));
        }
        return new Validation(suites, cases, plan.countTestIdentifiers(TestIdentifier::isTest), problems,
                discovery.warnings());
    }

    /**
     * Runs the spec, printing progress to {@code out}, and writes {@code results.json} and JUnit XML into the report
     * folder.
     *
     * @throws UsageException for bad input: a suite with problems, a filter that selects nothing, an unreadable file
     */
    public static RunResult run(RunSpec spec, PrintWriter out, boolean terminal) {
        List<String> notes = new ArrayList<>();
        Set<String> rerun = null;
        if (spec.rerunFailed().isPresent()) {
            RunResults last = RunResults.read(spec.rerunFailed().get());
            List<TestOutcome> broken = last.broken();
            if (broken.isEmpty()) {
                notes.add("nothing failed in the last run (" + spec.rerunFailed().get() + "): nothing to rerun");
                return new RunResult(new RunResults(spec.shard(), spec.configuration(), List.of()),
                        spec.reportDirectory(), notes);
            }
            if (broken.stream().anyMatch(test -> test.caseUniqueId().isEmpty())) {
                notes.add("a gate or a container failed last time: gates judge the whole run, so everything reruns");
            } else {
                rerun = new LinkedHashSet<>();
                for (TestOutcome test : broken) {
                    rerun.add(test.caseUniqueId().orElseThrow());
                }
            }
        }
        Map<String, String> configuration = new LinkedHashMap<>(spec.configuration());
        Path report = spec.reportDirectory();
        configuration.put(Constants.REPORT_DIRECTORY, report.toString());
        configuration.put("junit.platform.reporting.open.xml.enabled", "true");
        configuration.put("junit.platform.reporting.output.dir", report.resolve(JUNIT_FOLDER).toString());
        if (spec.shard().isPresent() && Boolean.parseBoolean(spec.configuration().getOrDefault(Constants.GATES_ENABLED, "false"))) {
            configuration.put(Constants.GATES_ENABLED, "false");
            notes.add("gates deferred: shard " + spec.shard().get() + " holds part of the cases; `agentlab merge` "
                    + "applies them to the whole run");
        }
        // what the run will need starts now, beside discovery, and the engine takes it from the session
        // (docs/performance.md#start-up)
        RunPreparation preparation = RunPreparation.start(configuration);
        try (LauncherSession session = LauncherFactory.openSession()) {
            preparation.offerTo(session.getStore());
            return run(spec, out, terminal, notes, configuration, rerun, session.getLauncher());
        } finally {
            preparation.close();
        }
    }

    private static RunResult run(RunSpec spec, PrintWriter out, boolean terminal, List<String> notes,
                                 Map<String, String> configuration, Set<String> rerun, Launcher launcher) {
        Path report = spec.reportDirectory();
        Discovery discovery = discover(spec, configuration, rerun, launcher);
        discovery.warnings().forEach(warning -> out.println(label(warning)));
        if (!discovery.problems().isEmpty()) {
            throw new UsageException(String.join("\n", discovery.problems()));
        }
        if (discovery.plan().countTestIdentifiers(TestIdentifier::isTest) == 0) {
            if (spec.shard().isEmpty() || !spec.cases().isEmpty() || !spec.includeTags().isEmpty() || rerun != null) {
                throw new UsageException(nothingSelected(spec));
            }
            // more shards than cases leaves some empty: that job passes, and the merge counts the whole
            notes.add("shard " + spec.shard().get() + " holds none of the selected cases");
            RunResults empty = new RunResults(spec.shard(), spec.configuration(), List.of());
            empty.write(report);
            return new RunResult(empty, report, notes);
        }
        try {
            Files.createDirectories(report.resolve(JUNIT_FOLDER));
        } catch (IOException e) {
            throw new UsageException("cannot create the report folder " + report.toAbsolutePath() + ": " + e, e);
        }
        ResultsListener results = new ResultsListener(System::nanoTime);
        Progress progress = new Progress(out, terminal, System::nanoTime);
        LegacyXmlReportGeneratingListener legacyXml = new LegacyXmlReportGeneratingListener(
                report.resolve(JUNIT_FOLDER), out);
        List<String> covered = new ArrayList<>();
        TestExecutionListener coverage = new TestExecutionListener() {
            @Override
            public void reportingEntryPublished(TestIdentifier test, ReportEntry entry) {
                // the engine says what the launch covers; a partial one keeps its reports apart
                // (docs/engine.md#partial-launches)
                String line = entry.getKeyValuePairs().get(COVERAGE_ENTRY);
                if (line != null) {
                    covered.add("covered: " + line + (line.startsWith("partial") ? "; its reports are in "
                            + report.resolve(RunReports.PARTIAL_FOLDER) : ""));
                }
            }
        };
        discovery.launcher().execute(LauncherExecutionRequestBuilder.request(discovery.plan())
                .listeners(progress, results, legacyXml, coverage).build());
        notes.addAll(covered);
        RunResults written = new RunResults(spec.shard(), spec.configuration(), results.outcomes());
        written.write(report);
        return new RunResult(written, report, notes);
    }

    /** Discovery with the filters; its problems and warnings collected as lines. */
    private record Discovery(Launcher launcher, TestPlan plan, List<String> problems, List<String> warnings) {
    }

    private static Discovery discover(RunSpec spec, Map<String, String> configuration) {
        return discover(spec, configuration, null, LauncherFactory.create());
    }

    private static Discovery discover(RunSpec spec, Map<String, String> configuration, Set<String> rerun,
                                      Launcher launcher) {
        List<DiscoverySelector> selectors = new ArrayList<>();
        Map<FileSelector, String> namedFiles = new LinkedHashMap<>(); // each as the user wrote it
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        for (String suite : spec.suites()) {
            if (suite.startsWith(RunSpec.CLASSPATH)) {
                String name = suite.substring(RunSpec.CLASSPATH.length()).replaceFirst("^/", "");
                if (loader.getResource(name) == null) {
                    throw new UsageException("--suites: no classpath folder or file '" + name + "'");
                }
                selectors.add(selectClasspathResource(name));
            } else {
                Path path = Path.of(suite);
                if (Files.isDirectory(path)) {
                    selectors.add(selectDirectory(path.toFile()));
                } else {
                    FileSelector file = selectFile(path.toFile());
                    namedFiles.put(file, suite);
                    selectors.add(file);
                }
            }
        }
        List<PostDiscoveryFilter> filters = new ArrayList<>();
        try {
            if (!spec.includeTags().isEmpty()) {
                filters.add(TagFilter.includeTags(spec.includeTags()));
            }
            if (!spec.excludeTags().isEmpty()) {
                filters.add(TagFilter.excludeTags(spec.excludeTags()));
            }
        } catch (PreconditionViolationException e) {
            throw new UsageException("--tag/--exclude-tag: " + e.getMessage(), e);
        }
        Set<String> matched = new LinkedHashSet<>();
        if (!spec.cases().isEmpty()) {
            filters.add(Selection.cases(spec.cases(), matched));
        }
        spec.shard().ifPresent(shard -> filters.add(Selection.shard(shard)));
        if (rerun != null) {
            filters.add(Selection.rerun(rerun));
        }
        List<String> problems = new ArrayList<>();
        List<String> warnings = new ArrayList<>();
        LauncherDiscoveryListener issues = new LauncherDiscoveryListener() {
            @Override
            public void issueEncountered(UniqueId engineId, DiscoveryIssue issue) {
                // INFO issues are notes (a recording read although it departs from its family's usual shape,
                // docs/recording.md#protocol-and-notes): listed with the warnings, labelled as what they are
                String line = (issue.severity() == DiscoveryIssue.Severity.INFO ? NOTE : "") + issue.message()
                        + issue.source().flatMap(source -> where(source, issue.message()))
                        .map(where -> " (" + where + ")").orElse("");
                (issue.severity().compareTo(DiscoveryIssue.Severity.ERROR) >= 0 ? problems : warnings).add(line);
            }

            @Override
            public void selectorProcessed(UniqueId engineId, DiscoverySelector selector,
                    SelectorResolutionResult result) {
                // a selected file the engine cannot claim is, by JUnit's convention, at most a discovery note; the
                // user named this one, so it is a problem here rather than a file silently left out
                // (docs/cli.md#accepted-values); one line per cause: not when a problem names the file already
                if (selector instanceof FileSelector file && namedFiles.containsKey(file)
                        && result.getStatus() == SelectorResolutionResult.Status.UNRESOLVED
                        && problems.stream().noneMatch(problem -> problem.contains(file.getRawPath()))) {
                    problems.add("--suites: " + namedFiles.get(file) + " is not a suite file (name it *.suite.yaml "
                            + "or *.suite.yml, or give its top level 'id' and 'cases' keys)");
                }
            }
        };
        LauncherDiscoveryRequest request = LauncherDiscoveryRequestBuilder.request().selectors(selectors)
                .filters(EngineFilter.includeEngines(ConformanceTestEngine.ENGINE_ID))
                .filters(filters.toArray(PostDiscoveryFilter[]::new))
                .configurationParameters(configuration)
                // collect the issues here and report them as lines, instead of the Launcher's exception
                .configurationParameter(LauncherConstants.DISCOVERY_ISSUE_FAILURE_PHASE_PROPERTY_NAME, "execution")
                .listeners(issues)
                .build();
        TestPlan plan;
        try {
            plan = launcher.discover(request);
        } catch (UncheckedIOException e) {
            throw new UsageException(e.getMessage() + ": " + e.getCause().getMessage(), e);
        }
        for (String pattern : spec.cases()) {
            if (!matched.contains(pattern) && problems.isEmpty()) {
                problems.add("--case: '" + pattern + "' names no case in " + String.join(", ", spec.suites())
                        + " (a case id, suite/case, or a unique id)");
            }
        }
        return new Discovery(launcher, plan, problems, warnings);
    }

    private static String nothingSelected(RunSpec spec) {
        List<String> filters = new ArrayList<>();
        spec.includeTags().forEach(tag -> filters.add("--tag " + tag));
        spec.excludeTags().forEach(tag -> filters.add("--exclude-tag " + tag));
        spec.cases().forEach(name -> filters.add("--case " + name));
        spec.shard().ifPresent(shard -> filters.add("--shard " + shard));
        spec.rerunFailed().ifPresent(file -> filters.add("--rerun-failed " + file));
        return filters.isEmpty()
                ? "nothing to run: " + String.join(", ", spec.suites()) + " hold no suite file (*.suite.yaml)"
                : "nothing to run: no case in " + String.join(", ", spec.suites()) + " matches "
                + String.join(", ", filters);
    }

    private static String lastSegmentType(TestIdentifier node) {
        List<UniqueId.Segment> segments = UniqueId.parse(node.getUniqueId()).getSegments();
        return segments.get(segments.size() - 1).getType();
    }

    /**
     * Where an issue is, as a person reads it ({@code path:line:column}, {@code classpath:name}), unless its message
     * already starts there (every suite problem does: {@code file:line:col: what — why}); never a source's
     * {@code toString()} (docs/cli.md#problems).
     */
    static Optional<String> where(TestSource source, String message) {
        String place;
        if (source instanceof FileSource file) {
            place = file.getFile().getPath() + file.getPosition().map(ConformanceRunner::position).orElse("");
            if (message.startsWith(file.getFile().getPath()) || message.startsWith(file.getFile().getName())) {
                return Optional.empty();
            }
        } else if (source instanceof ClasspathResourceSource resource) {
            place = "classpath:" + resource.getClasspathResourceName()
                    + resource.getPosition().map(ConformanceRunner::position).orElse("");
            if (message.contains(resource.getClasspathResourceName())) {
                return Optional.empty();
            }
        } else {
            return Optional.empty(); // an engine's or a class's source says nothing a message does not
        }
        return Optional.of(place);
    }

    private static String position(FilePosition position) {
        return ":" + position.getLine() + position.getColumn().map(column -> ":" + column).orElse("");
    }
}
