package io.agentlab.report.metrics;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.agentlab.runtime.llm.CallRole;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;
import org.apiguardian.api.API;

/**
 * The metric catalogue: every per-mode measure of {@code docs/design.md#metrics-per-mode} and
 * {@code docs/design.md#metrics-accuracy}, listed once. Each entry says how one turn contributes to it, how the
 * contributions add up, its unit and which direction is better; {@link ModeMetrics}, {@code metrics.json}, the
 * per-turn report entries, the console table, {@code report.md}, {@code index.html} and the baseline gates all iterate
 * this list, so adding a measure here adds it everywhere.
 *
 * <p>Counting follows the fair-comparison contract ({@code docs/design.md#usage-real-calls-only}): tokens come only
 * from real model calls (tools-mode schema and protocol tokens stay in), EventAgent fallback calls are their own rows,
 * turn wall time is measured (never a sum of overlapping spans), deduplicated or replayed clones count for nothing,
 * call TTFT (first stream item) is kept apart from visible-text TTFT, and a call without usage makes its turn's
 * tokens unknown (left out of the token figures and counted in {@link #USAGE_UNKNOWN_TURNS}), never zero.
 */
@API(status = INTERNAL, since = "0.1")
public enum Metric {

    /** Turn start to the first visible character. */
    FIRST_VISIBLE_TTFT("firstVisibleTtftMs", "first-visible TTFT", Unit.MS, Better.LOWER, Aggregate.DISTRIBUTION,
            "firstVisibleTtftMs", t -> Part.durations(t.firstVisibleTtft().stream().toList()), Flag.SHOWN),
    /** ChatAgent's first call start to its first stream item (any item, visible or not). */
    CHAT_CALL_TTFT("chatCallTtftMs", "ChatAgent call TTFT (first stream item)", Unit.MS, Better.LOWER,
            Aggregate.DISTRIBUTION, null, t -> Part.durations(t.calls().stream()
            .filter(call -> call.role() == CallRole.CHAT).map(TurnSample.Call::ttft).toList()), Flag.SHOWN,
            Flag.WIRE_BLIND),
    /** Turn start to the end of the first answer. */
    FIRST_ANSWER_COMPLETION("firstAnswerCompletionMs", "first-answer completion", Unit.MS, Better.LOWER,
            Aggregate.DISTRIBUTION, "firstAnswerCompletionMs",
            t -> Part.durations(List.of(t.firstAnswerCompletion())), Flag.SHOWN),
    /** Turn start to the follow-up's first visible character. */
    SECOND_ANSWER_TTFT("secondAnswerTtftMs", "second-answer TTFT", Unit.MS, Better.LOWER, Aggregate.DISTRIBUTION,
            "secondAnswerTtftMs", t -> Part.durations(t.secondAnswerTtft().stream().toList()), Flag.SHOWN),
    /** Turn start to turn end. */
    TURN_WALL_TIME("turnWallTimeMs", "turn wall time", Unit.MS, Better.LOWER, Aggregate.DISTRIBUTION,
            "turnWallTimeMs", t -> Part.durations(List.of(t.turnWallTime())), Flag.SHOWN),
    /** End of the first answer to a handler's start, per logical event. */
    EVENT_DISPATCH_DELAY("eventDispatchDelayMs", "event-dispatch delay", Unit.MS, Better.LOWER,
            Aggregate.DISTRIBUTION, null, t -> Part.durations(perEvent(t, TurnSample.Result::dispatchDelay)),
            Flag.SHOWN),
    /** Handler execution, per logical event. */
    EVENT_LATENCY("eventLatencyMs", "per-event latency", Unit.MS, Better.LOWER, Aggregate.DISTRIBUTION, null,
            t -> Part.durations(perEvent(t, TurnSample.Result::latency)), Flag.SHOWN),
    /** Prompt tokens of ChatAgent calls (first answer and follow-up), in all. */
    CHAT_PROMPT_TOKENS("chatPromptTokens", "ChatAgent prompt tokens", Unit.TOKENS, Better.LOWER, Aggregate.SUM,
            "chatPromptTokens", t -> t.chatUsageKnown() ? Part.count(t.chatPromptTokens()) : Part.NONE),
    /** Prompt tokens of ChatAgent calls per turn. */
    CHAT_PROMPT_TOKENS_PER_TURN("chatPromptTokensPerTurn", "ChatAgent prompt tokens per turn", Unit.TOKENS,
            Better.LOWER, Aggregate.MEAN, null, t -> t.chatUsageKnown() ? Part.count(t.chatPromptTokens()) : Part.NONE,
            Flag.SHOWN, Flag.BASELINE),
    /** Completion tokens of ChatAgent calls, in all. */
    CHAT_COMPLETION_TOKENS("chatCompletionTokens", "ChatAgent completion tokens", Unit.TOKENS, Better.LOWER,
            Aggregate.SUM, null, t -> t.chatUsageKnown() ? Part.count(t.chatCalls().stream()
            .mapToLong(TurnSample.Call::completionTokens).sum()) : Part.NONE),
    /** Completion tokens of ChatAgent calls per turn. */
    CHAT_COMPLETION_TOKENS_PER_TURN("chatCompletionTokensPerTurn", "ChatAgent completion tokens per turn",
            Unit.TOKENS, Better.LOWER, Aggregate.MEAN, null, t -> t.chatUsageKnown() ? Part.count(t.chatCalls().stream()
            .mapToLong(TurnSample.Call::completionTokens).sum()) : Part.NONE, Flag.SHOWN),
    /** EventAgent fallback calls. */
    FALLBACK_CALLS("fallbackCalls", "EventAgent fallback calls", Unit.CALLS, Better.LOWER, Aggregate.SUM,
            "fallbackCalls", t -> Part.count(t.fallbackCalls())),
    /** Tokens (prompt and completion) of the fallback calls. */
    FALLBACK_TOKENS("fallbackTokens", "EventAgent fallback tokens", Unit.TOKENS, Better.LOWER, Aggregate.SUM, null,
            t -> !t.usageKnown(CallRole.EVENT_AGENT) ? Part.NONE : Part.count(t.calls().stream()
                    .filter(call -> call.role() == CallRole.EVENT_AGENT)
                    .mapToLong(call -> call.promptTokens() + call.completionTokens()).sum()), Flag.SHOWN),
    /**
     * Turns with a call whose provider reported no usage (a failed call, a provider without usage): their tokens are
     * unknown, and every token figure above leaves them out rather than count them as zero.
     */
    USAGE_UNKNOWN_TURNS("usageUnknownTurns", "turns with usage unknown", Unit.TURNS, Better.LOWER, Aggregate.SUM,
            null, t -> Part.count(t.usageKnown() ? 0 : 1), Flag.SHOWN),
    /** Model calls per turn, every role. */
    LLM_CALLS_PER_TURN("llmCallsPerTurn", "LLM calls per turn", Unit.CALLS, Better.LOWER, Aggregate.MEAN,
            "llmCalls", t -> Part.count(t.calls().size()), Flag.SHOWN, Flag.BASELINE),
    /** ChatAgent calls per turn whose policy asked for no second answer (target 1, docs/design.md#metrics-targets). */
    CHAT_CALLS_PER_ORDINARY_TURN("chatCallsPerOrdinaryTurn", "ChatAgent calls per ordinary turn", Unit.CALLS,
            Better.LOWER, Aggregate.MEAN, null,
            t -> t.ordinary() ? Part.count(t.chatCalls().size()) : Part.NONE, Flag.SHOWN),
    /** Events that ran or were judged; deduplicated and replayed clones excluded. */
    LOGICAL_EVENTS("logicalEvents", "logical events", Unit.EVENTS, Better.NEITHER, Aggregate.SUM, null,
            t -> Part.count(t.results().size()), Flag.SHOWN),
    /** Events resolved without the fallback, of the events whose resolution ran. */
    DETERMINISTIC_HIT_RATE("deterministicHitRate", "deterministic-resolution hit rate", Unit.RATE, Better.HIGHER,
            Aggregate.RATE, null, t -> Part.ratio(count(t, TurnSample.Result::deterministic),
            count(t, TurnSample.Result::resolved)), Flag.SHOWN, Flag.BASELINE),
    /** Fallback calls per logical event. */
    FALLBACK_RATE("fallbackRate", "EventAgent fallback rate", Unit.RATE, Better.LOWER, Aggregate.RATE, null,
            t -> Part.ratio(t.fallbackCalls(), t.results().size()), Flag.SHOWN, Flag.BASELINE),
    /** Proposed events that were expected, of the proposed (turns whose suite names the expected events). */
    SELECTION_PRECISION("selectionPrecision", "event-selection precision", Unit.RATE, Better.HIGHER, Aggregate.RATE,
            null, t -> t.expectedEvents().isEmpty() || t.providerError() ? Part.NONE
            : Part.ratio(t.selectionHits(), t.proposed().size()), Flag.SHOWN, Flag.BASELINE),
    /** Expected events that were proposed, of the expected. */
    SELECTION_RECALL("selectionRecall", "event-selection recall", Unit.RATE, Better.HIGHER, Aggregate.RATE, null,
            t -> t.expectedEvents().isEmpty() || t.providerError() ? Part.NONE
                    : Part.ratio(t.selectionHits(), t.expectedEvents().get().size()), Flag.SHOWN, Flag.BASELINE),
    /** The same recall over turns expecting two or more events. */
    MULTI_EVENT_RECALL("multiEventRecall", "multi-event recall", Unit.RATE, Better.HIGHER, Aggregate.RATE, null,
            t -> t.expectedEvents().map(List::size).orElse(0) < 2 || t.providerError() ? Part.NONE
                    : Part.ratio(t.selectionHits(), t.expectedEvents().get().size()), Flag.SHOWN),
    /**
     * Of the expected events with an argument label that were proposed with arguments of their own (native tool
     * calls), those whose proposed arguments already contained the label; a hidden block proposes none.
     */
    ARGUMENT_ACCURACY_BEFORE("argumentAccuracyBeforeNormalization", "argument accuracy before normalization",
            Unit.RATE, Better.HIGHER, Aggregate.RATE, null, t -> t.providerError() ? Part.NONE
            : Part.ratio(t.arguments().rightBefore(), t.arguments().proposing()), Flag.SHOWN, Flag.WIRE_BLIND),
    /** Of the expected events with an argument label that were proposed, those whose final arguments contain it. */
    ARGUMENT_ACCURACY_AFTER("argumentAccuracyAfterNormalization", "argument accuracy after normalization",
            Unit.RATE, Better.HIGHER, Aggregate.RATE, null, t -> t.providerError() ? Part.NONE
            : Part.ratio(t.arguments().rightAfter(), t.arguments().labelled()), Flag.SHOWN),
    /** Logical events whose arguments were complete and valid as proposed. */
    VALID_BEFORE_NORMALIZATION("validArgumentRateBeforeNormalization", "valid arguments before normalization",
            Unit.RATE, Better.HIGHER, Aggregate.RATE, null, t -> Part.ratio(count(t,
            TurnSample.Result::validBefore), t.results().size()), Flag.SHOWN, Flag.WIRE_BLIND),
    /** Logical events whose final arguments were valid. */
    VALID_AFTER_NORMALIZATION("validArgumentRateAfterNormalization", "valid arguments after normalization",
            Unit.RATE, Better.HIGHER, Aggregate.RATE, null, t -> Part.ratio(count(t,
            TurnSample.Result::validAfter), t.results().size()), Flag.SHOWN, Flag.WIRE_BLIND),
    /** Logical events that succeeded. */
    EXECUTION_SUCCESS_RATE("executionSuccessRate", "execution success rate", Unit.RATE, Better.HIGHER,
            Aggregate.RATE, null, t -> Part.ratio(count(t, TurnSample.Result::succeeded), t.results().size()),
            Flag.SHOWN,
            Flag.BASELINE),
    /** Logical events that ended asking the user a question ({@code needs_clarification}). */
    CLARIFICATION_RATE("clarificationRate", "clarification rate", Unit.RATE, Better.NEITHER, Aggregate.RATE, null,
            t -> t.providerError() ? Part.NONE : Part.ratio(count(t, TurnSample.Result::clarification),
                    t.results().size()), Flag.SHOWN),
    /**
     * Of the turns whose events ran, those whose first visible character came before the batch was submitted: the
     * answer-first consistency check ({@code docs/design.md#modes-first-answer-first}); a provider that withholds
     * the answer until after its tool calls fails it.
     */
    FIRST_VISIBLE_BEFORE_EVENTS("firstVisibleBeforeEventsRate", "first visible answer before the events ran",
            Unit.RATE, Better.HIGHER, Aggregate.RATE, null, t -> t.visibleBeforeEvents()
            .map(before -> Part.ratio(before ? 1 : 0, 1)).orElse(Part.NONE), Flag.SHOWN),
    /**
     * Turns ended by a provider or protocol error ({@code provider_...}): counted here, apart from the model's
     * mistakes, and left out of the selection, argument and clarification rates.
     */
    PROVIDER_ERROR_TURNS("providerErrorTurns", "turns ended by a provider or protocol error", Unit.TURNS,
            Better.LOWER, Aggregate.SUM, null, t -> Part.count(t.providerError() ? 1 : 0), Flag.SHOWN),
    /** Estimated cost of every call; unknown unless every turn was priced. */
    COST("cost", "estimated cost", Unit.USD, Better.LOWER, Aggregate.SUM, null,
            t -> Part.decimal(t.cost()), Flag.SHOWN),
    /** Estimated cost per succeeded logical event. */
    COST_PER_SUCCESSFUL_EVENT("costPerSuccessfulEvent", "cost per successful event", Unit.USD, Better.LOWER,
            Aggregate.RATE, null, t -> Part.decimalRatio(t.cost(), count(t, TurnSample.Result::succeeded)),
            Flag.SHOWN);

