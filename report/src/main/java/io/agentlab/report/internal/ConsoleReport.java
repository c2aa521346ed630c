package io.agentlab.report.internal;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.agentlab.kernel.api.InvocationMode;
import io.agentlab.report.RunMetadata;
import io.agentlab.report.TestOutcome;
import io.agentlab.report.metrics.Metric;
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
        report.providerNote().ifPresent(note -> out.append(wrap(note)));
        report.headline().summary().ifPresent(summary -> out.append(wrap("answer: " + summary
                + " (per measure family; the table below and the report say by how much)"
                + Headline.brokenRun(report.tests().brokenCount()).map(line -> " " + line).orElse(""))));
        RunMetadata meta = report.metadata();
        out.append(wrap("run " + Format.instant(meta.startedAt()) + ", kit " + meta.kitVersion() + ", commit "
                + meta.commit().orElse("unknown") + ", " + meta.provider() + " provider, speed "
                + Format.plain(meta.replaySpeed()) + ", " + String.join(" + ", meta.modes())))
                .append(wrap(meta.coverage())).append(wrap("subject: " + meta.subject()));
        meta.notObservableSummary().ifPresent(line -> out.append(wrap(line + " (docs/wire.md#observability)")));
        List<TestOutcome> broken = report.broken();
        for (TestOutcome outcome : broken.subList(0, Math.min(NAMED_FAILURES, broken.size()))) {
            out.append("  ").append(outcome.status().wireName().toUpperCase(Locale.ROOT)).append(' ')
                    .append(outcome.suite().map(s -> s + "/").orElse("")).append(outcome.name()).append('\n');
        }
        long brokenCount = report.tests().brokenCount();
        if (brokenCount > NAMED_FAILURES) {
            out.append("  and ").append(brokenCount - NAMED_FAILURES).append(" more\n");
        }
        if (report.turns().withheldCount() > 0) {
            out.append(wrap(report.turns().withheldCount() + " turn(s) where the provider withheld visible content "
                    + "until after its tool calls (docs/design.md#modes-visible-withheld-recorded); see the report"));
        }
        if (!report.modes().isEmpty()) {
            out.append('\n').append(table(report));
        }
        return out.toString();
    }

    /** "245 tests: 243 passed, 1 failed, 0 aborted, 1 skipped". */
    static String results(RunReport report) {
        return String.format(Locale.ROOT, "Agent Lab conformance: %d tests: %d passed, %d failed, %d aborted, "
                        + "%d skipped", report.tests().size(), report.count(TestOutcome.Status.PASSED),
                report.count(TestOutcome.Status.FAILED), report.count(TestOutcome.Status.ABORTED),
                report.count(TestOutcome.Status.SKIPPED));
    }

    /** The comparison table with its footnotes. */
    public static String table(RunReport report) {
        boolean modelled = report.modelledNote().isPresent();
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"measure [unit]", "dual_agent", "chat_agent_tools", "tools/dual", "verdict"});
        rows.add(new String[] {"turns", turns(report, InvocationMode.DUAL_AGENT),
                turns(report, InvocationMode.CHAT_AGENT_TOOLS), "", ""});
        for (Comparison comparison : report.comparisons()) {
            Metric metric = comparison.metric();
            String unit = " [" + Format.unit(metric) + "]";
            rows.add(new String[] {fit(metric.label(), MEASURE_WIDTH - 2 - unit.length()) + unit
                    + (modelled && metric.isTiming() ? " *" : ""),
                    Format.figure(metric, comparison.dual()), Format.figure(metric, comparison.tools()),
                    Format.ratio(comparison, "x"), brief(comparison.verdict())});
        }
        int[] widths = new int[5];
        for (String[] row : rows) {
            for (int i = 0; i < widths.length; i++) {
                widths[i] = Math.max(widths[i], row[i].length());
            }
        }
        StringBuilder out = new StringBuilder("Mode comparison (the report gives each verdict's test and p-value)\n");
        for (int r = 0; r < rows.size(); r++) {
            String[] row = rows.get(r);
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < row.length; i++) {
                // text columns left, numbers right
                String format = i == 0 || i == 4 ? "%-" + widths[i] + "s" : "%" + widths[i] + "s";
                line.append(String.format(Locale.ROOT, format, row[i])).append("  ");
            }
            out.append(line.toString().stripTrailing()).append('\n');
            if (r == 0) {
                out.append("-".repeat(Arrays.stream(widths).sum() + 2 * (widths.length - 1))).append('\n');
            }
        }
        report.modelledNote().ifPresent(note -> out.append(wrap("* " + note)));
        report.headline().family(Metric.Family.COST).filter(cost -> !cost.figured())
                .ifPresent(cost -> out.append(wrap("cost: no figure; " + Headline.NO_PRICING)));
        out.append(wrap(Comparison.NOISE_RULE));
        return out.toString();
    }

    /** The console's width: every line of the summary fits it; the report holds the details. */
    static final int WIDTH = 100;
    private static final int MEASURE_WIDTH = 40;

    /** The verdict in a word or two: the better mode, or why none. */
    private static String brief(Comparison.Verdict verdict) {
        if (verdict instanceof Comparison.Verdict.Better better) {
            return better.better().wireName();
        }
        if (verdict instanceof Comparison.Verdict.WithinNoise) {
            return "within noise";
        }
        if (verdict instanceof Comparison.Verdict.Same) {
            return "same";
        }
        if (verdict instanceof Comparison.Verdict.None none && none.reason().equals(Comparison.NOT_OBSERVABLE)) {
            return "not observable over the wire"; // not measured, which is not 0 (docs/wire.md#measures)
        }
        return "no verdict";
    }

    private static String fit(String text, int width) {
        return text.length() <= width ? text : text.substring(0, width - 1) + "…";
    }

    /** {@code text} broken at spaces into lines of at most {@link #WIDTH}. */
    static String wrap(String text) {
        StringBuilder out = new StringBuilder();
        StringBuilder line = new StringBuilder();
        for (String word : text.split(" ")) {
            if (line.length() > 0 && line.length() + 1 + word.length() > WIDTH) {
                out.append(line).append('\n');
                line.setLength(0);
            }
            line.append(line.length() == 0 ? "" : " ").append(word);
        }
        return out.append(line).append('\n').toString();
    }

    private static String turns(RunReport report, InvocationMode mode) {
        return report.mode(mode) == null ? "-" : Integer.toString(report.mode(mode).turns());
    }
}
