package io.agentlab.runner;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClasspathResource;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectDirectory;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectFile;

import io.agentlab.engine.ConformanceTestEngine;
import io.agentlab.engine.Constants;
import io.agentlab.engine.RunInParts;
import io.agentlab.engine.RunPreparation;
import io.agentlab.engine.SuiteSizes;
import io.agentlab.report.TestOutcome;
import io.agentlab.report.gates.Gates;
import io.agentlab.report.render.RunReports;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
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

    /**
     * Discovers the suites and reports what a run would find, running nothing; a large selection is discovered one
     * group of files at a time, as a run goes (docs/engine.md#runs-in-parts).
     */
    public static Validation validate(RunSpec spec) {
        int suites = 0;
        int cases = 0;
        long tests = 0;
        Set<String> problems = new LinkedHashSet<>();
        Set<String> warnings = new LinkedHashSet<>();
        Set<String> matched = new LinkedHashSet<>();
        List<Group> groups = groups(spec, PART_CASES);
        try (LauncherSession session = LauncherFactory.openSession()) {
            for (Group group : groups) {
                Discovery discovery = discover(session.getLauncher(), spec, spec.configuration(), null, group,
                        matched);
                TestPlan plan = discovery.plan();
                for (TestIdentifier root : plan.getRoots()) {
                    for (TestIdentifier node : plan.getDescendants(root)) {
                        String type = lastSegmentType(node);
                        suites += "suite".equals(type) ? 1 : 0;
                        cases += "case".equals(type) ? 1 : 0;
                    }
                }
                long found = plan.countTestIdentifiers(TestIdentifier::isTest);
                tests += found;
                problems.addAll(discovery.problems());
                warnings.addAll(discovery.warnings());
            }
        }
        List<String> all = new ArrayList<>(problems(spec, problems, matched, tests));
        if (all.isEmpty() && cases == 0) {
            all.add(nothingSelected(spec));
        }
        return new Validation(suites, cases, tests, all, List.copyOf(warnings));
    }

    /**
     * Runs the spec, printing progress to {@code out}, and writes {@code results.json} and JUnit XML into the report
     * folder.
     *
     * @throws UsageException for bad input: a suite with problems, a filter that selects nothing, an unreadable file
     */
    public static RunResult run(RunSpec spec, PrintWriter out, boolean terminal) {
        return run(spec, out, terminal, PART_CASES);
    }

    /** As {@link #run(RunSpec, PrintWriter, boolean)}, in parts of about {@code partCases} cases (a test's few). */
    static RunResult run(RunSpec spec, PrintWriter out, boolean terminal, int partCases) {
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
        // on unless the run turns it off (docs/cli.md#what-a-run-writes)
        configuration.putIfAbsent(OPEN_TEST_REPORT, "true");
        configuration.put(JUNIT_OUTPUT, report.resolve(JUNIT_FOLDER).toString());
        if (spec.shard().isPresent() && Boolean.parseBoolean(spec.configuration().getOrDefault(Constants.GATES_ENABLED, "false"))) {
            configuration.put(Constants.GATES_ENABLED, "false");
            notes.add("gates deferred: shard " + spec.shard().get() + " holds part of the cases; `agentlab merge` "
                    + "applies them to the whole run");
        }
        List<Group> groups = groups(spec, partCases);
        // what the run will need starts now, beside discovery, and the engine takes it from the session
        // (docs/performance.md#start-up)
        RunPreparation preparation = RunPreparation.start(configuration);
        try (preparation; LauncherSession session = LauncherFactory.openSession()) {
            preparation.offerTo(session.getStore());
            Launcher launcher = session.getLauncher();
            // every group is discovered before anything runs: every problem of every file first, as one run's
            // discovery reports them, and the number of tests the progress counts to (docs/engine.md#runs-in-parts)
            Set<String> problems = new LinkedHashSet<>();
            Set<String> warnings = new LinkedHashSet<>();
            Set<String> matched = new LinkedHashSet<>();
            long total = 0;
            TestPlan single = null;
            for (int part = 0; part < groups.size(); part++) {
                Discovery discovery = discover(launcher, spec, partConfiguration(configuration, groups, part), rerun,
                        groups.get(part), matched);
                problems.addAll(discovery.problems());
                warnings.addAll(discovery.warnings());
                total += discovery.plan().countTestIdentifiers(TestIdentifier::isTest);
                if (groups.size() == 1) {
                    single = discovery.plan(); // one group: the plan is kept and run, discovered once as always
                }
            }
            warnings.forEach(warning -> out.println(label(warning)));
            List<String> stops = problems(spec, problems, matched, total);
            if (!stops.isEmpty()) {
                throw new UsageException(String.join("\n", stops));
            }
            if (total == 0) {
                if (spec.shard().isEmpty() || !spec.cases().isEmpty() || !spec.includeTags().isEmpty()
                        || rerun != null) {
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
            if (groups.size() == 1) {
                launcher.execute(LauncherExecutionRequestBuilder.request(single).listeners(progress, results,
                        new LegacyXmlReportGeneratingListener(report.resolve(JUNIT_FOLDER), out), coverage).build());
            } else {
                // one run in consecutive executions, each holding one group's plan: one report, gates judged once
                // in the last part, one counter across the parts (docs/engine.md#runs-in-parts)
                progress.startedInParts(total);
                try (RunInParts run = RunInParts.open(session.getStore(), groups.size())) {
                    for (int part = 0; part < groups.size(); part++) {
                        Map<String, String> partConfiguration = new LinkedHashMap<>(partConfiguration(configuration,
                                groups, part));
                        // the run has tests: a part whose files have none in the configured modes fails nothing
                        partConfiguration.put(RunInParts.OTHER_PARTS_HAVE_TESTS, "true");
                        TestPlan plan = discover(launcher, spec, partConfiguration, rerun, groups.get(part),
                                new LinkedHashSet<>()).plan();
                        Path junit = Path.of(partConfiguration.get(JUNIT_OUTPUT));
                        launcher.execute(LauncherExecutionRequestBuilder.request(plan).listeners(progress, results,
                                new LegacyXmlReportGeneratingListener(junit, out), coverage).build());
                    }
                } finally {
                    progress.finished();
                }
            }
            notes.addAll(covered);
            RunResults written = new RunResults(spec.shard(), spec.configuration(), results.outcomes());
            written.write(report);
            return new RunResult(written, report, notes);
        }
    }

    /** The configuration parameter that says where JUnit's reporting listeners write. */
    private static final String JUNIT_OUTPUT = "junit.platform.reporting.output.dir";
    /** JUnit's switch for the Open Test Reporting event log. */
    private static final String OPEN_TEST_REPORT = "junit.platform.reporting.open.xml.enabled";

    /**
     * The cases a run of files takes in one Launcher execution: a larger selection runs in parts of about this many
     * cases, whole suite files each (docs/engine.md#runs-in-parts).
     */
    static final int PART_CASES = 2_000;

    /**
     * The selectors of one execution: a group of suite files (all of the spec's selectors when the run is one
     * execution), and which of them the user named, as written.
     *
     * @param selectors  what to discover
     * @param namedFiles the files the user named, as they wrote them
     */
    record Group(List<DiscoverySelector> selectors, Map<FileSelector, String> namedFiles) {
    }

    /**
     * The groups a run of {@code spec} executes, in order: one with every selector when the selection is small (at
     * most {@code partCases} cases, counted from the files' tokens) or names a classpath location; else the suite
     * files of its folders and files in order, whole files, a suite id's files together (so one discovery still
     * refuses a repeated id), up to {@code partCases} cases a group (a larger file alone).
     */
    static List<Group> groups(RunSpec spec, int partCases) {
        Group all = all(spec);
        if (spec.suites().stream().anyMatch(suite -> suite.startsWith(RunSpec.CLASSPATH))) {
            return List.of(all); // the shipped suites and other classpath folders are small: not counted
        }
        record Unit(List<Path> files, int cases) {
        }
        Map<String, List<SuiteSizes.Size>> byId = new LinkedHashMap<>();
        Set<Path> seen = new HashSet<>();
        List<DiscoverySelector> empty = new ArrayList<>();
        Map<FileSelector, String> named = new LinkedHashMap<>();
        for (String suite : spec.suites()) {
            Path path = Path.of(suite);
            List<Path> files = Files.isDirectory(path) ? SuiteSizes.scan(path) : List.of(path);
            if (files.isEmpty()) {
                empty.add(selectDirectory(path.toFile())); // discovery says it holds no suite, as always
            }
            for (Path file : files) {
                if (!seen.add(physical(file))) {
                    continue; // one file selected twice is one suite, as one discovery reads it
                }
                SuiteSizes.Size size = SuiteSizes.of(file);
                if (!Files.isDirectory(path)) {
                    named.put(selectFile(file.toFile()), suite);
                }
                byId.computeIfAbsent(size.id().orElse("\0" + file), id -> new ArrayList<>()).add(size);
            }
        }
        List<Unit> units = byId.values().stream().map(sizes -> new Unit(sizes.stream().map(SuiteSizes.Size::file)
                .toList(), sizes.stream().mapToInt(SuiteSizes.Size::cases).sum())).toList();
        if (units.stream().mapToInt(Unit::cases).sum() <= partCases) {
            return List.of(all);
        }
        List<Group> groups = new ArrayList<>();
        List<DiscoverySelector> selectors = new ArrayList<>(empty);
        int cases = 0;
        for (Unit unit : units) {
            if (cases > 0 && cases + unit.cases() > partCases) {
                groups.add(group(selectors, named));
                selectors = new ArrayList<>();
                cases = 0;
            }
            for (Path file : unit.files()) {
                selectors.add(selectFile(file.toFile()));
            }
            cases += unit.cases();
        }
        groups.add(group(selectors, named));
        return groups;
    }

    private static Group group(List<DiscoverySelector> selectors, Map<FileSelector, String> named) {
        Map<FileSelector, String> mine = new LinkedHashMap<>();
        for (DiscoverySelector selector : selectors) {
            if (selector instanceof FileSelector file && named.containsKey(file)) {
                mine.put(file, named.get(file));
            }
        }
        return new Group(List.copyOf(selectors), mine);
    }

    /** Where a file really is, so two spellings of one path are one file. */
    private static Path physical(Path file) {
        try {
            return file.toRealPath();
        } catch (IOException e) {
            return file.toAbsolutePath().normalize();
        }
    }

    /** Every selector of the spec, as one execution discovers them. */
    private static Group all(RunSpec spec) {
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
        return new Group(selectors, namedFiles);
    }

    /**
     * The configuration of part {@code part}: a run in parts judges its gates once, in its last part, and each part's
     * JUnit XML goes to a folder of its own ({@code junit/part-001}), so no part's replaces another's.
     */
    private static Map<String, String> partConfiguration(Map<String, String> configuration, List<Group> groups,
                                                         int part) {
        if (groups.size() == 1) {
            return configuration;
        }
        Map<String, String> mine = new LinkedHashMap<>(configuration);
        if (part < groups.size() - 1) {
            mine.put(Constants.GATES_ENABLED, "false");
        }
        mine.put(JUNIT_OUTPUT, Path.of(configuration.get(JUNIT_OUTPUT))
                .resolve(String.format(Locale.ROOT, "part-%03d", part + 1)).toString());
        mine.put(RunInParts.DISCOVERED_TWICE, "true");
        return mine;
    }

    /**
     * What stops a run, from the problems of its groups' discoveries: all of them, but a group's "no test in the
     * configured modes" when the run has tests in another group (one discovery of every file would not have said
     * it), and a {@code --case} that matched in no group.
     */
    private static List<String> problems(RunSpec spec, Set<String> found, Set<String> matched, long tests) {
        List<String> problems = new ArrayList<>();
        for (String problem : found) {
            if (tests == 0 || !problem.startsWith(RunInParts.NOTHING_DISCOVERED)) {
                problems.add(problem);
            }
        }
        for (String pattern : spec.cases()) {
            if (!matched.contains(pattern) && problems.isEmpty()) {
                problems.add("--case: '" + pattern + "' names no case in " + String.join(", ", spec.suites())
                        + " (a case id, suite/case, or a unique id)");
            }
        }
        return problems;
    }

    /** Discovery with the filters; its problems and warnings collected as lines. */
    private record Discovery(TestPlan plan, List<String> problems, List<String> warnings) {
    }

    /**
     * Discovers {@code group} with the spec's filters; the {@code --case} patterns that matched are added to
     * {@code matched}.
     */
    private static Discovery discover(Launcher launcher, RunSpec spec, Map<String, String> configuration,
                                      Set<String> rerun, Group group, Set<String> matched) {
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
        if (!spec.cases().isEmpty()) {
            filters.add(Selection.cases(spec.cases(), matched));
        }
        spec.shard().ifPresent(shard -> filters.add(Selection.shard(shard)));
        if (rerun != null) {
            filters.add(Selection.rerun(rerun));
        }
        List<String> problems = new ArrayList<>();
        List<String> warnings = new ArrayList<>();
        Map<FileSelector, String> namedFiles = group.namedFiles();
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
        LauncherDiscoveryRequest request = LauncherDiscoveryRequestBuilder.request().selectors(group.selectors())
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
        return new Discovery(plan, problems, warnings);
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
