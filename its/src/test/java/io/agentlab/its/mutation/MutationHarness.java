package io.agentlab.its.mutation;

import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.io.StringWriter;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.ToolProvider;

/**
 * Source mutants applied in a scratch build (docs/mutation-matrix.md#how-it-runs): for each catalogue entry the one
 * mutated file is compiled with javax.tools against the kit's own classpath into {@code <work>/<id>/classes}, and the
 * shipped suites run in a forked JVM with that folder first on the classpath, where the mutated class shadows the
 * original in the kernel's jar. The unmutated kit must pass first (the baseline). A test counts as catching a mutant
 * only when it fails in the run and again in a confirming rerun of the failed tests one at a time, so a timing test
 * that a loaded machine tips over once is noise, never a kill.
 *
 * <p>A mutant the committed matrix says was caught runs first against the cases it names ({@code known}); when one of
 * them fails twice the mutant is caught and the rest of the suites need not run. Only when none does are all suites
 * run, so a mutant whose known catchers stopped catching it is judged on everything
 * (docs/mutation-matrix.md#time). An empty {@code known} runs every mutant against every suite.
 */
public final class MutationHarness {

    /**
     * What a harness run needs.
     *
     * @param service runtime-service's runnable jar, for {@link #overTheWire}; empty when only in-process runs are made
     */
    public record Settings(Path root, List<Path> classpath, Path work, int mutantsAtOnce, int casesAtOnce,
                           Duration runBound, Map<String, List<String>> known, PrintStream log,
                           Optional<Path> service) {
        /** Copies the known catchers. */
        public Settings {
            known = Map.copyOf(known);
        }
    }

    /** One mutant's verdict and how long it took. */
    public record Result(Mutant mutant, Verdict verdict, Duration took) {
    }

    /** The whole run: the baseline's size and time, its flaky tests, every mutant's result, the wall time. */
    public record Outcome(int baselineTests, Duration baselineTook, List<String> baselineNoise, List<Result> results,
                          Duration took) {
    }

    private final Settings settings;
    private final SuiteRun suites;

    public MutationHarness(Settings settings) {
        this.settings = settings;
        this.suites = new SuiteRun(settings.classpath(), settings.runBound(), settings.service());
    }

    /**
     * Runs the baseline, then every mutant, {@code mutantsAtOnce} at a time, in-process.
     *
     * @throws IllegalStateException when the baseline is not green, or a mutant does not apply or compile
     */
    public Outcome run(List<Mutant> mutants) throws IOException, InterruptedException {
        return run(SuiteRun.Subject.IN_PROCESS, mutants, List.of());
    }

    /**
     * The same against the reference runtime service over the wire (docs/mutation-matrix.md#over-the-wire): each
     * mutant's class folder goes first on the service's classpath, and only the cases {@code known} names for it (those
     * that caught it in-process) run, one at a time, with the baseline the unmutated service on all of them. A test
     * counts as catching the mutant when it fails twice, as in-process.
     *
     * @throws IllegalStateException when a mutant has no known in-process catchers, the baseline over the wire is not
     *                               green, or a mutant does not apply or compile
     */
    public Outcome overTheWire(List<Mutant> mutants) throws IOException, InterruptedException {
        Set<String> cases = new LinkedHashSet<>();
        for (Mutant mutant : mutants) {
            List<String> known = knownCases(mutant);
            if (known.isEmpty()) {
                throw new IllegalStateException("mutant " + mutant.id() + " is run over the wire, but no test caught "
                        + "it in-process (" + Matrix.DOC + " names none): nothing to run it against");
            }
            cases.addAll(known);
        }
        return run(SuiteRun.Subject.OVER_THE_WIRE, mutants, List.copyOf(cases));
    }

