package io.agentlab.runner;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.io.PrintWriter;
import java.util.Locale;
import java.util.function.LongSupplier;
import org.apiguardian.api.API;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;

/**
 * What a run prints while it goes. On a terminal, one line rewritten in place: a counter, the elapsed time and the
 * last test ({@code [ 12/162] 0:07 ok set-to-thirty [dual_agent]}), with each failure kept on its own line. Anywhere
 * else (CI logs, pipes, the Maven goal), one plain line per test: {@code   ok    set-to-thirty [dual_agent]}.
 */
@API(status = INTERNAL, since = "0.1")
public final class Progress implements TestExecutionListener {

    private static final String CLEAR_LINE = "\r\u001B[K";

    private final PrintWriter out;
    private final boolean terminal;
    private final LongSupplier nanoTime;
    private long started;
    private long total;
    private long done;
    private boolean pending;

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
        started = nanoTime.getAsLong();
        total = testPlan.countTestIdentifiers(TestIdentifier::isTest);
    }

    @Override
    public synchronized void executionSkipped(TestIdentifier test, String reason) {
        if (test.isTest()) {
            done++;
        }
        line("skip", test.getDisplayName() + ": " + reason, true);
    }

    @Override
    public synchronized void executionFinished(TestIdentifier test, TestExecutionResult result) {
        if (!test.isTest() && result.getStatus() == TestExecutionResult.Status.SUCCESSFUL) {
            return;
        }
        if (test.isTest()) {
            done++;
        }
        boolean ok = result.getStatus() == TestExecutionResult.Status.SUCCESSFUL;
        String status = ok ? "ok" : result.getStatus() == TestExecutionResult.Status.ABORTED ? "ABORT" : "FAIL";
        line(status, test.getDisplayName(), !ok);
    }

    @Override
    public synchronized void testPlanExecutionFinished(TestPlan testPlan) {
        if (pending) {
            out.println();
            pending = false;
        }
        out.flush();
    }

    private void line(String status, String name, boolean keep) {
        if (!terminal) {
            out.printf(Locale.ROOT, "  %-5s %s%n", status, name);
            out.flush();
            return;
        }
        long seconds = (nanoTime.getAsLong() - started) / 1_000_000_000L;
        String counter = String.format(Locale.ROOT, "[%" + String.valueOf(total).length() + "d/%d] %d:%02d", done,
                total, seconds / 60, seconds % 60);
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
