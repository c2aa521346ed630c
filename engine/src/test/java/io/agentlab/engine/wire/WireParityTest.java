package io.agentlab.engine.wire;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentlab.engine.wire.ShippedSuites.Status;
import io.agentlab.engine.wire.ShippedSuites.Verdict;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Proof 1 of issue 31 (docs/wire.md#parity): every shipped suite, in-process and over the wire against the reference
 * runtime service (started by command, as an operator would), gets the same verdict per case and mode. Writes the
 * parity table to {@code target/wire-parity/parity.md}; fails naming the rows that differ.
 */
@WireProof
class WireParityTest {

    /** Where the table and both runs' reports go. */
    static final Path OUT = Path.of("target/wire-parity");

    /** How a row compares. */
    enum Parity {
        /** The same verdict. */
        EQUAL("yes"),
        /** Passed in-process; over the wire nothing it expects is observable, so it is skipped with that reason. */
        NOT_OBSERVABLE("n/o: not observable over the wire"),
        /** Anything else: a parity failure. */
        DIFFERENT("**NO**");

        final String label;

        Parity(String label) {
            this.label = label;
        }
    }

    /**
     * How {@code local} and {@code wire} compare: equal verdicts are equal; a test that passed in-process and is
     * skipped over the wire because the wire shows nothing it expects is counted apart, not a difference; a test
     * missing on one side, or any other pair, differs.
     */
    static Parity compare(Verdict local, Verdict wire) {
        if (local == null || wire == null) {
            return Parity.DIFFERENT;
        }
        if (local.status() == wire.status()) {
            return Parity.EQUAL;
        }
        if (local.status() == Status.PASSED && wire.status() == Status.NOT_OBSERVABLE) {
            return Parity.NOT_OBSERVABLE;
        }
        return Parity.DIFFERENT;
    }

    @Test
    @DisplayName("every shipped suite over the wire against the reference service: the in-process verdict per case "
            + "and mode (red: a verdict that differs)")
    void everyShippedSuiteHasTheInProcessVerdictOverTheWire() throws IOException {
        Map<String, Verdict> local = ShippedSuites.run(OUT.resolve("in-process").toAbsolutePath(), Optional.empty(),
                Map.of());
        Map<String, Verdict> wire = ShippedSuites.run(OUT.resolve("wire").toAbsolutePath(),
                Optional.of(OverTheWireTest.serviceCommand()), Map.of());
        assertThat(local).as("the shipped suites' tests in-process").hasSizeGreaterThan(100);

        TreeSet<String> keys = new TreeSet<>(local.keySet());
        keys.addAll(wire.keySet());
        List<String> rows = new ArrayList<>();
        List<String> differing = new ArrayList<>();
        int equal = 0;
        int notObservable = 0;
        int partly = 0;
        List<Verdict> ordered = keys.stream().map(key -> local.getOrDefault(key, wire.get(key)))
                .sorted(ShippedSuites.order()).toList();
        for (Verdict any : ordered) {
            Verdict in = local.get(any.key());
            Verdict out = wire.get(any.key());
            Parity parity = compare(in, out);
            switch (parity) {
                case EQUAL -> equal++;
                case NOT_OBSERVABLE -> notObservable++;
                case DIFFERENT -> differing.add(any.key() + ": in-process " + label(in) + ", wire " + label(out)
                        + (out != null && !out.detail().isBlank() ? " (" + ShippedSuites.brief(out.detail()) + ")"
                        : in != null && !in.detail().isBlank() ? " (in-process: " + ShippedSuites.brief(in.detail())
                        + ")" : ""));
            }
            if (out != null && out.notObservableParts() > 0) {
                partly++;
            }
            rows.add("| " + any.suite() + " | " + any.caseId() + " | " + any.mode() + " | " + label(in) + " | "
                    + label(out) + (out != null && out.notObservableParts() > 0 ? " (" + out.notObservableParts()
                    + " part(s) not observable)" : "") + " | " + parity.label + " |");
        }
        StringBuilder table = new StringBuilder("# Wire parity: the shipped suites in-process and over the wire\n\n")
                .append("Against the reference runtime service (`runtime-service`), replay speed 0; written by ")
                .append("`WireParityTest` (docs/wire.md#parity).\n\n")
                .append(String.format(Locale.ROOT, "%d tests: %d equal, %d not observable over the wire (passed "
                                + "in-process, skipped over the wire), %d different; %d wire tests judged with some "
                                + "part not observable.%n%n", keys.size(), equal, notObservable, differing.size(),
                        partly))
                .append("| suite | case | mode | in-process | wire | equal? |\n| --- | --- | --- | --- | --- | --- |\n");
        rows.forEach(row -> table.append(row).append('\n'));
        if (!differing.isEmpty()) {
            table.append("\n## Differing rows\n\n");
            differing.forEach(row -> table.append("- ").append(ShippedSuites.cell(row)).append('\n'));
        }
        Files.createDirectories(OUT);
        Files.writeString(OUT.resolve("parity.md"), table);
        System.out.printf(Locale.ROOT, "wire parity: %d tests, %d equal, %d not observable, %d different; table in "
                + "%s%n", keys.size(), equal, notObservable, differing.size(), OUT.resolve("parity.md").toAbsolutePath());

        assertThat(differing).as("rows whose verdict over the wire differs from in-process (table: %s)",
                OUT.resolve("parity.md").toAbsolutePath()).isEmpty();
        assertThat(equal).as("tests with the same verdict").isGreaterThan(notObservable);
    }

    private static String label(Verdict verdict) {
        return verdict == null ? "(missing)" : verdict.status().label;
    }
}