    /**
     * The baseline ({@code baselineCases}, empty: every case) against the unmutated subject, then every mutant.
     */
    private Outcome run(SuiteRun.Subject subject, List<Mutant> mutants, List<String> baselineCases)
            throws IOException, InterruptedException {
        long start = System.nanoTime();
        // every mutant applies and compiles before any suite runs: a rotten catalogue fails in seconds
        Map<Mutant, Path> compiled = new LinkedHashMap<>();
        for (Mutant mutant : mutants) {
            compiled.put(mutant, compile(mutant));
        }
        String where = subject == SuiteRun.Subject.IN_PROCESS ? "" : " over the wire";
        int casesAtOnce = subject == SuiteRun.Subject.IN_PROCESS ? settings.casesAtOnce() : 1;
        settings.log().printf("mutation: %d mutants compiled; baseline run%s of %s%n", mutants.size(), where,
                baselineCases.isEmpty() ? "the shipped suites" : baselineCases.size() + " cases");
        Path baselineDir = work(subject).resolve("baseline");
        SuiteRun.Outcome first = suites.run(subject, Optional.empty(), baselineDir.resolve("run"), Optional.empty(),
                baselineCases, casesAtOnce);
        if (!(first instanceof SuiteRun.Outcome.Finished baseline)) {
            throw new IllegalStateException("the baseline (the unmutated kit" + where + ") did not run: " + first
                    + " (see " + baselineDir + ")");
        }
        List<String> noise = new ArrayList<>();
        if (!baseline.failed().isEmpty()) {
            List<String> still = confirm(subject, Optional.empty(), baselineDir, baseline.failed());
            if (!still.isEmpty()) {
                throw new IllegalStateException("the baseline is not green: against the unmutated kit" + where
                        + " these tests fail, twice: " + still + " (see " + baselineDir + "); no mutant can be judged");
            }
            noise.addAll(baseline.failed());
        }
        settings.log().printf("mutation: baseline%s green, %d tests in %d s%s%n", where, baseline.tests(),
                baseline.took().toSeconds(), noise.isEmpty() ? "" : " (failed once, passed again: " + noise + ")");
        ExecutorService pool = Executors.newFixedThreadPool(settings.mutantsAtOnce());
        try {
            List<Future<Result>> futures = new ArrayList<>();
            for (Map.Entry<Mutant, Path> entry : compiled.entrySet()) {
                futures.add(pool.submit(() -> judge(subject, entry.getKey(), entry.getValue())));
            }
            List<Result> results = new ArrayList<>();
            for (Future<Result> future : futures) {
                try {
                    results.add(future.get());
                } catch (ExecutionException e) {
                    throw new IllegalStateException("a mutant run failed: " + e.getCause(), e.getCause());
                }
            }
            return new Outcome(baseline.tests(), baseline.took(), List.copyOf(noise), List.copyOf(results),
                    Duration.ofNanos(System.nanoTime() - start));
        } finally {
            pool.shutdownNow();
        }
    }

    /** The cases ({@code suite/case}) the known catchers of {@code mutant} belong to. */
    private List<String> knownCases(Mutant mutant) {
        return settings.known().getOrDefault(mutant.id(), List.of()).stream().map(Matrix::caseOf).distinct().toList();
    }

    /** Where a subject's runs go: {@code <work>/<id>} in-process, {@code <work>/wire/<id>} over the wire. */
    private Path work(SuiteRun.Subject subject) {
        return subject == SuiteRun.Subject.IN_PROCESS ? settings.work() : settings.work().resolve("wire");
    }

    private Result judge(SuiteRun.Subject subject, Mutant mutant, Path classes)
            throws IOException, InterruptedException {
        long start = System.nanoTime();
        Path dir = work(subject).resolve(mutant.id());
        List<String> known = knownCases(mutant);
        Verdict verdict;
        if (subject == SuiteRun.Subject.OVER_THE_WIRE) {
            verdict = verdict(subject, mutant, classes, dir, known); // only the cases that caught it in-process
        } else {
            verdict = known.isEmpty() ? null : verdict(subject, mutant, classes, dir.resolve("known"), known);
            // only confirmed failures of the known cases decide; a hang, a broken run or a renamed case runs everything
            if (!(verdict instanceof Verdict.Caught)) {
                verdict = verdict(subject, mutant, classes, dir, List.of());
            }
        }
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        settings.log().printf("mutation: %-44s %-8s %3d s %s%s%n", mutant.id(), verdict.status(), took.toSeconds(),
                verdict instanceof Verdict.Caught caught ? caught.tests().size() + " test(s)" : "",
                subject == SuiteRun.Subject.IN_PROCESS ? "" : " (over the wire)");
        return new Result(mutant, verdict, took);
    }

