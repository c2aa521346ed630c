package io.agentlab.engine;

import io.agentlab.engine.internal.suite.Position;
import io.agentlab.engine.internal.suite.Suite;
import io.agentlab.engine.internal.suite.SuiteOrigin;
import io.agentlab.engine.internal.suite.SuiteProblem;
import io.agentlab.engine.internal.suite.SuiteReader;
import io.agentlab.engine.internal.suite.YamlReader;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.platform.engine.DiscoveryIssue;
import org.junit.platform.engine.support.discovery.DiscoveryIssueReporter;

/**
 * The suites of one discovery: each file is read and checked once, every problem becomes a discovery issue (an
 * error, so the run fails with it rather than skipping silently), and a suite id used by two files is refused.
 */
final class SuiteIndex {

    private final SuiteReader.Context context;
    private final List<Path> suiteDirectories;
    private final ClassLoader loader;
    private final DiscoveryIssueReporter issues;
    private final Map<String, Optional<Suite>> byOrigin = new HashMap<>();
    private final Map<String, Suite> byId = new HashMap<>();

    SuiteIndex(SuiteReader.Context context, List<Path> suiteDirectories, ClassLoader loader,
               DiscoveryIssueReporter issues) {
        this.context = context;
        this.suiteDirectories = List.copyOf(suiteDirectories);
        this.loader = loader;
        this.issues = issues;
    }

    /** The suite in a file, if it is valid. */
    synchronized Optional<Suite> file(Path path) {
        SuiteOrigin origin = SuiteOrigin.file(path);
        return byOrigin.computeIfAbsent(origin.display(), key -> {
            try {
                long size = Files.size(path);
                if (size > YamlReader.MAX_CHARS * 4L) { // UTF-8: at most 4 bytes a character; never read a huge file
                    return report(origin, YamlReader.tooLarge(origin.display(), size));
                }
                return load(origin, Files.readString(path));
            } catch (IOException e) {
                return report(origin, new SuiteProblem(origin.display(), Position.UNKNOWN, "", "cannot read the file: "
                        + e));
            }
        });
    }

    /** The suite in a classpath resource, if it is valid. */
    synchronized Optional<Suite> resource(String name) {
        SuiteOrigin origin = SuiteOrigin.classpath(name);
        return byOrigin.computeIfAbsent(origin.display(), key -> {
            try (InputStream in = loader.getResourceAsStream(name)) {
                if (in == null) {
                    return report(origin, new SuiteProblem(origin.display(), Position.UNKNOWN, "",
                            "no such classpath resource"));
                }
                byte[] bytes = in.readNBytes(YamlReader.MAX_CHARS * 4 + 1);
                if (bytes.length > YamlReader.MAX_CHARS * 4) {
                    return report(origin, YamlReader.tooLarge(origin.display(), bytes.length));
                }
                return load(origin, new String(bytes, StandardCharsets.UTF_8));
            } catch (IOException e) {
                return report(origin, new SuiteProblem(origin.display(), Position.UNKNOWN, "", "cannot read it: " + e));
            }
        });
    }

    /**
     * The suite with {@code id}: among those already read, else searched for in the configured suite directories and
     * the classpath's directories (a rerun by unique id names no file).
     */
    synchronized Optional<Suite> byId(String id) {
        if (byId.containsKey(id)) {
            return Optional.of(byId.get(id));
        }
        for (Path directory : suiteDirectories) {
            for (Path file : SuiteFiles.scan(directory)) {
                if (file(file).filter(suite -> suite.id().equals(id)).isPresent()) {
                    return Optional.of(byId.get(id));
                }
            }
        }
        for (Path root : SuiteFiles.classpathDirectories(loader)) {
            for (Path file : SuiteFiles.scan(root)) {
                String name = root.relativize(file).toString().replace('\\', '/');
                if (resource(name).filter(suite -> suite.id().equals(id)).isPresent()) {
                    return Optional.of(byId.get(id));
                }
            }
        }
        return Optional.empty();
    }

    private Optional<Suite> load(SuiteOrigin origin, String text) {
        SuiteReader.Result result = SuiteReader.read(origin, text, context);
        result.problems().forEach(problem -> report(origin, problem));
        if (result.suite().isEmpty()) {
            return Optional.empty();
        }
        Suite suite = result.suite().get();
        Suite other = byId.putIfAbsent(suite.id(), suite);
        if (other != null) {
            report(origin, new SuiteProblem(origin.display(), suite.at(), "id", "duplicate suite id '" + suite.id()
                    + "'; " + other.origin().display() + " already uses it (unique ids derive from it)"));
            return Optional.empty();
        }
        return Optional.of(suite);
    }

    private Optional<Suite> report(SuiteOrigin origin, SuiteProblem problem) {
        issues.reportIssue(DiscoveryIssue.builder(DiscoveryIssue.Severity.ERROR, problem.toString())
                .source(Sources.of(origin, problem.at())));
        return Optional.empty();
    }
}
