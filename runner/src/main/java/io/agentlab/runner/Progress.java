package io.agentlab.runner;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.io.PrintWriter;
import java.util.Locale;
import java.util.Optional;
import java.util.function.LongSupplier;
import org.apiguardian.api.API;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;

/**
 * What a run prints while it goes. On a terminal, one line rewritten in place: a counter, the elapsed time, once a few
 * tests have finished an estimate of the time left, and the last test ({@code [ 12/162] 0:07 ~1:27 left ok
 * set-to-thirty [dual_agent]}), with each failure kept on its own line. Anywhere else (CI logs, pipes, the Maven
 * goal), one plain line per test ({@code   ok    set-to-thirty [dual_agent]}) and, in a run of
 * {@value #QUARTERS_FROM} tests or more, a line at each quarter with the same estimate (docs/cli.md#progress).
 */
@API(status = INTERNAL, since = "0.1")
public final class Progress implements TestExecutionListener {

    private static final String CLEAR_LINE = "\r\u001B[K";
    /** The fewest tests finished before the time left is estimated: one slow first test says little. */
    static final int ESTIMATE_AFTER = 3;
    /** The smallest run whose plain output gets a line at each quarter. */
    static final int QUARTERS_FROM = 40;

    private final PrintWriter out;
    private final boolean terminal;
    private final LongSupplier nanoTime;
    private long started;
    private long total;
    private long done;
    private long firstDoneAt;
    private int quartersShown;
    private boolean pending;
    private boolean inParts;

    /**
     * A progress printer.
     *
     * @param out      where it prints
     * @param terminal whether {@code out} is a terminal (counter in place) or not (plain lines)
     * @param nanoTime the clock of the elapsed time
     */
    public Progress(PrintWriter out, boolean terminal, LongSupplier nanoTime) {
        this.out = out;
        this.terminal = terminal;
        this.nanoTime = nanoTime;
    }

    @Override
    public void testPlanExecutionStarted(TestPlan testPlan) {
        if (!inParts) {
            started(testPlan.countTestIdentifiers(TestIdentifier::isTest));
        }
    }

    /** The run starts with {@code tests} tests to go. */
    synchronized void started(long tests) {
        started = nanoTime.getAsLong();
        total = tests;
    }

    /**
     * A run in parts starts with {@code tests} tests to go in all its executions: one counter and one clock across
     * them, the parts' own plans not restarting either (docs/engine.md#runs-in-parts); {@link #finished()} ends it.
     */
    synchronized void startedInParts(long tests) {
        inParts = true;
        started(tests);
    }

    /** A run in parts has ended: the counter's line is closed. */
    synchronized void finished() {
        if (pending) {
            out.println();
            pending = false;
        }
        out.flush();
    }

    /**
     * The time left if the rest goes at the pace since the first test finished: {@code ~1:27 left}; empty before
     * {@link #ESTIMATE_AFTER} tests have finished or once all have. The first test is left out of the pace: it carries
     * the run's start-up (the JVM warming up, the replay server starting), which the rest do not repeat. It assumes an
     * even pace; suites differ in pace, so early estimates can be far off and tighten as the run goes (measured on the
     * main job in docs/cli.md#progress).
     *
     * @param sinceFirstNanos the time from the first test's end to now
     */
    static Optional<String> timeLeft(long sinceFirstNanos, long done, long total) {
        if (done < ESTIMATE_AFTER || done >= total) {
            return Optional.empty();
        }
        long seconds = Math.round(sinceFirstNanos / 1e9 / (done - 1) * (total - done));
        return Optional.of("~" + clock(seconds) + " left");
    }

    private static String clock(long seconds) {
        return String.format(Locale.ROOT, "%d:%02d", seconds / 60, seconds % 60);
    }

    @Override
    public synchronized void executionSkipped(TestIdentifier test, String reason) {
        if (test.isTest()) {
            counted();
        }
        line("skip", test.getDisplayName() + ": " + reason, true);
    }

    @Override
    public synchronized void executionFinished(TestIdentifier test, TestExecutionResult result) {
        if (!test.isTest() && result.getStatus() == TestExecutionResult.Status.SUCCESSFUL) {
            return;
        }
        if (test.isTest()) {
            counted();
        }
        boolean ok = result.getStatus() == TestExecutionResult.Status.SUCCESSFUL;
        String status = ok ? "ok" : result.getStatus() == TestExecutionResult.Status.ABORTED ? "ABORT" : "FAIL";
        line(status, test.getDisplayName(), !ok);
    }

    @Override
    public synchronized void testPlanExecutionFinished(TestPlan testPlan) {
        if (inParts) {
            out.flush(); // the next part goes on in the same line
        } else {
            finished();
        }
    }

    /** One more test finished; the first one's end starts the pace's clock ({@link #timeLeft}). */
    private void counted() {
        if (++done == 1) {
            firstDoneAt = nanoTime.getAsLong();
        }
    }

    private void line(String status, String name, boolean keep) {
        long now = nanoTime.getAsLong();
        long elapsed = now - started;
        Optional<String> left = timeLeft(now - firstDoneAt, done, total);
        if (!terminal) {
            out.printf(Locale.ROOT, "  %-5s %s%n", status, name);
            int quarters = total >= QUARTERS_FROM ? (int) (4 * done / total) : 0;
            if (quarters > quartersShown && quarters < 4) {
                quartersShown = quarters;
                out.printf(Locale.ROOT, "  ...   %d of %d tests in %s%s%n", done, total,
                        clock(elapsed / 1_000_000_000L), left.map(text -> ", " + text).orElse(""));
            }
            out.flush();
            return;
        }
        String counter = String.format(Locale.ROOT, "[%" + String.valueOf(total).length() + "d/%d] %s", done,
                total, clock(elapsed / 1_000_000_000L)) + left.map(text -> " " + text).orElse("");
        if (keep) {
            out.print(CLEAR_LINE + counter + " " + status + " " + name + "\n");
            pending = false;
        } else {
            out.print(CLEAR_LINE + counter + " " + status + " " + name);
            pending = true;
        }
        out.flush();
    }
}
