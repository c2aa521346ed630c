package io.agentlab.engine;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClasspathResource;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectDirectory;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectFile;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectUniqueId;

import io.agentlab.report.gates.Gate;
import io.agentlab.engine.internal.suite.Suite;
import io.agentlab.kernel.api.InvocationMode;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.junit.platform.engine.DiscoveryIssue;
import org.junit.platform.engine.DiscoverySelector;
import org.junit.platform.engine.TestDescriptor;
import org.junit.platform.engine.UniqueId;
import org.junit.platform.engine.discovery.ClasspathResourceSelector;
import org.junit.platform.engine.discovery.DirectorySelector;
import org.junit.platform.engine.discovery.FilePosition;
import org.junit.platform.engine.discovery.FileSelector;
import org.junit.platform.engine.discovery.UniqueIdSelector;
import org.junit.platform.engine.discovery.UriSelector;
import org.junit.platform.engine.support.discovery.DiscoveryIssueReporter;
import org.junit.platform.engine.support.discovery.SelectorResolver;

/**
 * Resolves files, directories, classpath resources (a suite file, or a folder to scan), {@code file:} and
 * {@code classpath:} URIs and unique ids into suite → case → mode (+ parity) descriptors, and unique ids of the gates
 * into gate nodes (docs/engine.md#selecting-suites). Packages and classpath roots reach it as classpath resources
 * through the resource-container resolver the engine registers. Each level is created on its parent's unique id, so
 * one case or one mode can be selected alone; a file or resource selected with a line selects what that line is in.
 *
 * <p>A selector that names nothing (a missing folder, a folder without suites, an unknown unique id, a line past the
 * end) is a WARNING discovery issue for that selector alone: an ERROR would fail the whole engine and lose every
 * other selector of the launch (an IDE's rerun of several failed tests).
 */
final class SuiteResolver implements SelectorResolver {

    private final SuiteIndex index;
    private final List<InvocationMode> modes;
    private final ClassLoader loader;
    private final DiscoveryIssueReporter issues;
    private final UniqueId engineId;
    private final Naming naming;
    private final Supplier<Optional<List<Gate>>> gates;
    /** The descriptors this discovery made, by unique id. */
    private final Map<UniqueId, TestDescriptor> made = new HashMap<>();
    /** Each suite's cases by id; by identity, as a suite record's hash would walk all of it. */
    private final Map<Suite, Map<String, Suite.Case>> casesById = new IdentityHashMap<>();

    /**
     * @param gates the run's gates, or empty when gates are off; asked only when a unique id names a gate
     */
    SuiteResolver(UniqueId engineId, SuiteIndex index, List<InvocationMode> modes, Naming naming, ClassLoader loader,
                  DiscoveryIssueReporter issues, Supplier<Optional<List<Gate>>> gates) {
        this.engineId = engineId;
        this.naming = naming.resolve(engineId);
        this.index = index;
        this.modes = List.copyOf(modes);
        this.loader = loader;
        this.issues = issues;
        this.gates = gates;
    }

    @Override
    public Resolution resolve(FileSelector selector, Context context) {
        String name = selector.getPath().getFileName() == null ? "" : selector.getPath().getFileName().toString();
        if (!SuiteFiles.isYaml(name)) {
            return Resolution.unresolved();
        }
        Path path = selector.getPath();
        if (!Files.isRegularFile(path)) {
            warn("the selected file " + path + " does not exist");
            return Resolution.unresolved();
        }
        if (!SuiteFiles.isScanned(name) && !index.looksLikeSuite(path)) {
            notClaimed(path.toString());
            return Resolution.unresolved();
        }
        return suite(index.file(path), context, selector.getPosition(), path.toString());
    }