    /** How a measure reads. */
    public enum Unit {
        /** Milliseconds. */
        MS("ms"),
        /** Tokens. */
        TOKENS("tokens"),
        /** Model calls. */
        CALLS("calls"),
        /** Events. */
        EVENTS("events"),
        /** Turns. */
        TURNS("turns"),
        /** A fraction from 0 to 1, shown as a percentage. */
        RATE("%"),
        /** US dollars. */
        USD("USD");

        private final String symbol;

        Unit(String symbol) {
            this.symbol = symbol;
        }

        /** How the unit is written next to a number. */
        public String symbol() {
            return symbol;
        }
    }

    /** Which way is better. */
    public enum Better {
        /** Smaller is better. */
        LOWER,
        /** Larger is better. */
        HIGHER,
        /** Neither: a count that describes the run. */
        NEITHER;

        /** "lower", "higher" or "-". */
        public String word() {
            return this == NEITHER ? "-" : name().toLowerCase(Locale.ROOT);
        }
    }

    /** How the turns' contributions add up. */
    public enum Aggregate {
        /** Every sample kept: p50 and p95 (nearest rank). */
        DISTRIBUTION,
        /** The mean of the turns' values. */
        MEAN,
        /** The sum of the turns' values; unknown if any turn's is. */
        SUM,
        /** The sum of numerators over the sum of denominators; unknown if any numerator is, absent if nothing counted. */
        RATE
    }

