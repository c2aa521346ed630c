package io.agentlab.report.internal;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.agentlab.kernel.api.InvocationMode;
import io.agentlab.report.RunMetadata;
import io.agentlab.report.TestLog;
import io.agentlab.report.TestOutcome;
import io.agentlab.report.controls.CapabilityGrowth;
import io.agentlab.report.controls.ControlMatrix;
import io.agentlab.report.metrics.Figure;
import io.agentlab.report.metrics.Metric;
import io.agentlab.report.metrics.MetricsReport;
import io.agentlab.report.metrics.ModeMetrics;
import io.agentlab.report.metrics.TurnRecord;
import io.agentlab.report.metrics.TurnTimeline;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.apiguardian.api.API;

/**
 * Everything the end-of-run reports show, results first: how the run was made, every test's outcome, the timelines of
 * a bounded number of turns, the per-mode measures and their comparison, the all-disabled/all-enabled control, the
 * capability-growth curve, what moved against a baseline or a previous run, and how the streams were timed. The
 * console table ({@link ConsoleReport}), {@code report.md} ({@link MarkdownReport}) and {@code index.html}
 * ({@link HtmlReport}) render this one value. The tests are read back from their log one suite at a time, and only
 * the drawn turns are here ({@link Turns}), so a run of any length renders in bounded memory
 * (docs/performance.md#memory).
 *
 * @param metadata how the run was made
 * @param tests    every test's outcome
 * @param modes    the per-mode measures, dual_agent first
 * @param turns    the run's turns: counts and the timelines drawn
 * @param matrix   the control cells (empty when not run)
 * @param growth   the capability-growth curve
 * @param timing   per suite, how its streams were timed
 * @param history  comparisons with a baseline or a previous run, when there was one
 */