    @Override
    public Resolution resolve(DirectorySelector selector, Context context) {
        Path directory = selector.getPath();
        if (!Files.isDirectory(directory)) {
            warn("the selected directory " + directory + " does not exist");
            return Resolution.unresolved();
        }
        Set<DiscoverySelector> files = new LinkedHashSet<>();
        for (Path file : SuiteFiles.scan(directory)) {
            files.add(selectFile(file.toFile()));
        }
        if (files.isEmpty()) {
            warn("the selected directory " + directory + " holds no suite (*.suite.yaml or *.suite.yml)");
            return Resolution.unresolved();
        }
        return Resolution.selectors(files);
    }

    @Override
    public Resolution resolve(ClasspathResourceSelector selector, Context context) {
        String name = selector.getClasspathResourceName();
        name = name.startsWith("/") ? name.substring(1) : name;
        if (SuiteFiles.isYaml(name)) {
            if (loader.getResource(name) == null) {
                warn("the selected classpath resource " + name + " does not exist");
                return Resolution.unresolved();
            }
            if (!SuiteFiles.isScanned(name) && !index.looksLikeSuiteResource(name)) {
                notClaimed("classpath:" + name);
                return Resolution.unresolved();
            }
            return suite(index.resource(name), context, selector.getPosition(), "classpath:" + name);
        }
        List<String> found = SuiteFiles.scanClasspathFolder(name, loader);
        if (found.isEmpty()) {
            boolean folder = !name.isEmpty() && loader.getResource(name.endsWith("/") ? name : name + "/") != null;
            if (loader.getResource(name) == null) {
                warn("no classpath folder or resource '" + name + "' exists");
            } else if (folder || name.isEmpty() || !name.contains(".")) {
                warn("the selected classpath folder '" + name + "' holds no suite (*.suite.yaml or *.suite.yml)");
            } // else: some other resource (a .properties file), not ours and no folder
            return Resolution.unresolved();
        }
        Set<DiscoverySelector> resources = new LinkedHashSet<>();
        for (String resource : found) {
            resources.add(selectClasspathResource(resource));
        }
        return Resolution.selectors(resources);
    }

    /** {@code file:} URIs are files or directories, {@code classpath:} URIs resources; {@code ?line=N} kept. */
    @Override
    public Resolution resolve(UriSelector selector, Context context) {
        URI uri = selector.getUri();
        Optional<FilePosition> position = Optional.ofNullable(uri.getRawQuery()).flatMap(FilePosition::fromQuery);
        if ("file".equals(uri.getScheme())) {
            Path path;
            try {
                path = SuiteFiles.filePath(uri);
            } catch (URISyntaxException | IllegalArgumentException e) {
                warn("cannot select " + uri + ": not a file URI (" + e.getMessage() + ")");
                return Resolution.unresolved();
            }
            if (Files.isDirectory(path)) {
                return Resolution.selectors(Set.of(selectDirectory(path.toFile())));
            }
            DiscoverySelector file = position.isPresent() ? selectFile(path.toString(), position.get())
                    : selectFile(path.toFile());
            return Resolution.selectors(Set.of(file));
        }
        if ("classpath".equals(uri.getScheme())) {
            String part = uri.getRawSchemeSpecificPart();
            int query = part.indexOf('?');
            String name = java.net.URLDecoder.decode(query < 0 ? part : part.substring(0, query),
                    java.nio.charset.StandardCharsets.UTF_8).replaceFirst("^/+", "");
            DiscoverySelector resource = position.isPresent() ? selectClasspathResource(name, position.get())
                    : selectClasspathResource(name);
            return Resolution.selectors(Set.of(resource));
        }
        return Resolution.unresolved();
    }