    /** What else a measure takes part in. */
    enum Flag {
        /** A row of the comparison (console, Markdown, HTML). */
        SHOWN,
        /** A figure of the committed baseline the gates compare against. */
        BASELINE,
        /**
         * Not observable over the wire: the figure needs what only the runtime's inside holds, so a turn over the wire
         * contributes nothing to it, never a zero (docs/wire.md#observability).
         */
        WIRE_BLIND
    }

    private final String key;
    private final String label;
    private final Unit unit;
    private final Better better;
    private final Aggregate aggregate;
    private final String turnKey;
    private final Function<TurnSample, Part> contribution;
    private final Set<Flag> flags;

    Metric(String key, String label, Unit unit, Better better, Aggregate aggregate, String turnKey,
           Function<TurnSample, Part> contribution, Flag... flags) {
        this.key = key;
        this.label = label;
        this.unit = unit;
        this.better = better;
        this.aggregate = aggregate;
        this.turnKey = turnKey;
        this.contribution = contribution;
        this.flags = flags.length == 0 ? EnumSet.noneOf(Flag.class) : EnumSet.copyOf(Arrays.asList(flags));
    }

    /** Its name in {@code metrics.json} and in a baseline file. */
    public String key() {
        return key;
    }

    /** What a reader calls it. */
    public String label() {
        return label;
    }