@API(status = INTERNAL, since = "0.1")
public record RunReport(RunMetadata metadata, TestLog tests, List<ModeMetrics> modes, Turns turns,
                        List<ControlMatrix.Cell> matrix, List<CapabilityGrowth.Point> growth, Map<String, String> timing,
                        List<History> history) {

    /** Copies the collections. */
    public RunReport {
        modes = List.copyOf(modes);
        matrix = List.copyOf(matrix);
        growth = List.copyOf(growth);
        timing = new TreeMap<>(timing);
        history = List.copyOf(history);
    }

    /** A report of given outcomes and timelines (every turn of a small run, a test). */
    public RunReport(RunMetadata metadata, List<TestOutcome> outcomes, List<ModeMetrics> modes,
                     List<TurnTimeline> timelines, List<ControlMatrix.Cell> matrix,
                     List<CapabilityGrowth.Point> growth, Map<String, String> timing, List<History> history) {
        this(metadata, TestLog.of(outcomes), modes, timelines, matrix, growth, timing, history);
    }

    private RunReport(RunMetadata metadata, TestLog tests, List<ModeMetrics> modes, List<TurnTimeline> timelines,
                      List<ControlMatrix.Cell> matrix, List<CapabilityGrowth.Point> growth,
                      Map<String, String> timing, List<History> history) {
        this(metadata, tests, modes, Turns.of(timelines, brokenCases(tests)), matrix, growth, timing, history);
    }

    /** The report of a run: its turns read back from {@code metrics} once, its broken cases' drawn first. */
    public static RunReport of(RunMetadata metadata, TestLog tests, List<ModeMetrics> modes, MetricsReport metrics,
                               List<ControlMatrix.Cell> matrix, List<CapabilityGrowth.Point> growth,
                               List<History> history) {
        Turns turns = Turns.of(each -> metrics.forEachRecord(record -> each.accept(record.timeline())),
                metrics.turns(), metrics.timingCounts(), brokenCases(tests));
        return new RunReport(metadata, tests, modes, turns, matrix, growth, metrics.timings(), history);
    }

    /** The cases of the listed broken tests ({@code suite/case}). */
    private static Set<String> brokenCases(TestLog tests) {
        Set<String> cases = new HashSet<>();
        for (TestOutcome outcome : tests.broken()) {
            outcome.caseId().ifPresent(caseId -> cases.add(caseKey(outcome.suite().orElseThrow(), caseId)));
        }
        return cases;
    }

    /** The measures of {@code mode}, if it ran. */
    public ModeMetrics mode(InvocationMode mode) {
        return modes.stream().filter(m -> m.mode() == mode).findFirst().orElse(null);
    }

    /** Every shown measure side by side, with its verdict (none on timings a latency model made). */
    public List<Comparison> comparisons() {
        List<Comparison> comparisons = Comparison.of(mode(InvocationMode.DUAL_AGENT),
                mode(InvocationMode.CHAT_AGENT_TOOLS), timingCounts().getOrDefault(TurnRecord.Timing.MODELLED, 0L) > 0);
        if (!metadata.overTheWire()) {
            return comparisons;
        }
        // over the wire a measure that needs the runtime's inside was not measured: said so, never a verdict
        return comparisons.stream().map(c -> c.metric().observableOverTheWire() ? c : new Comparison(c.metric(),
                c.dual(), c.tools(), new Comparison.Verdict.None(Comparison.NOT_OBSERVABLE))).toList();
    }

    /** The answer the reports open with: per family of measures, which mode is better (docs/engine.md#headline). */
    public Headline headline() {
        return Headline.of(comparisons(), timingCounts().getOrDefault(TurnRecord.Timing.MODELLED, 0L) > 0);
    }

    /** How many tests ended with {@code status}. */
    public long count(TestOutcome.Status status) {
        return tests.count(status);
    }

    /** The failed and aborted tests, the first {@value TestLog#LISTED_BROKEN} in report order. */
    public List<TestOutcome> broken() {
        return tests.broken();
    }

    /** The suites in report order: those with a broken test first, then by id; gates last. */
    public List<String> suites() {
        return tests.suites().stream().map(TestLog.Suite::name).toList();
    }

    /** The group name of outcomes that belong to no suite (the gates). */
    public static final String GATES = TestLog.GATES;

    /** Each drawn case's turns, each turn's timelines by mode, in reading order (cases with a broken test first). */
    public Map<String, Map<Integer, Map<InvocationMode, TurnTimeline>>> timelinesByCase() {
        Map<String, Map<Integer, Map<InvocationMode, TurnTimeline>>> byCase = new LinkedHashMap<>();
        Set<String> brokenCases = brokenCases(tests);
        List<TurnTimeline> ordered = turns.drawn().stream().sorted(Comparator.comparing(
                (TurnTimeline t) -> !brokenCases.contains(caseKey(t.suiteId(), t.caseId())))).toList();
        for (TurnTimeline timeline : ordered) {
            byCase.computeIfAbsent(caseKey(timeline.suiteId(), timeline.caseId()), key -> new LinkedHashMap<>())
                    .computeIfAbsent(timeline.turnIndex(), turn -> new EnumMap<>(InvocationMode.class))
                    .put(timeline.mode(), timeline);
        }
        return byCase;
    }

    /** Whether the timelines of {@code suite/case} are drawn. */
    public boolean drawn(String caseKey) {
        return turns.drawn().stream().anyMatch(t -> caseKey(t.suiteId(), t.caseId()).equals(caseKey));
    }

    /** Turns whose provider withheld visible content until after its tool calls (the first listed). */
    public List<TurnTimeline> withheld() {
        return turns.withheld();
    }

    /** Turns by how their streams were timed. */
    public Map<TurnRecord.Timing, Long> timingCounts() {
        return turns.timings();
    }

    /**
     * The sentence every report puts beside its timings: which share of the turns the latency model timed, so a
     * modelled figure is never read as a measurement; at replay speed 0, that no modelled or recorded latency was
     * waited for, so those timings are the kit's own, and over the wire the runtime's too (the console's footnote,
     * docs/cli.md#commands).
     */
    public Optional<String> modelledNote() {
        Map<TurnRecord.Timing, Long> counts = timingCounts();
        long modelled = counts.getOrDefault(TurnRecord.Timing.MODELLED, 0L);
        long recorded = counts.getOrDefault(TurnRecord.Timing.RECORDED, 0L);
        if (modelled == 0) {
            return Optional.empty(); // the reports mark timings "model" exactly when this note exists
        }
        if (metadata.replaySpeed() == 0) {
            // nothing was waited for: the model timed nothing, the kit alone did (over the wire, the kit and the
            // runtime's processing; docs/wire.md#observability)
            return Optional.of("timings of " + (modelled + recorded) + " of " + turns.count() + " turns are the "
                    + (metadata.overTheWire() ? "kit's and the runtime's own time" : "kit's own time alone")
                    + ": at replay speed 0 no modelled or recorded provider latency is waited for");
        }
        return Optional.of("timings of " + modelled + " of " + turns.count() + " turns come from the latency "
                + "model of synthesized streams, not a measurement" + (recorded > 0 ? "; " + recorded
                + " replay recorded offsets" : "") + " (replay speed " + Format.plain(metadata.replaySpeed()) + ")");
    }

    /**
     * The run's one cause line when, over the wire, the kit's provider served no model call in any turn and turns ended
     * with a provider error ({@code provider_...}): a runtime sending its model calls elsewhere fails every case, each
     * with its own error, and none of them says where to look (docs/wire.md#no-provider-call); empty otherwise.
     */
    public Optional<String> providerNote() {
        int turnCount = modes.stream().mapToInt(ModeMetrics::turns).sum();
        long errors = Math.round(modes.stream().mapToDouble(m -> known(m, Metric.PROVIDER_ERROR_TURNS)).sum());
        if (!metadata.overTheWire() || turnCount == 0 || errors == 0
                || modes.stream().anyMatch(RunReport::calledTheProvider)) {
            return Optional.empty();
        }
        return Optional.of(String.format(Locale.ROOT, "cause: the kit's provider served no model call in any of the "
                + "%,d turns, and %,d of them ended with a provider error: the runtime's model calls must go to the "
                + "AGENTLAB_PROVIDER_BASE_URL the kit gives it (docs/wire.md#no-provider-call)", turnCount, errors));
    }

    /**
     * Whether a turn of {@code mode} made a model call: the mean when it is above 0, else the largest sample, as the
     * rounded mean loses one call among tens of thousands of turns.
     */
    private static boolean calledTheProvider(ModeMetrics mode) {
        if (known(mode, Metric.LLM_CALLS_PER_TURN) > 0) {
            return true;
        }
        Figure calls = mode.figure(Metric.LLM_CALLS_PER_TURN);
        double[] sorted = calls == null ? new double[0] : calls.samples().sorted();
        return sorted.length > 0 && sorted[sorted.length - 1] > 0;
    }

    /** {@code metric}'s number in {@code mode}, 0 when unknown. */
    private static double known(ModeMetrics mode, Metric metric) {
        Number value = mode.figure(metric) == null ? null : mode.value(metric);
        return value == null ? 0 : value.doubleValue();
    }

    /**
     * The sentence beside the timelines when not every turn is drawn: how many were, which, and where the others
     * are; empty when every turn is drawn.
     */
    public Optional<String> drawnNote() {
        if (turns.all()) {
            return Optional.empty();
        }
        return Optional.of(String.format(Locale.ROOT, "The timelines of %,d of this run's %,d turns are drawn (at most "
                        + "%d, whole cases): the cases with a failed or aborted test first, then the slowest cases. "
                        + "Every turn's record, its timings included, is in metrics.json, under turns.",
                turns.drawnFigures(), turns.figures(), Turns.MAX_DRAWN));
    }

    /** The key of a case in timelines and links: {@code suite/case}. */
    public static String caseKey(String suite, String caseId) {
        return suite + "/" + caseId;
    }
}
