package io.agentlab.engine;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.agentlab.engine.internal.suite.SuiteSchema;
import io.agentlab.report.Coverage;
import io.agentlab.report.controls.CapabilityGrowth;
import io.agentlab.report.metrics.MetricsReport;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.apiguardian.api.API;
import org.junit.platform.engine.ExecutionRequest;
import org.junit.platform.engine.support.store.Namespace;
import org.junit.platform.engine.support.store.NamespacedHierarchicalStore;

/**
 * One run of the engine spread over several Launcher executions of one launcher session: the JUnit Platform needs an
 * execution's whole test plan before it runs, so a selection too large to hold as one plan (hundreds of thousands of
 * cases) runs as consecutive executions over groups of suite files, and this is what they share
 * (docs/engine.md#runs-in-parts, docs/performance.md#memory). A client opens one in its session's store before the
 * first execution; each execution of the engine in that session is then one part of the run: the parts add their
 * turns, tests and coverage to one report, count the capability-growth curve once, and only the last part judges the
 * gates (the client enables them for that part) and writes the reports, over the whole run. Without one (every other
 * client: Surefire, an IDE, EngineTestKit), an execution is a run, as always.
 */
@API(status = INTERNAL, since = "0.2")
public final class RunInParts implements AutoCloseable {

    /**
     * How the discovery problem of a selection without a test in the configured modes starts: a client that runs
     * parts drops it for a part when another part has tests, since the run as a whole has some.
     */
    public static final String NOTHING_DISCOVERED = "no conformance test was discovered";

    /**
     * A configuration parameter a client that runs parts sets ({@code true}) on a part's discovery once it knows that
     * the run as a whole has tests: the part's discovery then does not report {@link #NOTHING_DISCOVERED} for its own
     * files, which would fail the part's execution. Outside the {@code agentlab.} keys, so no client passes it by
     * mistake and none is told it is unknown.
     */
    public static final String OTHER_PARTS_HAVE_TESTS = RunInParts.class.getName() + ".other-parts-have-tests";

    /**
     * A configuration parameter a client that runs parts sets ({@code true}) on every discovery of a part, the one
     * before anything runs and the one right before the part: the suite schema then checks each file's text once in
     * the process, the second reading skipping what the first passed (docs/performance.md#schema-passes). Outside the
     * {@code agentlab.} keys, as {@link #OTHER_PARTS_HAVE_TESTS}.
     */
    public static final String DISCOVERED_TWICE = RunInParts.class.getName() + ".discovered-twice";

    private static final Namespace NAMESPACE = Namespace.create(RunInParts.class.getName());
    private static final String KEY = "run";

    private final int parts;
    private final MetricsReport metrics = new MetricsReport();
    private final RunLog log = new RunLog();
    private final List<Coverage.Suite> suites = new ArrayList<>();
    private boolean selectedByUniqueId;
    private boolean filtered;
    private int begun;
    private CompletableFuture<List<CapabilityGrowth.Point>> growth;

    private RunInParts(int parts) {
        this.parts = parts;
    }

    /**
     * How many suite documents the schema checked on this thread so far: discovery runs on the thread that asks for
     * it, so a client's test counts with it that a run in parts checks each file once though it reads it twice.
     */
    public static long schemaValidationsOnThisThread() {
        return SuiteSchema.validationsOnThisThread();
    }

    /**
     * Opens a run of {@code parts} executions in the session whose store is {@code sessionStore}
     * ({@code LauncherSession.getStore()}); close it when the last has run.
     *
     * @throws IllegalArgumentException when {@code parts} is not positive
     */
    public static RunInParts open(NamespacedHierarchicalStore<Namespace> sessionStore, int parts) {
        if (parts < 1) {
            throw new IllegalArgumentException("a run has at least one part, not " + parts);
        }
        RunInParts run = new RunInParts(parts);
        sessionStore.put(NAMESPACE, KEY, run);
        return run;
    }

    /** The run an execution is part of, if its client opened one in the session. */
    static Optional<RunInParts> of(ExecutionRequest request) {
        return Optional.ofNullable(request.getStore().get(NAMESPACE, KEY, RunInParts.class));
    }

    /** How many parts the run has. */
    public int parts() {
        return parts;
    }

    /** The parts begun so far. */
    public synchronized int begun() {
        return begun;
    }

    /** The run's turns, from every part. */
    MetricsReport metrics() {
        return metrics;
    }

    /** The run's tests, from every part. */
    RunLog log() {
        return log;
    }

    /** A part begins: its number, from 1. */
    synchronized int begin() {
        return ++begun;
    }

    /** Whether part {@code part} is the last. */
    boolean last(int part) {
        return part >= parts;
    }

    /** Adds what a part covers; returns what the run covers so far. */
    synchronized Coverage cover(Coverage part) {
        suites.addAll(part.suites());
        selectedByUniqueId |= part.selectedByUniqueId();
        filtered |= part.filtered();
        return new Coverage(suites, selectedByUniqueId, filtered);
    }

    /** The run's capability-growth curve, started by the first part that asks. */
    synchronized CompletableFuture<List<CapabilityGrowth.Point>> growth(
            Supplier<CompletableFuture<List<CapabilityGrowth.Point>>> start) {
        if (growth == null) {
            growth = start.get();
        }
        return growth;
    }

    /** Deletes the spools of the run's turns and tests. */
    @Override
    public void close() {
        metrics.close();
        log.close();
    }
}
