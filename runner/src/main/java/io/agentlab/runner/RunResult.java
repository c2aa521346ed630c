package io.agentlab.runner;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.agentlab.report.TestOutcome;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apiguardian.api.API;

/**
 * How a run ended: its {@code results.json} content, where the reports are, and the notes the runner has for the user
 * (gates deferred to the merge, nothing left to rerun).
 *
 * @param results         every test's outcome
 * @param reportDirectory the report folder
 * @param notes           lines to show before the summary
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record RunResult(RunResults results, Path reportDirectory, List<String> notes) {

    /** Copies. */
    public RunResult {
        notes = List.copyOf(notes);
    }

    /** Whether nothing ran because nothing needed to ({@code --rerun-failed} after a green run). */
    public boolean nothingToDo() {
        return results.tests().isEmpty() && !notes.isEmpty();
    }

    /**
     * 0 when every test passed and at least one case ran; 1 when a test or gate failed, or no case executed (all
     * skipped): a gate that runs nothing must not pass.
     */
    public int exitCode() {
        if (nothingToDo()) {
            return 0;
        }
        return results.broken().isEmpty() && results.executedCaseTests() > 0 ? 0 : 1;
    }

    /**
     * Prints every failure, the notes and the summary line. Each broken test is named; a message is printed in full
     * the first time only, and a later test that failed with the same message points at the first one: a cause every
     * case shares (a runtime that never became ready, a provider that is down) reads once, not once per test.
     */
    public void print(PrintWriter out) {
        Map<String, String> firstWith = new HashMap<>();
        for (TestOutcome broken : results.broken()) {
            String named = broken.suite().map(suite -> suite + "/").orElse("") + broken.name();
            String first = broken.message().map(message -> firstWith.putIfAbsent(message, named)).orElse(null);
            out.println("\n" + (broken.status() == TestOutcome.Status.ABORTED ? "ABORTED " : "FAILED ") + broken.name()
                    + "\n" + (first == null ? broken.message().orElse("(no message)")
                    : "(the same message as " + first + ", above)"));
        }
        if (!results.broken().isEmpty()) {
            out.println();
        }
        notes.forEach(out::println);
        if (!nothingToDo() && results.executedCaseTests() == 0) {
            out.println("no case executed (" + results.count(TestOutcome.Status.SKIPPED) + " skipped): a run that "
                    + "checks nothing fails");
        }
        out.printf(Locale.ROOT, "%d tests: %d passed, %d failed, %d skipped; report in %s%n", results.tests().size(),
                results.count(TestOutcome.Status.PASSED), results.broken().size(),
                results.count(TestOutcome.Status.SKIPPED), reportDirectory.toAbsolutePath());
        out.flush();
    }
}
