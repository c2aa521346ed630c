package io.agentlab.engine.internal.suite;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * Where a suite was loaded from: a file on disk or a classpath resource. Test sources point editors there.
 *
 * @param display           the name problems and reports show (a path or a resource name)
 * @param file              the file, when the suite is one
 * @param classpathResource the resource name, when loaded from the classpath
 */
@API(status = INTERNAL, since = "0.1")
public record SuiteOrigin(String display, Optional<Path> file, Optional<String> classpathResource) {

    /** Rejects nulls. */
    public SuiteOrigin {
        Objects.requireNonNull(display, "display");
        Objects.requireNonNull(file, "file");
        Objects.requireNonNull(classpathResource, "classpathResource");
    }

    /** A suite file on disk. */
    public static SuiteOrigin file(Path path) {
        return new SuiteOrigin(path.toString(), Optional.of(path), Optional.empty());
    }

    /** A suite on the classpath, e.g. {@code suites/volume.yaml}. */
    public static SuiteOrigin classpath(String resource) {
        return new SuiteOrigin("classpath:" + resource, Optional.empty(), Optional.of(resource));
    }
}