    /** Its unit. */
    public Unit unit() {
        return unit;
    }

    /** Which way is better. */
    public Better better() {
        return better;
    }

    /** How turns add up. */
    public Aggregate aggregate() {
        return aggregate;
    }

    /**
     * Whether a turn judged over the wire shows it: not the ChatAgent call TTFT (the runtime's reading of its model
     * stream), the arguments as proposed or their validity before and after normalization (steps of its resolution
     * pipeline), all inside the runtime (docs/wire.md#observability).
     */
    public boolean observableOverTheWire() {
        return !flags.contains(Flag.WIRE_BLIND);
    }

    /** Its name among a turn's figures (report entries, {@code metrics.json} turns), if a turn reports it. */
    public Optional<String> turnKey() {
        return Optional.ofNullable(turnKey);
    }

    /**
     * The families of measures a reader asks about first ("is it faster?", "does it cost fewer tokens?"): what the
     * reports' headline answers, one line each ({@code docs/engine.md#headline}).
     */
    public enum Family {
        /** Timings. */
        SPEED("speed"),
        /** Token counts. */
        TOKENS("tokens"),
        /** Model calls, and the fallback calls per event. */
        CALLS("calls"),
        /** Rates with a better direction: resolution, selection, arguments, validity, success. */
        ACCURACY("accuracy"),
        /** Estimated cost. */
        COST("cost");