    @Override
    public Resolution resolve(UniqueIdSelector selector, Context context) {
        if (!selector.getUniqueId().hasPrefix(engineId)) {
            return Resolution.unresolved();
        }
        // the engine may sit under another (the suite engine): count segments from the engine's own
        List<UniqueId.Segment> all = selector.getUniqueId().getSegments();
        List<UniqueId.Segment> segments = all.subList(engineId.getSegments().size() - 1, all.size());
        if (segments.size() >= 2 && GatesDescriptor.SEGMENT.equals(segments.get(1).getType())) {
            return gate(selector, segments, context);
        }
        if (segments.size() < 2) {
            return Resolution.unresolved();
        }
        if (!SuiteDescriptor.SEGMENT.equals(segments.get(1).getType())) {
            return unknown(selector, "the engine's children are [suite:<id>] and [gates:run], not "
                    + segments.get(1));
        }
        String suiteId = segments.get(1).getValue();
        Optional<Suite> suite = index.byId(suiteId);
        if (suite.isEmpty()) {
            return unknown(selector, "no suite with id '" + suiteId + "' was found in the selected files, the configured "
                    + Constants.SUITE_DIRECTORIES + " or anywhere on the classpath (directories and jars); a suite "
                    + "file outside them is found again by id (a rerun by an IDE or Surefire) only when its folder is "
                    + "in " + Constants.SUITE_DIRECTORIES + " (docs/engine.md#clients)");
        }
        if (segments.size() == 2) {
            return suite(suite, context, Optional.empty(), "");
        }
        UniqueId suiteUid = engineId.append(SuiteDescriptor.SEGMENT, suiteId);
        UniqueId.Segment caseSegment = segments.get(2);
        Optional<Suite.Case> testCase = CaseDescriptor.SEGMENT.equals(caseSegment.getType())
                ? caseOf(suite.get(), caseSegment.getValue()) : Optional.empty();
        if (testCase.isEmpty()) {
            return unknown(selector, "suite '" + suiteId + "' has no case with id '" + caseSegment.getValue() + "'");
        }
        Optional<CaseDescriptor> caseDescriptor = context.addToParent(() -> selectUniqueId(suiteUid),
                existingOr(suiteUid.append(CaseDescriptor.SEGMENT, testCase.get().id()),
                        uid -> new CaseDescriptor(uid, suite.get(), testCase.get())));
        if (caseDescriptor.isEmpty()) {
            return Resolution.unresolved();
        }
        if (segments.size() == 3) {
            return Resolution.match(Match.exact(caseDescriptor.get(), () -> childSelectors(caseDescriptor.get())));
        }
        UniqueId.Segment leaf = segments.get(3);
        UniqueId caseUid = caseDescriptor.get().getUniqueId();
        if (ModeDescriptor.SEGMENT.equals(leaf.getType())) {
            Optional<InvocationMode> mode = caseDescriptor.get().modes(modes).stream()
                    .filter(m -> m.wireName().equals(leaf.getValue())).findFirst();
            if (mode.isEmpty()) {
                return unknown(selector, "case '" + testCase.get().id() + "' does not run in mode '" + leaf.getValue()
                        + "' (its modes under " + Constants.MODES + ": " + caseDescriptor.get().modes(modes)
                        .stream().map(InvocationMode::wireName).toList() + ")");
            }
            return context.addToParent(() -> selectUniqueId(caseUid), existingOr(caseUid.append(ModeDescriptor.SEGMENT,
                            mode.get().wireName()), uid -> new ModeDescriptor(uid, caseDescriptor.get(), mode.get(), naming)))
                    .map(descriptor -> Resolution.match(Match.exact(descriptor))).orElse(Resolution.unresolved());
        }
        if (ParityDescriptor.SEGMENT.equals(leaf.getType()) && caseDescriptor.get().modes(modes).size() == 2) {
            // parity needs both runs: selecting it selects the two mode nodes too (ordered ahead of it later)
            modeSelectors(caseDescriptor.get()).forEach(context::resolve);
            return context.addToParent(() -> selectUniqueId(caseUid), existingOr(caseUid.append(ParityDescriptor.SEGMENT,
                            ParityDescriptor.VALUE), uid -> new ParityDescriptor(uid, caseDescriptor.get(), naming)))
                    .map(descriptor -> Resolution.match(Match.exact(descriptor))).orElse(Resolution.unresolved());
        }
        return unknown(selector, "no node '" + leaf + "' under case '" + testCase.get().id() + "'");
    }

