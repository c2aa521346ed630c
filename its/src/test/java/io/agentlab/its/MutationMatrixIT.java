package io.agentlab.its;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import io.agentlab.its.mutation.MutationMatrix;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The shipped suites against the fault catalogue (docs/mutation-matrix.md#in-the-build): mutants of its/mutants.yaml
 * are applied, compiled and run against the suites in a forked JVM, and the fresh matrix must agree with
 * docs/mutation-matrix.md, mutant by mutant: a mutant the suites caught that now survives, a new mutant missing from
 * the doc, or an equivalent the suites catch fails the build. Required in CI (CI=true);
 * {@code -Dagentlab-build.mutation.skip=true} skips it on a developer's machine.
 *
 * <p>The whole catalogue runs: every mutant must apply and compile before any suite runs (catalogue rot fails at
 * once), then each mutant the doc says was caught runs first against the cases that caught it, and against every suite
 * only when none of them fails twice (docs/mutation-matrix.md#time). {@code -Dagentlab-build.mutation.exhaustive=true}
 * runs every suite against every mutant; {@code agentlab-build.mutation.only} names mutants to run.
 *
 * <p>The over-the-wire subset (docs/mutation-matrix.md#over-the-wire, the entries with {@code over-the-wire}) runs
 * against the reference runtime service started by command with the mutant first on its classpath, on the cases that
 * caught it in-process: each one the catalogue says the wire catches must be caught there, each one said to escape
 * (what catches it in-process is not observable over the wire) must escape, and the doc's table must agree.
 */
class MutationMatrixIT {

    @Test
    void everyMutantFaresAsTheCommittedMatrixSays() throws Exception {
        boolean ci = "true".equalsIgnoreCase(System.getenv("CI"));
        assumeFalse(!ci && Boolean.getBoolean("agentlab-build.mutation.skip"),
                "-Dagentlab-build.mutation.skip=true (never skipped when CI=true)");
        List<Path> classpath = kitClasspath();
        Path work = MavenBuild.ROOT.resolve("its").resolve("target").resolve("mutation");
        MutationMatrix.Checked checked = MutationMatrix.run(MavenBuild.ROOT, classpath, work);
        assertThat(checked.problems())
                .as("the fresh matrix (%s) disagrees with %s; if a change is intended, rerun with "
                        + "-Dagentlab-build.mutation.update=true and commit the doc", checked.report().resolve("matrix.md"),
                        "docs/mutation-matrix.md")
                .isEmpty();
    }

    @Test
    void theOverTheWireSubsetFaresAsTheCatalogueSays() throws Exception {
        boolean ci = "true".equalsIgnoreCase(System.getenv("CI"));
        assumeFalse(!ci && Boolean.getBoolean("agentlab-build.mutation.skip"),
                "-Dagentlab-build.mutation.skip=true (never skipped when CI=true)");
        Path service = MavenBuild.ROOT.resolve("runtime-service/target/agentlab-runtime-service.jar");
        assertThat(service).as("runtime-service's runnable jar (built before this module)").isRegularFile();
        Path work = MavenBuild.ROOT.resolve("its").resolve("target").resolve("mutation");
        MutationMatrix.Checked checked = MutationMatrix.runOverTheWire(MavenBuild.ROOT, kitClasspath(), service, work);
        assertThat(checked.problems())
                .as("the mutants over the wire (%s) disagree with %s's over-the-wire entries or %s; if a change is "
                        + "intended, fix the entry, rerun with -Dagentlab-build.mutation.update=true and commit the "
                        + "doc", checked.report(), "its/mutants.yaml", "docs/mutation-matrix.md#over-the-wire")
                .isEmpty();
    }

    /**
     * This module's test classpath (the kit as the reactor built it), less this module's own classes: the forked runs
     * and the mutants' compilation use it, so a mutant is compiled against the very jars it shadows.
     */
    private static List<Path> kitClasspath() {
        String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        Path own = MavenBuild.ROOT.resolve("its").resolve("target");
        List<Path> entries = Arrays.stream(classpath.split(File.pathSeparator)).filter(s -> !s.isBlank())
                .map(s -> Path.of(s).toAbsolutePath().normalize())
                .filter(path -> !path.startsWith(own) && Files.exists(path)).toList();
        assertThat(entries).as("the kit on the test classpath").anyMatch(p -> p.toString().contains("runner"));
        return entries;
    }
}