        private final String label;

        Family(String label) {
            this.label = label;
        }

        /** How the reports name it. */
        public String label() {
            return label;
        }
    }

    /**
     * Its family, by unit, if it belongs to one: a count describing the run (better neither way) belongs to none,
     * nor does the order of two timings ({@link #FIRST_VISIBLE_BEFORE_EVENTS}); the fallback rate counts calls.
     */
    public Optional<Family> family() {
        if (better == Better.NEITHER || this == FIRST_VISIBLE_BEFORE_EVENTS) {
            return Optional.empty();
        }
        if (this == FALLBACK_RATE) {
            return Optional.of(Family.CALLS);
        }
        return switch (unit) {
            case MS -> Optional.of(Family.SPEED);
            case TOKENS -> Optional.of(Family.TOKENS);
            case CALLS -> Optional.of(Family.CALLS);
            case RATE -> Optional.of(Family.ACCURACY);
            case USD -> Optional.of(Family.COST);
            default -> Optional.empty();
        };
    }

    /** Whether it is a timing, and so a latency model's figure when the streams were synthesized. */
    public boolean isTiming() {
        return unit == Unit.MS;
    }

    /** Whether the comparison shows it. */
    public boolean shown() {
        return flags.contains(Flag.SHOWN);
    }

    /** Whether the baseline records it. */
    public boolean inBaseline() {
        return flags.contains(Flag.BASELINE);
    }

    /** What {@code turn} contributes. */
    public Part contribution(TurnSample turn) {
        if (turn.overTheWire() && !observableOverTheWire()) {
            return Part.NONE; // not measured, which is not 0 (docs/wire.md#observability)
        }
        return contribution.apply(turn);
    }

    /** The measures the comparison shows, in catalogue order. */
    public static List<Metric> shownMetrics() {
        return Arrays.stream(values()).filter(Metric::shown).toList();
    }

    /** The figures a baseline records, in catalogue order. */
    public static List<Metric> baselineMetrics() {
        return Arrays.stream(values()).filter(Metric::inBaseline).toList();
    }

    /** The metric named {@code key}, if any. */
    public static Optional<Metric> byKey(String key) {
        return Arrays.stream(values()).filter(metric -> metric.key.equals(key)).findFirst();
    }

    private static List<Duration> perEvent(TurnSample turn, Function<TurnSample.Result, Optional<Duration>> which) {
        return turn.results().stream().flatMap(result -> which.apply(result).stream()).toList();
    }

    private static int count(TurnSample turn, Predicate<TurnSample.Result> which) {
        return (int) turn.results().stream().filter(which).count();
    }

    /**
     * What one turn contributes to a measure: samples (distributions and means), and a numerator over a denominator
     * (sums and rates). A null numerator means "unknown" (an unpriced cost) and makes the whole figure unknown.
     *
     * @param samples     the turn's samples
     * @param numerator   its numerator; null when unknown
     * @param denominator its denominator (zero for a sum)
     */
    public record Part(List<Double> samples, BigDecimal numerator, BigDecimal denominator) {

        /** Nothing to count in this turn. */
        public static final Part NONE = new Part(List.of(), BigDecimal.ZERO, BigDecimal.ZERO);

        /** Copies the samples. */
        public Part {
            samples = List.copyOf(samples);
        }

        static Part durations(List<Duration> durations) {
            return new Part(Figure.millis(durations), BigDecimal.ZERO, BigDecimal.ZERO);
        }

        static Part count(long value) {
            return new Part(List.of((double) value), BigDecimal.valueOf(value), BigDecimal.ZERO);
        }

        static Part ratio(long numerator, long denominator) {
            return new Part(List.of(), BigDecimal.valueOf(numerator), BigDecimal.valueOf(denominator));
        }

        static Part decimal(Optional<BigDecimal> value) {
            return new Part(value.map(v -> List.of(v.doubleValue())).orElse(List.of()), value.orElse(null),
                    BigDecimal.ZERO);
        }

        static Part decimalRatio(Optional<BigDecimal> numerator, long denominator) {
            return new Part(List.of(), numerator.orElse(null), BigDecimal.valueOf(denominator));
        }
    }
}