    /** {@code [gates:run]} (every gate) or {@code [gates:run]/[gate:<id>]} (one). */
    private Resolution gate(UniqueIdSelector selector, List<UniqueId.Segment> segments, Context context) {
        Optional<List<Gate>> configured = gates.get();
        if (configured.isEmpty()) {
            return unknown(selector, "gates are off; set agentlab.gates.enabled=true to run them");
        }
        UniqueId gatesUid = engineId.append(GatesDescriptor.SEGMENT, segments.get(1).getValue());
        if (!GatesDescriptor.VALUE.equals(segments.get(1).getValue())) {
            return unknown(selector, "the gates node is " + gatesUid);
        }
        if (segments.size() == 2) {
            Optional<GatesDescriptor> node = context.addToParent(existingOr(gatesUid, GatesDescriptor::new));
            if (node.isEmpty()) {
                return Resolution.unresolved();
            }
            Set<DiscoverySelector> each = new LinkedHashSet<>();
            configured.get().forEach(g -> each.add(selectUniqueId(gatesUid.append(GateDescriptor.SEGMENT, g.id()))));
            return Resolution.match(Match.exact(node.get(), () -> each));
        }
        UniqueId.Segment leaf = segments.get(2);
        Optional<Gate> gate = configured.get().stream()
                .filter(g -> GateDescriptor.SEGMENT.equals(leaf.getType()) && g.id().equals(leaf.getValue()))
                .findFirst();
        if (gate.isEmpty() || segments.size() > 3) {
            return unknown(selector, "no gate '" + leaf.getValue() + "' is configured; the gates are "
                    + configured.get().stream().map(Gate::id).toList());
        }
        return context.addToParent(() -> selectUniqueId(gatesUid), existingOr(gatesUid.append(GateDescriptor.SEGMENT,
                        gate.get().id()), uid -> new GateDescriptor(uid, gate.get(), true)))
                .map(descriptor -> Resolution.match(Match.exact(descriptor))).orElse(Resolution.unresolved());
    }

    /**
     * A suite selected whole, or — with a position — the case written at that line: a line inside a case (from its
     * {@code - id:} line to the line before the next case, or before the next top-level key) selects that case, a
     * line in the suite's header or after its cases the whole suite.
     */
    private Resolution suite(Optional<Suite> suite, Context context, Optional<FilePosition> position, String where) {
        if (suite.isEmpty()) {
            return Resolution.unresolved(); // its problems are already reported as discovery issues
        }
        if (position.isPresent()) {
            int line = position.get().getLine();
            List<String> lines = index.text(suite.get()).map(text -> text.lines().toList()).orElse(List.of());
            if (line < 1 || line > lines.size()) {
                warn("cannot select line " + line + " of " + where + ": it has " + lines.size() + " lines");
                return Resolution.unresolved();
            }
            Optional<Suite.Case> at = caseAt(suite.get(), lines, line);
            if (at.isPresent()) {
                return Resolution.selectors(Set.of(selectUniqueId(engineId.append(SuiteDescriptor.SEGMENT,
                        suite.get().id()).append(CaseDescriptor.SEGMENT, at.get().id()))));
            }
        }
        Optional<SuiteDescriptor> descriptor = context.addToParent(parent -> existingOr(
                parent.getUniqueId().append(SuiteDescriptor.SEGMENT, suite.get().id()),
                uid -> new SuiteDescriptor(uid, suite.get())).apply(parent));
        return descriptor.map(d -> Resolution.match(Match.exact(d, () -> caseSelectors(d))))
                .orElse(Resolution.unresolved());
    }

    /** The case whose lines hold {@code line}, if any (lines are 1-based). */
    static Optional<Suite.Case> caseAt(Suite suite, List<String> lines, int line) {
        List<Suite.Case> cases = suite.cases();
        for (int i = cases.size() - 1; i >= 0; i--) {
            int start = cases.get(i).at().line();
            if (start <= line) {
                int end = i + 1 < cases.size() ? cases.get(i + 1).at().line() - 1 : lastLineOfCases(lines, start);
                return line <= end ? Optional.of(cases.get(i)) : Optional.empty();
            }
        }
        return Optional.empty();
    }

