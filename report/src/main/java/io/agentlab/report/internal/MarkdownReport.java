package io.agentlab.report.internal;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.agentlab.kernel.api.InvocationMode;
import io.agentlab.report.RunMetadata;
import io.agentlab.report.TestLog;
import io.agentlab.report.TestOutcome;
import io.agentlab.report.controls.CapabilityGrowth;
import io.agentlab.report.controls.ControlMatrix;
import io.agentlab.report.metrics.Metric;
import io.agentlab.report.metrics.TurnTimeline;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.util.Map;
import org.apiguardian.api.API;

/**
 * {@code report.md}: the same report as {@code index.html}, in text — results first (broken tests with their full
 * message and their turns' timelines as tables, then every test by suite), turns whose visible content was withheld,
 * the comparison, the control matrix, the capability-growth curve, what moved, and how streams were timed.
 */
@API(status = INTERNAL, since = "0.1")
public final class MarkdownReport {

    private MarkdownReport() {
    }

    /** The document. */
    public static String render(RunReport report) {
        StringWriter out = new StringWriter();
        try {
            render(report, out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString();
    }

    /**
     * Writes the document to {@code writer} as it goes: every test's row is read back from the run's test log one
     * suite at a time and written straight out (docs/performance.md#memory).
     */
    public static void render(RunReport report, Writer writer) throws IOException {
        StringBuilder out = new StringBuilder("# Agent Lab conformance report\n\n");
        out.append("**").append(ConsoleReport.results(report)).append("**\n\n");
        report.providerNote().ifPresent(note -> out.append(note).append("\n\n"));
        Headline headline = report.headline();
        headline.summary(report.tests().brokenCount()).ifPresent(summary -> {
            out.append("## Which mode is better\n\n").append(summary).append("\n\n");
            headline.families().forEach(family -> out.append("- ").append(family.text()).append('\n'));
            out.append('\n');
        });
        RunMetadata meta = report.metadata();
        out.append("| run | |\n| --- | --- |\n")
                .append("| started | ").append(Format.instant(meta.startedAt())).append(" |\n")
                .append("| finished | ").append(Format.instant(meta.finishedAt())).append(" |\n")
                .append("| kit version | ").append(meta.kitVersion()).append(" |\n")
                .append("| commit | ").append(meta.commit().orElse("unknown")).append(" |\n")
                .append("| provider | ").append(meta.provider()).append(" |\n")
                .append("| replay speed | ").append(Format.plain(meta.replaySpeed())).append(" |\n")
                .append("| modes | ").append(String.join(", ", meta.modes())).append(" |\n")
                .append(meta.overTheWire() ? "" : "| kernel under test | `" + meta.kernelFactory() + "` |\n")
                .append("| subject | ").append(meta.subject()).append(" |\n")
                .append(meta.notObservableSummary().map(line -> "| not observable | " + line + " |\n").orElse(""))
                .append("| machine | ").append(meta.machine()).append(" |\n")
                .append("| covered | ").append(meta.coverage()).append(" |\n\n");

        out.append("## Failures\n\n");
        if (report.tests().brokenCount() == 0) {
            out.append("None.\n\n");
        }
        Map<String, Map<Integer, Map<InvocationMode, TurnTimeline>>> byCase = report.timelinesByCase();
        for (TestOutcome outcome : report.broken()) {
            out.append("### ").append(outcome.suite().map(s -> s + "/").orElse("")).append(outcome.name())
                    .append(" — ").append(outcome.status().wireName()).append("\n\n```\n")
                    .append(outcome.message().orElse("(no message)").replace("```", "'''")).append("\n```\n\n");
            outcome.caseId().map(c -> byCase.get(RunReport.caseKey(outcome.suite().orElseThrow(), c)))
                    .ifPresent(turns -> turns.forEach((turn, modes) -> out.append(timelineTable(turn, modes))));
        }
        long unlisted = report.tests().brokenCount() - report.broken().size();
        if (unlisted > 0) {
            out.append("And ").append(unlisted).append(" more failed or aborted tests: the results below show each, ")
                    .append("and results.json lists them all with their messages.\n\n");
        }
        if (report.tests().brokenCount() > 0 && !report.turns().all()) {
            // the same turns index.html draws: a failed case beyond that bound has its message here, not its turns
            out.append("Turn tables are given for the failed cases among the ").append(report.turns().drawnFigures())
                    .append(" turns the report draws; every turn's record is in metrics.json, under turns.\n\n");
        }

        out.append("## Results by suite\n\n");
        writer.append(out);
        out.setLength(0);
        for (TestLog.Suite group : report.tests().suites()) {
            long broken = group.broken();
            StringBuilder rows = new StringBuilder("### ").append(group.name()).append(" (")
                    .append(broken == 0 ? "all " + group.tests() + " passed or skipped" : broken + " of "
                            + group.tests() + " broken").append(")\n\n")
                    .append("| status | test | mode | duration (ms) | tags | message |\n")
                    .append("| --- | --- | --- | --- | --- | --- |\n");
            IOException[] failed = {null};
            report.tests().forEach(group.name(), test -> {
                rows.append("| ").append(test.status().wireName()).append(" | ").append(cell(test.name()))
                        .append(" | ").append(test.mode()).append(" | ").append(Format.ms(test.durationMs()))
                        .append(" | ").append(String.join(", ", test.tags())).append(" | ")
                        .append(cell(test.message().map(MarkdownReport::firstLine).orElse(""))).append(" |\n");
                if (rows.length() > 1 << 16 && failed[0] == null) {
                    try {
                        writer.append(rows);
                    } catch (IOException e) {
                        failed[0] = e;
                    }
                    rows.setLength(0);
                }
            });
            if (failed[0] != null) {
                throw failed[0];
            }
            writer.append(rows).append('\n');
        }

        out.append("## Visible content withheld until after tool calls\n\n")
                .append("Turns where the provider streamed its tool calls before any visible content ")
                .append("(docs/design.md#modes-visible-withheld-recorded): each is a direct-mode consistency ")
                .append("failure of the provider, listed here rather than hidden in a rate.\n\n");
        if (report.withheld().isEmpty()) {
            out.append("None.\n\n");
        }
        for (TurnTimeline turn : report.withheld()) {
            out.append("- ").append(RunReport.caseKey(turn.suiteId(), turn.caseId())).append(" turn ")
                    .append(turn.turnIndex() + 1).append(" (").append(turn.mode().wireName()).append("): first ")
                    .append("visible character at ").append(turn.firstVisibleMs().map(Format::ms).orElse("never"))
                    .append(" ms, ").append(turn.timing().wireName()).append('\n');
        }
        long unlistedTurns = report.turns().withheldCount() - report.withheld().size();
        if (unlistedTurns > 0) {
            out.append("- and ").append(unlistedTurns).append(" more; metrics.json marks each ")
                    .append("(visibleWithheldUntilToolCalls)\n");
        }

        out.append("\n## Mode comparison\n\n");
        report.modelledNote().ifPresent(note -> out.append("Rows marked * are timings: ").append(note)
                .append(".\n\n"));
        out.append("| measure | unit | better | dual_agent | chat_agent_tools | tools / dual | verdict |\n")
                .append("| --- | --- | --- | --- | --- | --- | --- |\n");
        boolean modelled = report.modelledNote().isPresent();
        for (Comparison comparison : report.comparisons()) {
            Metric metric = comparison.metric();
            out.append("| ").append(metric.label()).append(modelled && metric.isTiming() ? " *" : "").append(" | ")
                    .append(Format.unit(metric)).append(" | ").append(metric.better().word()).append(" | ")
                    .append(Format.figure(metric, comparison.dual())).append(" | ")
                    .append(Format.figure(metric, comparison.tools())).append(" | ")
                    .append(Format.ratio(comparison, "×")).append(" | ").append(comparison.verdict().text())
                    .append(" |\n");
        }
        out.append('\n').append(Comparison.NOISE_RULE).append("\n\n");

        out.append("## All events disabled vs all enabled\n\n")
                .append("The same small-talk turns with every event disabled and every offered event enabled ")
                .append("(docs/design.md#metrics-control-matrix); their timings are the latency model's.\n\n")
                .append("| mode | enabled events | turns | first-visible TTFT p50 (ms, modelled) | p95 (ms, modelled) ")
                .append("| prompt tokens per turn |\n| --- | --- | --- | --- | --- | --- |\n");
        for (ControlMatrix.Cell cell : report.matrix()) {
            out.append("| ").append(cell.mode().wireName()).append(" | ").append(cell.events()).append(" | ")
                    .append(cell.turns()).append(" | ").append(number(cell.firstVisibleTtftMs().p50())).append(" | ")
                    .append(number(cell.firstVisibleTtftMs().p95())).append(" | ")
                    .append(String.format(java.util.Locale.ROOT, "%.1f", cell.promptTokensPerTurn())).append(" |\n");
        }
        out.append("\n## Capability growth: ChatAgent prompt tokens by enabled events\n\n")
                .append("| enabled events | dual_agent (tokens) | chat_agent_tools (tokens) | tools / dual |\n")
                .append("| --- | --- | --- | --- |\n");
        for (CapabilityGrowth.Point point : report.growth()) {
            if (point.events() <= 10 || point.events() % 10 == 0) {
                out.append("| ").append(point.events()).append(" | ").append(point.dualAgent()).append(" | ")
                        .append(point.chatAgentTools()).append(" | ").append(point.dualAgent() == 0 ? ""
                                : String.format(java.util.Locale.ROOT, "%.2f×",
                                (double) point.chatAgentTools() / point.dualAgent())).append(" |\n");
            }
        }
        out.append("\n## What moved\n\n");
        if (report.history().isEmpty()) {
            out.append("Nothing to compare with: set `agentlab.baseline.file`, or `agentlab.report.previous` to a ")
                    .append("previous run's metrics.json.\n");
        }
        for (History history : report.history()) {
            out.append("Against ").append(history.source()).append(":\n\n");
            if (history.problem().isPresent()) {
                out.append("not compared: ").append(history.problem().get()).append("\n\n");
                continue;
            }
            if (history.changed().isEmpty()) {
                out.append("nothing moved (").append(history.moves().size()).append(" figures compared).\n\n");
                continue;
            }
            out.append("| mode | measure | before | now | change | |\n| --- | --- | --- | --- | --- | --- |\n");
            for (History.Move move : history.changed()) {
                out.append("| ").append(move.mode()).append(" | ").append(move.metric().label()).append(" | ")
                        .append(Format.value(move.metric(), move.before())).append(" | ")
                        .append(Format.value(move.metric(), move.after())).append(" | ").append(change(move))
                        .append(" | ").append(move.describe()).append(" |\n");
            }
            out.append('\n');
        }
        out.append("\n## Timing\n\n");
        report.modelledNote().ifPresent(note -> out.append("In this run, ").append(note).append(".\n\n"));
        report.timing().forEach((suite, how) -> out.append("- `").append(suite).append("`: ").append(how).append('\n'));
        writer.append(out);
    }

    /** One turn of a case as a table: a row per mode with its timeline's moments. */
    private static String timelineTable(int turn, Map<InvocationMode, TurnTimeline> modes) {
        StringBuilder out = new StringBuilder();
        TurnTimeline any = modes.values().iterator().next();
        out.append("Turn ").append(turn + 1).append(": \"").append(cell(any.userText()))
                .append("\" (ms from the turn's start)\n\n")
                .append("| mode | timing | first visible | first answer end | events (dispatched → ran → finished) ")
                .append("| follow-up first / end | model calls (start → end, tokens in → out) |\n")
                .append("| --- | --- | --- | --- | --- | --- | --- |\n");
        for (TurnTimeline t : modes.values()) {
            StringBuilder events = new StringBuilder();
            for (TurnTimeline.Event event : t.events()) {
                events.append(events.isEmpty() ? "" : "; ").append(event.name()).append(' ').append(event.status())
                        .append(' ').append(Format.ms(event.dispatchedMs())).append(" → ")
                        .append(event.startedMs().map(Format::ms).orElse("-")).append(" → ")
                        .append(Format.ms(event.finishedMs()));
            }
            StringBuilder calls = new StringBuilder();
            for (TurnTimeline.Call call : t.calls()) {
                calls.append(calls.isEmpty() ? "" : "; ").append(call.role().wireName()).append(' ')
                        .append(Format.ms(call.startMs())).append(" → ").append(Format.ms(call.endMs())).append(", ")
                        .append(call.tokens(" → "))
                        .append(call.error().map(e -> " " + e).orElse(""));
            }
            out.append("| ").append(t.mode().wireName()).append(" | ").append(t.timing().wireName()).append(" | ")
                    .append(t.firstVisibleMs().map(Format::ms).orElse("never")).append(" | ")
                    .append(Format.ms(t.firstAnswerEndMs())).append(" | ").append(events.isEmpty() ? "none" : events)
                    .append(" | ").append(t.followUpFirstMs().map(Format::ms).orElse("-")).append(" / ")
                    .append(t.followUpEndMs().map(Format::ms).orElse("-")).append(" | ").append(calls).append(" |\n");
        }
        return out.append('\n').toString();
    }

    static String change(History.Move move) {
        double change = move.relativeChange();
        return Double.isInfinite(change) ? "from 0" : String.format(java.util.Locale.ROOT, "%+.1f%%", change * 100);
    }

    private static String number(Double value) {
        return value == null ? "-" : Format.ms(value);
    }

    private static String firstLine(String text) {
        int end = text.indexOf('\n');
        return end < 0 ? text : text.substring(0, end) + " …";
    }

    private static String cell(String text) {
        return text.replace("|", "\\|").replace("\n", " ");
    }
}
