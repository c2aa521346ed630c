package io.agentlab.report.internal;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.agentlab.kernel.api.InvocationMode;
import io.agentlab.report.RunMetadata;
import io.agentlab.report.TestOutcome;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.apiguardian.api.API;

/**
 * The end-of-run text on the console: a results line, the broken tests by name, and the mode comparison with units,
 * the better direction, the ratio and a verdict per measure; timing rows carry {@code *} when the latency model timed
 * any of their turns, and the footnote says how many.
 */
@API(status = INTERNAL, since = "0.1")
public final class ConsoleReport {

    /** How many broken tests are named before "and N more". */
    static final int NAMED_FAILURES = 10;

    private ConsoleReport() {
    }

    /** The text, ending with a line break. */
    public static String render(RunReport report) {
        StringBuilder out = new StringBuilder();
        out.append(results(report)).append('\n');
        report.headline().summary().ifPresent(summary -> out.append("answer: ").append(summary)
                .append(" (per measure family; the table below and the report say by how much)\n"));
        RunMetadata meta = report.metadata();
        out.append("run ").append(Format.instant(meta.startedAt())).append(", kit ").append(meta.kitVersion()).append(", commit ")
                .append(meta.commit().orElse("unknown")).append(", ").append(meta.provider()).append(" provider, speed ")
                .append(Format.plain(meta.replaySpeed())).append(", ").append(String.join(" + ", meta.modes()))
                .append('\n').append(meta.coverage()).append('\n');
        List<TestOutcome> broken = report.broken();
        for (TestOutcome outcome : broken.subList(0, Math.min(NAMED_FAILURES, broken.size()))) {
            out.append("  ").append(outcome.status().wireName().toUpperCase(Locale.ROOT)).append(' ')
                    .append(outcome.suite().map(s -> s + "/").orElse("")).append(outcome.name()).append('\n');
        }
        if (broken.size() > NAMED_FAILURES) {
            out.append("  and ").append(broken.size() - NAMED_FAILURES).append(" more\n");
        }
        if (!report.withheld().isEmpty()) {
            out.append(report.withheld().size()).append(" turn(s) where the provider withheld visible content until ")
                    .append("after its tool calls (docs/design.md#modes-visible-withheld-recorded); see the report\n");
        }
        if (!report.modes().isEmpty()) {
            out.append('\n').append(table(report));
        }
        return out.toString();
    }

    /** "245 tests: 243 passed, 1 failed, 0 aborted, 1 skipped". */
    static String results(RunReport report) {
        return String.format(Locale.ROOT, "Agent Lab conformance: %d tests: %d passed, %d failed, %d aborted, "
                        + "%d skipped", report.outcomes().size(), report.count(TestOutcome.Status.PASSED),
                report.count(TestOutcome.Status.FAILED), report.count(TestOutcome.Status.ABORTED),
                report.count(TestOutcome.Status.SKIPPED));
    }

    /** The comparison table with its footnotes. */
    public static String table(RunReport report) {
        boolean modelled = report.modelledNote().isPresent();
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"measure", "unit", "better", "dual_agent", "chat_agent_tools", "tools/dual", "verdict"});
        rows.add(new String[] {"turns", "", "", turns(report, InvocationMode.DUAL_AGENT), turns(report, InvocationMode.CHAT_AGENT_TOOLS), "", ""});
        for (Comparison comparison : report.comparisons()) {
            rows.add(new String[] {comparison.metric().label() + (modelled && comparison.metric().isTiming() ? " *"
                    : ""), Format.unit(comparison.metric()), comparison.metric().better().word(),
                    Format.figure(comparison.metric(), comparison.dual()),
                    Format.figure(comparison.metric(), comparison.tools()), Format.ratio(comparison, "x"),
                    comparison.verdict().text()});
        }
        int[] widths = new int[7];
        for (String[] row : rows) {
            for (int i = 0; i < widths.length; i++) {
                widths[i] = Math.max(widths[i], row[i].length());
            }
        }
        StringBuilder out = new StringBuilder("Mode comparison\n");
        for (int r = 0; r < rows.size(); r++) {
            String[] row = rows.get(r);
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < row.length; i++) {
                // text columns left, numbers right
                String format = i <= 2 || i == 6 ? "%-" + widths[i] + "s" : "%" + widths[i] + "s";
                line.append(String.format(Locale.ROOT, format, row[i])).append("  ");
            }
            out.append(line.toString().stripTrailing()).append('\n');
            if (r == 0) {
                out.append("-".repeat(Arrays.stream(widths).sum() + 2 * (widths.length - 1))).append('\n');
            }
        }
        report.modelledNote().ifPresent(note -> out.append("* ").append(note).append('\n'));
        out.append(Comparison.NOISE_RULE).append('\n');
        return out.toString();
    }

    private static String turns(RunReport report, InvocationMode mode) {
        return report.mode(mode) == null ? "-" : Integer.toString(report.mode(mode).turns());
    }
}
