package io.agentlab.engine;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClasspathResource;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectFile;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectUniqueId;

import io.agentlab.engine.internal.suite.Suite;
import io.agentlab.kernel.api.InvocationMode;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.platform.engine.DiscoveryIssue;
import org.junit.platform.engine.DiscoverySelector;
import org.junit.platform.engine.TestDescriptor;
import org.junit.platform.engine.UniqueId;
import org.junit.platform.engine.discovery.ClasspathResourceSelector;
import org.junit.platform.engine.discovery.DirectorySelector;
import org.junit.platform.engine.discovery.FileSelector;
import org.junit.platform.engine.discovery.UniqueIdSelector;
import org.junit.platform.engine.support.discovery.DiscoveryIssueReporter;
import org.junit.platform.engine.support.discovery.SelectorResolver;

/**
 * Resolves files, directories, classpath resources (a suite file, or a folder to scan) and unique ids into
 * suite → case → mode (+ parity) descriptors. Packages and classpath roots reach it as classpath resources through
 * the resource-container resolver the engine registers. Each level is created on its parent's unique id, so one case
 * or one mode can be selected alone.
 */
final class SuiteResolver implements SelectorResolver {

    private final SuiteIndex index;
    private final List<InvocationMode> modes;
    private final ClassLoader loader;
    private final DiscoveryIssueReporter issues;
    private final UniqueId engineId;
    private final Naming naming;

    SuiteResolver(UniqueId engineId, SuiteIndex index, List<InvocationMode> modes, Naming naming, ClassLoader loader,
                  DiscoveryIssueReporter issues) {
        this.engineId = engineId;
        this.naming = naming.resolve(engineId);
        this.index = index;
        this.modes = List.copyOf(modes);
        this.loader = loader;
        this.issues = issues;
    }

    @Override
    public Resolution resolve(FileSelector selector, Context context) {
        if (!SuiteFiles.isYaml(selector.getRawPath())) {
            return Resolution.unresolved();
        }
        return suite(index.file(selector.getPath()), context);
    }

    @Override
    public Resolution resolve(DirectorySelector selector, Context context) {
        Set<DiscoverySelector> files = new LinkedHashSet<>();
        for (Path file : SuiteFiles.scan(selector.getPath())) {
            files.add(selectFile(file.toFile()));
        }
        return files.isEmpty() ? Resolution.unresolved() : Resolution.selectors(files);
    }

    @Override
    public Resolution resolve(ClasspathResourceSelector selector, Context context) {
        String name = selector.getClasspathResourceName();
        name = name.startsWith("/") ? name.substring(1) : name;
        if (SuiteFiles.isYaml(name)) {
            return suite(index.resource(name), context);
        }
        Set<DiscoverySelector> resources = new LinkedHashSet<>();
        for (String resource : SuiteFiles.scanClasspathFolder(name, loader)) {
            resources.add(selectClasspathResource(resource));
        }
        return resources.isEmpty() ? Resolution.unresolved() : Resolution.selectors(resources);
    }

    @Override
    public Resolution resolve(UniqueIdSelector selector, Context context) {
        if (!selector.getUniqueId().hasPrefix(engineId)) {
            return Resolution.unresolved();
        }
        // the engine may sit under another (the suite engine): count segments from the engine's own
        List<UniqueId.Segment> all = selector.getUniqueId().getSegments();
        List<UniqueId.Segment> segments = all.subList(engineId.getSegments().size() - 1, all.size());
        if (segments.size() < 2 || !SuiteDescriptor.SEGMENT.equals(segments.get(1).getType())) {
            return Resolution.unresolved();
        }
        String suiteId = segments.get(1).getValue();
        Optional<Suite> suite = index.byId(suiteId);
        if (suite.isEmpty()) {
            unknown(selector, "no suite with id '" + suiteId + "' was found in the selected files, the configured "
                    + ConformanceSettings.SUITE_DIRECTORIES + " or the classpath's directories");
            return Resolution.unresolved();
        }
        if (segments.size() == 2) {
            return suite(suite, context);
        }
        UniqueId suiteUid = engineId.append(SuiteDescriptor.SEGMENT, suiteId);
        UniqueId.Segment caseSegment = segments.get(2);
        Optional<Suite.Case> testCase = suite.get().cases().stream()
                .filter(c -> CaseDescriptor.SEGMENT.equals(caseSegment.getType()) && c.id().equals(caseSegment.getValue()))
                .findFirst();
        if (testCase.isEmpty()) {
            unknown(selector, "suite '" + suiteId + "' has no case with id '" + caseSegment.getValue() + "'");
            return Resolution.unresolved();
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
                unknown(selector, "case '" + testCase.get().id() + "' does not run in mode '" + leaf.getValue()
                        + "' (its modes under " + ConformanceSettings.MODES + ": " + caseDescriptor.get().modes(modes)
                        .stream().map(InvocationMode::wireName).toList() + ")");
                return Resolution.unresolved();
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
        unknown(selector, "no node '" + leaf + "' under case '" + testCase.get().id() + "'");
        return Resolution.unresolved();
    }

    private Resolution suite(Optional<Suite> suite, Context context) {
        if (suite.isEmpty()) {
            return Resolution.unresolved(); // its problems are already reported as discovery issues
        }
        Optional<SuiteDescriptor> descriptor = context.addToParent(parent -> existingOr(
                parent.getUniqueId().append(SuiteDescriptor.SEGMENT, suite.get().id()),
                uid -> new SuiteDescriptor(uid, suite.get())).apply(parent));
        return descriptor.map(d -> Resolution.match(Match.exact(d, () -> caseSelectors(d))))
                .orElse(Resolution.unresolved());
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

    @SuppressWarnings("unchecked")
    private static <T extends TestDescriptor> Function<TestDescriptor, Optional<T>> existingOr(
            UniqueId uid, Function<UniqueId, T> create) {
        return parent -> Optional.of(parent.getChildren().stream().filter(child -> child.getUniqueId().equals(uid))
                .map(child -> (T) child).findFirst().orElseGet(() -> create.apply(uid)));
    }

    private void unknown(UniqueIdSelector selector, String message) {
        issues.reportIssue(DiscoveryIssue.builder(DiscoveryIssue.Severity.ERROR, "cannot select "
                + selector.getUniqueId() + ": " + message));
    }
}
