package io.agentlab.report.internal;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.agentlab.report.metrics.TurnRecord;
import io.agentlab.report.metrics.TurnTimeline;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.function.Consumer;
import org.apiguardian.api.API;

/**
 * What the reports show of a run's turns: how many there were and how they were timed, the timelines drawn — at most
 * {@value #MAX_DRAWN} turns of cases (each turn one figure, its modes on one axis), whole cases, the broken cases'
 * first, then the slowest cases' (by their slowest turn) — and the turns whose provider withheld visible content, the
 * first {@value #LISTED_WITHHELD} of them. Every turn's record is in {@code metrics.json}; a report draws a bounded
 * part, so a run of any length renders in bounded memory (docs/performance.md#memory, docs/engine.md#html-report).
 *
 * @param count         the run's turns (each mode's turn counted once)
 * @param timings       the run's turns by how their streams were timed
 * @param figures       the run's turns of cases (a case's turn in all its modes counted once)
 * @param drawn         the timelines drawn, by suite, case, turn and mode
 * @param drawnFigures  the turns of cases drawn
 * @param withheld      the first turns whose provider withheld visible content, by suite, case, turn and mode
 * @param withheldCount how many turns withheld it in all
 */
@API(status = INTERNAL, since = "0.2")
public record Turns(long count, Map<TurnRecord.Timing, Long> timings, long figures, List<TurnTimeline> drawn,
                    long drawnFigures, List<TurnTimeline> withheld, long withheldCount) {

    /** The most turns of cases a report draws. */
    public static final int MAX_DRAWN = 200;
    /** The most withheld turns a report lists. */
    public static final int LISTED_WITHHELD = 500;

    /** The reports' reading order of timelines: suite, case, turn, mode. */
    static final Comparator<TurnTimeline> ORDER = Comparator.comparing(TurnTimeline::suiteId)
            .thenComparing(TurnTimeline::caseId).thenComparingInt(TurnTimeline::turnIndex)
            .thenComparing(TurnTimeline::mode);

    /** Copies. */
    public Turns {
        timings = new EnumMap<>(timings);
        drawn = List.copyOf(drawn);
        withheld = List.copyOf(withheld);
    }

    /** Whether every turn was drawn. */
    public boolean all() {
        return drawnFigures == figures;
    }

    /** The turns of {@code timelines}, any order, drawn as a run's would be. */
    static Turns of(List<TurnTimeline> timelines, Set<String> brokenCases) {
        Map<TurnRecord.Timing, Long> timings = new EnumMap<>(TurnRecord.Timing.class);
        timelines.forEach(t -> timings.merge(t.timing(), 1L, Long::sum));
        List<TurnTimeline> sorted = timelines.stream().sorted(ORDER).toList();
        return of(each -> sorted.forEach(each), timelines.size(), timings, brokenCases);
    }

    /**
     * The turns {@code source} hands over, a case's turns one after another (as a run's metrics read them back), the
     * run having {@code count} turns timed as {@code timings}; {@code brokenCases} are drawn first
     * ({@code suite/case}).
     */
    static Turns of(Consumer<Consumer<TurnTimeline>> source, long count, Map<TurnRecord.Timing, Long> timings,
                    Set<String> brokenCases) {
        Selector selector = new Selector(brokenCases);
        source.accept(selector::add);
        return selector.finish(count, timings);
    }

    /** A case's turns, with its slowest turn's wall time and how many turns it has. */
    private record Case(String key, double slowest, int figures, List<TurnTimeline> timelines) {
    }

    /** Chooses what to draw while the turns go by, holding at most twice {@link #MAX_DRAWN} turns of cases. */
    private static final class Selector {

        /** The least slow case first (and of two as slow, the later one), the one to drop when over the bound. */
        private static final Comparator<Case> LEAST_SLOW = Comparator.comparingDouble(Case::slowest)
                .thenComparing(Case::key, Comparator.reverseOrder());

        private final Set<String> brokenCases;
        private final List<Case> broken = new ArrayList<>();
        private final PriorityQueue<Case> slow = new PriorityQueue<>(LEAST_SLOW);
        private final List<TurnTimeline> withheld = new ArrayList<>();
        private List<TurnTimeline> current = new ArrayList<>();
        private String currentKey;
        private long figures;
        private int brokenFigures;
        private int slowFigures;
        private long withheldCount;

        Selector(Set<String> brokenCases) {
            this.brokenCases = brokenCases;
        }

        void add(TurnTimeline timeline) {
            String key = RunReport.caseKey(timeline.suiteId(), timeline.caseId());
            if (!key.equals(currentKey)) {
                close();
                currentKey = key;
            }
            current.add(timeline);
        }

        /** The case whose turns have all come. */
        private void close() {
            if (current.isEmpty()) {
                return;
            }
            List<TurnTimeline> turns = current.stream().sorted(ORDER).toList();
            current = new ArrayList<>();
            int caseFigures = (int) turns.stream().mapToInt(TurnTimeline::turnIndex).distinct().count();
            figures += caseFigures;
            for (TurnTimeline turn : turns) {
                if (turn.visibleWithheld()) {
                    withheldCount++;
                    if (withheld.size() < LISTED_WITHHELD) {
                        withheld.add(turn);
                    }
                }
            }
            Case taken = new Case(currentKey, turns.stream().mapToDouble(TurnTimeline::wallMs).max().orElse(0),
                    caseFigures, turns);
            if (brokenCases.contains(currentKey)) {
                if (brokenFigures + caseFigures <= MAX_DRAWN) {
                    broken.add(taken);
                    brokenFigures += caseFigures;
                }
                return;
            }
            slow.add(taken);
            slowFigures += caseFigures;
            while (slowFigures > MAX_DRAWN) {
                slowFigures -= slow.poll().figures();
            }
        }

        Turns finish(long count, Map<TurnRecord.Timing, Long> timings) {
            close();
            List<Case> chosen = new ArrayList<>(broken);
            int room = MAX_DRAWN - brokenFigures;
            List<Case> slowest = new ArrayList<>(slow);
            slowest.sort(LEAST_SLOW.reversed());
            for (Case next : slowest) {
                if (next.figures() <= room) {
                    chosen.add(next);
                    room -= next.figures();
                }
            }
            List<TurnTimeline> drawn = new ArrayList<>();
            chosen.forEach(taken -> drawn.addAll(taken.timelines()));
            drawn.sort(ORDER);
            return new Turns(count, timings, figures, drawn, MAX_DRAWN - room, withheld, withheldCount);
        }
    }
}
