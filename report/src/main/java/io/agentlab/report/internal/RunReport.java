package io.agentlab.report.internal;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.agentlab.kernel.api.InvocationMode;
import io.agentlab.report.RunMetadata;
import io.agentlab.report.TestOutcome;
import io.agentlab.report.controls.CapabilityGrowth;
import io.agentlab.report.controls.ControlMatrix;
import io.agentlab.report.metrics.ModeMetrics;
import io.agentlab.report.metrics.TurnRecord;
import io.agentlab.report.metrics.TurnTimeline;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.apiguardian.api.API;

/**
 * Everything the end-of-run reports show, results first: how the run was made, every test's outcome, each case's turn
 * timelines in both modes, the per-mode measures and their comparison, the all-disabled/all-enabled control, the
 * capability-growth curve, what moved against a baseline or a previous run, and how the streams were timed. The
 * console table ({@link ConsoleReport}), {@code report.md} ({@link MarkdownReport}) and {@code index.html}
 * ({@link HtmlReport}) render this one value.
 *
 * @param metadata  how the run was made
 * @param outcomes  every test's outcome
 * @param modes     the per-mode measures, dual_agent first
 * @param timelines every turn's timeline, by suite, case, turn and mode
 * @param matrix    the control cells (empty when not run)
 * @param growth    the capability-growth curve
 * @param timing    per suite, how its streams were timed
 * @param history   comparisons with a baseline or a previous run, when there was one
 */
@API(status = INTERNAL, since = "0.1")
public record RunReport(RunMetadata metadata, List<TestOutcome> outcomes, List<ModeMetrics> modes,
                        List<TurnTimeline> timelines, List<ControlMatrix.Cell> matrix,
                        List<CapabilityGrowth.Point> growth, Map<String, String> timing, List<History> history) {

    /** Copies the collections; outcomes failures first, then by suite and name; timelines in reading order. */
    public RunReport {
        outcomes = outcomes.stream().sorted(Comparator.comparing(TestOutcome::status)
                .thenComparing(o -> o.suite().orElse("~")).thenComparing(TestOutcome::id)).toList();
        modes = List.copyOf(modes);
        timelines = timelines.stream().sorted(Comparator.comparing(TurnTimeline::suiteId)
                .thenComparing(TurnTimeline::caseId).thenComparingInt(TurnTimeline::turnIndex)
                .thenComparing(TurnTimeline::mode)).toList();
        matrix = List.copyOf(matrix);
        growth = List.copyOf(growth);
        timing = new TreeMap<>(timing);
        history = List.copyOf(history);
    }

    /** The measures of {@code mode}, if it ran. */
    public ModeMetrics mode(InvocationMode mode) {
        return modes.stream().filter(m -> m.mode() == mode).findFirst().orElse(null);
    }

    /** Every shown measure side by side, with its verdict (none on timings a latency model made). */
    public List<Comparison> comparisons() {
        return Comparison.of(mode(InvocationMode.DUAL_AGENT), mode(InvocationMode.CHAT_AGENT_TOOLS),
                timingCounts().getOrDefault(TurnRecord.Timing.MODELLED, 0L) > 0);
    }

    /** The answer the reports open with: per family of measures, which mode is better (docs/engine.md#headline). */
    public Headline headline() {
        return Headline.of(comparisons(), timingCounts().getOrDefault(TurnRecord.Timing.MODELLED, 0L) > 0);
    }

    /** How many tests ended with {@code status}. */
    public long count(TestOutcome.Status status) {
        return outcomes.stream().filter(o -> o.status() == status).count();
    }

    /** The failed and aborted tests. */
    public List<TestOutcome> broken() {
        return outcomes.stream().filter(TestOutcome::broken).toList();
    }

    /** The suites in report order: those with a broken test first, then by id; gates last. */
    public List<String> suites() {
        Map<String, Boolean> suites = new LinkedHashMap<>();
        for (TestOutcome outcome : outcomes) {
            String suite = outcome.suite().orElse(GATES);
            suites.merge(suite, outcome.broken(), Boolean::logicalOr);
        }
        return suites.entrySet().stream().sorted(Comparator.comparing((Map.Entry<String, Boolean> e) -> !e.getValue())
                .thenComparing(e -> e.getKey().equals(GATES)).thenComparing(Map.Entry::getKey))
                .map(Map.Entry::getKey).toList();
    }

    /** The group name of outcomes that belong to no suite (the gates). */
    public static final String GATES = "gates";

    /** Each case's turns, each turn's timelines by mode, in reading order (cases with a broken test first). */
    public Map<String, Map<Integer, Map<InvocationMode, TurnTimeline>>> timelinesByCase() {
        Map<String, Map<Integer, Map<InvocationMode, TurnTimeline>>> byCase = new LinkedHashMap<>();
        List<String> brokenCases = broken().stream().filter(o -> o.caseId().isPresent())
                .map(o -> caseKey(o.suite().orElseThrow(), o.caseId().get())).distinct().toList();
        List<TurnTimeline> ordered = timelines.stream().sorted(Comparator.comparing(
                (TurnTimeline t) -> !brokenCases.contains(caseKey(t.suiteId(), t.caseId())))).toList();
        for (TurnTimeline timeline : ordered) {
            byCase.computeIfAbsent(caseKey(timeline.suiteId(), timeline.caseId()), key -> new LinkedHashMap<>())
                    .computeIfAbsent(timeline.turnIndex(), turn -> new EnumMap<>(InvocationMode.class))
                    .put(timeline.mode(), timeline);
        }
        return byCase;
    }

    /** Turns whose provider withheld visible content until after its tool calls. */
    public List<TurnTimeline> withheld() {
        return timelines.stream().filter(TurnTimeline::visibleWithheld).toList();
    }

    /** Turns by how their streams were timed. */
    public Map<TurnRecord.Timing, Long> timingCounts() {
        Map<TurnRecord.Timing, Long> counts = new EnumMap<>(TurnRecord.Timing.class);
        timelines.forEach(t -> counts.merge(t.timing(), 1L, Long::sum));
        return counts;
    }

    /**
     * The sentence every report puts beside its timings: which share of the turns the latency model timed, so a
     * modelled figure is never read as a measurement; at replay speed 0, that no modelled or recorded latency was
     * waited for, so those timings are the kit's own (the console's footnote, docs/cli.md#commands).
     */
    public Optional<String> modelledNote() {
        Map<TurnRecord.Timing, Long> counts = timingCounts();
        long modelled = counts.getOrDefault(TurnRecord.Timing.MODELLED, 0L);
        long recorded = counts.getOrDefault(TurnRecord.Timing.RECORDED, 0L);
        if (modelled == 0) {
            return Optional.empty(); // the reports mark timings "model" exactly when this note exists
        }
        if (metadata.replaySpeed() == 0) {
            // nothing was waited for: the model timed nothing, the kit alone did
            return Optional.of("timings of " + (modelled + recorded) + " of " + timelines.size() + " turns are the "
                    + "kit's own time alone: at replay speed 0 no modelled or recorded provider latency is waited for");
        }
        return Optional.of("timings of " + modelled + " of " + timelines.size() + " turns come from the latency "
                + "model of synthesized streams, not a measurement" + (recorded > 0 ? "; " + recorded
                + " replay recorded offsets" : "") + " (replay speed " + Format.plain(metadata.replaySpeed()) + ")");
    }

    /** The key of a case in timelines and links: {@code suite/case}. */
    public static String caseKey(String suite, String caseId) {
        return suite + "/" + caseId;
    }
}
