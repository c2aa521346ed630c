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