    /** One run of {@code cases} (empty: every case) against the mutant, its failures confirmed by a rerun. */
    private Verdict verdict(SuiteRun.Subject subject, Mutant mutant, Path classes, Path dir, List<String> cases)
            throws IOException, InterruptedException {
        int casesAtOnce = subject == SuiteRun.Subject.IN_PROCESS ? settings.casesAtOnce() : 1;
        SuiteRun.Outcome outcome = suites.run(subject, Optional.of(classes), dir.resolve("run"), Optional.empty(),
                cases, casesAtOnce);
        Verdict verdict;
        if (outcome instanceof SuiteRun.Outcome.Killed killed) {
            verdict = new Verdict.Hung(killed.bound().toSeconds());
        } else if (outcome instanceof SuiteRun.Outcome.Broken broken) {
            settings.log().printf("mutation: %s: the run ended (exit %d) without a verdict per test:%n%s%n",
                    mutant.id(), broken.exitCode(), broken.logTail());
            verdict = new Verdict.Broke(broken.exitCode());
        } else {
            SuiteRun.Outcome.Finished finished = (SuiteRun.Outcome.Finished) outcome;
            if (finished.failed().isEmpty()) {
                verdict = new Verdict.Survived(List.of());
            } else {
                List<String> twice = confirm(subject, Optional.of(classes), dir, finished.failed());
                List<String> once = new ArrayList<>(finished.failed());
                once.removeAll(twice);
                verdict = twice.isEmpty() ? new Verdict.Survived(once) : new Verdict.Caught(twice);
            }
        }
        return verdict;
    }

    /** Reruns the failed tests of the last run in that folder one at a time; returns those that failed again. */
    private List<String> confirm(SuiteRun.Subject subject, Optional<Path> shadow, Path dir, List<String> failed)
            throws IOException, InterruptedException {
        SuiteRun.Outcome again = suites.run(subject, shadow, dir.resolve("confirm"),
                Optional.of(dir.resolve("run").resolve("results.json")), List.of(), 1);
        if (again instanceof SuiteRun.Outcome.Finished finished) {
            Set<String> twice = new LinkedHashSet<>(failed);
            twice.retainAll(finished.failed());
            return List.copyOf(twice);
        }
        if (again instanceof SuiteRun.Outcome.Killed) {
            return List.copyOf(failed); // the rerun hung: it failed again
        }
        throw new IllegalStateException("the confirming rerun in " + dir + " broke: " + again);
    }

    /** Applies the mutant to its file and compiles that file alone against the kit's classpath. */
    Path compile(Mutant mutant) throws IOException {
        Path source = settings.root().resolve(mutant.file());
        if (!Files.isRegularFile(source)) {
            throw new IllegalStateException("mutant " + mutant.id() + ": no file " + mutant.file());
        }
        String mutated = mutant.apply(Files.readString(source));
        Path classes = settings.work().resolve(mutant.id()).resolve("classes");
        if (Files.exists(classes)) {
            try (var walk = Files.walk(classes)) {
                walk.sorted(java.util.Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
            }
        }
        Files.createDirectories(classes);
        Files.writeString(settings.work().resolve(mutant.id()).resolve(source.getFileName()), mutated);
        JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        if (compiler == null) {
            throw new IllegalStateException("no Java compiler in " + System.getProperty("java.home")
                    + ": the mutation harness needs a JDK");
        }
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        JavaFileObject unit = new SimpleJavaFileObject(URI.create("string:///" + mutant.className().replace('.', '/')
                + JavaFileObject.Kind.SOURCE.extension), JavaFileObject.Kind.SOURCE) {
            @Override
            public CharSequence getCharContent(boolean ignoreEncodingErrors) {
                return mutated;
            }
        };
        List<String> options = List.of("--release", "17", "-proc:none", "-nowarn", "-encoding",
                StandardCharsets.UTF_8.name(), "-d", classes.toString(), "-classpath",
                String.join(File.pathSeparator, settings.classpath().stream().map(Path::toString).toList()));
        StringWriter out = new StringWriter();
        boolean ok;
        synchronized (MutationHarness.class) {
            ok = compiler.getTask(out, null, diagnostics, options, null, List.of(unit)).call();
        }
        if (!ok) {
            StringBuilder message = new StringBuilder("mutant " + mutant.id() + " does not compile:");
            diagnostics.getDiagnostics().forEach(d -> message.append("\n  line ").append(d.getLineNumber())
                    .append(": ").append(d.getMessage(null)));
            throw new IllegalStateException(message.toString());
        }
        Path compiledClass = classes.resolve(mutant.className().replace('.', '/') + ".class");
        if (!Files.isRegularFile(compiledClass)) {
            throw new IllegalStateException("mutant " + mutant.id() + ": compiling gave no " + compiledClass);
        }
        return classes;
    }
}
