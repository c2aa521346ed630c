package io.agentlab.its.mutation;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Runs the catalogue against the shipped suites and checks the matrix against docs/mutation-matrix.md
 * (docs/mutation-matrix.md#in-the-build). Used by MutationMatrixIT in the build and by {@link #main} by hand:
 *
 * <pre>
 * java -cp cli/target/agentlab.jar:its/target/test-classes io.agentlab.its.mutation.MutationMatrix . cli/target/agentlab.jar
 * </pre>
 *
 * System properties: {@code agentlab-build.mutation.parallel} (mutants at once), {@code agentlab-build.mutation.only} (comma-
 * separated ids, for working on a few), {@code agentlab-build.mutation.update=true} (rewrite the doc's generated section,
 * from runs of every suite against every mutant), {@code agentlab-build.mutation.exhaustive=true} (every suite against
 * every mutant without rewriting; otherwise a mutant first runs the cases the doc says caught it),
 * {@code agentlab-build.mutation.wire-parallel} (mutants at once over the wire, {@link #runOverTheWire}).
 */
public final class MutationMatrix {

    private MutationMatrix() {
    }

    /** The fresh matrix and what differs from the committed doc. */
    public record Checked(Matrix matrix, List<String> problems, Path report) {
    }

    /** Runs and checks; writes {@code <work>/matrix.md} and {@code .json}, each run's report under {@code <work>/runs}. */
    public static Checked run(Path root, List<Path> classpath, Path work) throws IOException, InterruptedException {
        List<Mutant> mutants = Catalogue.read(root.resolve(Catalogue.FILE));
        String only = System.getProperty("agentlab-build.mutation.only", "");
        if (!only.isBlank()) {
            Set<String> ids = Arrays.stream(only.split(",")).map(String::strip).collect(Collectors.toSet());
            mutants = mutants.stream().filter(m -> ids.contains(m.id())).toList();
        }
        Path doc = root.resolve(Matrix.DOC);
        String committed = Files.isRegularFile(doc) ? Files.readString(doc) : "";
        boolean update = Boolean.getBoolean("agentlab-build.mutation.update");
        // the doc's lists of catching tests are rewritten only from exhaustive runs (docs/mutation-matrix.md#time)
        boolean exhaustive = update || Boolean.getBoolean("agentlab-build.mutation.exhaustive");
        int cores = Runtime.getRuntime().availableProcessors();
        int atOnce = Integer.getInteger("agentlab-build.mutation.parallel", Math.max(2, cores + 1));
        MutationHarness harness = new MutationHarness(new MutationHarness.Settings(root, classpath, work.resolve("runs"),
                atOnce, 4,
                Duration.ofMinutes(Long.getLong("agentlab-build.mutation.run-minutes", 5)),
                exhaustive ? Map.of() : Matrix.catchers(committed), System.out, Optional.empty()));
        System.out.printf("mutation: %d mutants from %s, %d at once, on %d cores, %s%n", mutants.size(),
                Catalogue.FILE, atOnce, cores, exhaustive ? "every suite against each"
                        : "each against the cases the doc says caught it first");
        MutationHarness.Outcome outcome = harness.run(mutants);
        Matrix matrix = new Matrix(outcome);
        Path report = work;
        matrix.write(report);
        List<String> problems = new ArrayList<>(matrix.problems(committed));
        if (!only.isBlank()) {
            problems.removeIf(p -> p.contains("but not in the catalogue")); // a partial run judges only its own
        }
        if (update) {
            Files.writeString(doc, matrix.updated(committed));
            System.out.println("mutation: rewrote the generated section of " + doc + "; what changed:");
            problems.forEach(p -> System.out.println("mutation:   " + p));
            // the doc now says what this run measured; only a caught equivalent is still wrong
            problems.removeIf(p -> !p.contains("is marked equivalent but"));
        }
        System.out.printf("mutation: kill rate %.1f %% (%d mutants) in %d s; matrix in %s%n", matrix.killRate() * 100,
                outcome.results().size(), outcome.took().toSeconds(), report);
        return new Checked(matrix, List.copyOf(problems), report);
    }

    /**
     * The over-the-wire subset (docs/mutation-matrix.md#over-the-wire): each catalogue entry with {@code over-the-wire}
     * runs against the reference runtime service ({@code service}, runtime-service's jar) over the wire, on the cases
     * the doc's matrix names as catching it in-process. Writes {@code <work>/wire.md}; the problems are a mutant the
     * catalogue says the wire catches that escaped, one said to escape that was caught, and a row of the doc's
     * over-the-wire table that differs. {@code agentlab-build.mutation.update=true} rewrites that table.
     */
    public static Checked runOverTheWire(Path root, List<Path> classpath, Path service, Path work)
            throws IOException, InterruptedException {
        List<Mutant> mutants = Catalogue.read(root.resolve(Catalogue.FILE)).stream()
                .filter(m -> m.overTheWire().isPresent()).toList();
        String only = System.getProperty("agentlab-build.mutation.only", "");
        if (!only.isBlank()) {
            Set<String> ids = Arrays.stream(only.split(",")).map(String::strip).collect(Collectors.toSet());
            mutants = mutants.stream().filter(m -> ids.contains(m.id())).toList();
        }
        if (mutants.isEmpty() && only.isBlank()) {
            throw new IllegalStateException(Catalogue.FILE + ": no entry has over-the-wire, so nothing runs over it");
        }
        Path doc = root.resolve(Matrix.DOC);
        String committed = Files.readString(doc);
        Map<String, List<String>> inProcess = Matrix.catchers(committed);
        // the service and the runner are two JVMs a mutant: fewer mutants at once than in-process
        int atOnce = Integer.getInteger("agentlab-build.mutation.wire-parallel",
                Math.max(1, Runtime.getRuntime().availableProcessors()));
        MutationHarness harness = new MutationHarness(new MutationHarness.Settings(root, classpath, work.resolve("runs"),
                atOnce, 1, Duration.ofMinutes(Long.getLong("agentlab-build.mutation.run-minutes", 5)), inProcess,
                System.out, Optional.of(service)));
        System.out.printf("mutation: %d mutants over the wire against %s, %d at once, each on the cases that caught "
                + "it in-process%n", mutants.size(), service, atOnce);
        MutationHarness.Outcome outcome = harness.overTheWire(mutants);
        Matrix matrix = new Matrix(outcome);
        Files.createDirectories(work);
        Path report = work.resolve("wire.md");
        Files.writeString(report, "# Mutants over the wire (fresh run)\n\n" + matrix.wireMarkdown(inProcess));
        List<String> problems = new ArrayList<>(matrix.wireProblems(committed));
        if (!only.isBlank()) {
            problems.removeIf(p -> p.contains("but not in the over-the-wire subset")); // a partial run
        }
        if (Boolean.getBoolean("agentlab-build.mutation.update")) {
            Files.writeString(doc, matrix.wireUpdated(Files.readString(doc), inProcess));
            System.out.println("mutation: rewrote the over-the-wire table of " + doc);
            problems.removeIf(p -> p.contains("table of " + Matrix.DOC));
        }
        System.out.printf("mutation: %d of %d mutants caught over the wire in %d s; table in %s%n",
                outcome.results().stream().filter(r -> r.verdict().caught()).count(), outcome.results().size(),
                outcome.took().toSeconds(), report);
        return new Checked(matrix, List.copyOf(problems), report);
    }

    /** {@code MutationMatrix <repository root> <classpath>}: exit 0 when the fresh matrix agrees with the doc. */
    public static void main(String[] args) throws Exception {
        Path root = Path.of(args[0]).toAbsolutePath().normalize();
        List<Path> classpath = Arrays.stream(args[1].split(File.pathSeparator)).map(Path::of).toList();
        Checked checked = run(root, classpath, root.resolve("its/target/mutation"));
        checked.problems().forEach(p -> System.out.println("mutation: PROBLEM " + p));
        System.exit(checked.problems().isEmpty() ? 0 : 1);
    }
}