    /** The line before the first top-level key after {@code start}, or the last line. */
    private static int lastLineOfCases(List<String> lines, int start) {
        for (int i = start; i < lines.size(); i++) { // index i is line i + 1
            String text = lines.get(i);
            if (!text.isEmpty() && !Character.isWhitespace(text.charAt(0)) && text.charAt(0) != '#'
                    && text.charAt(0) != '-') {
                return i;
            }
        }
        return lines.size();
    }

    private Set<DiscoverySelector> caseSelectors(SuiteDescriptor suite) {
        return suite.suite().cases().stream()
                .map(c -> selectUniqueId(suite.getUniqueId().append(CaseDescriptor.SEGMENT, c.id())))
                .collect(Collectors.toCollection(LinkedHashSet::new));
    }

    private Set<DiscoverySelector> childSelectors(CaseDescriptor testCase) {
        Set<DiscoverySelector> selectors = modeSelectors(testCase);
        if (testCase.modes(modes).size() == 2) {
            selectors.add(selectUniqueId(testCase.getUniqueId().append(ParityDescriptor.SEGMENT, ParityDescriptor.VALUE)));
        }
        return selectors;
    }

    private Set<DiscoverySelector> modeSelectors(CaseDescriptor testCase) {
        Set<DiscoverySelector> selectors = new LinkedHashSet<>();
        for (InvocationMode mode : testCase.modes(modes)) {
            selectors.add(selectUniqueId(testCase.getUniqueId().append(ModeDescriptor.SEGMENT, mode.wireName())));
        }
        return selectors;
    }

    /**
     * The parent's child with {@code uid} made earlier in this discovery, or a new one. Looked up by id, not by
     * scanning the parent's children: a suite of n cases resolves n case selectors, and a scan made that n² id
     * comparisons (docs/performance.md#discovery-and-reports).
     */
    @SuppressWarnings("unchecked")
    private <T extends TestDescriptor> Function<TestDescriptor, Optional<T>> existingOr(
            UniqueId uid, Function<UniqueId, T> create) {
        return parent -> {
            TestDescriptor known = made.get(uid);
            if (known != null && known.getParent().filter(parent::equals).isPresent()) {
                return Optional.of((T) known);
            }
            T child = create.apply(uid);
            made.put(uid, child);
            return Optional.of(child);
        };
    }

    /** The case of {@code suite} with {@code id}, from an index built on the suite's first lookup. */
    private Optional<Suite.Case> caseOf(Suite suite, String id) {
        return Optional.ofNullable(casesById.computeIfAbsent(suite, s -> s.cases().stream()
                .collect(Collectors.toMap(Suite.Case::id, c -> c, (first, later) -> first))).get(id));
    }

    /**
     * Reports why a unique id of this engine names nothing, and answers it as resolved: the Launcher turns every
     * unresolved unique id with the engine's prefix into an ERROR ("could not be resolved"), which fails the whole
     * engine and loses the launch's other reruns; a warning fails nobody (docs/engine.md#selecting-suites).
     */
    private Resolution unknown(UniqueIdSelector selector, String message) {
        warn("cannot select " + selector.getUniqueId() + ": " + message);
        return Resolution.selectors(Set.of(new Reported(selector.getUniqueId().toString())));
    }

    /** A selector no resolver takes: what {@link #unknown} answers with, so nothing more is said about it. */
    private record Reported(String uniqueId) implements DiscoverySelector {
    }

    private void warn(String message) {
        issues.reportIssue(DiscoveryIssue.builder(DiscoveryIssue.Severity.WARNING, message));
    }

    private void notClaimed(String where) {
        issues.reportIssue(DiscoveryIssue.builder(DiscoveryIssue.Severity.INFO, where + " is not taken for a suite: "
                + "it is not named *.suite.yaml or *.suite.yml and its top level has no 'id' and 'cases' keys"));
    }
}
