package io.agentlab.report.internal;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.agentlab.kernel.api.InvocationMode;
import io.agentlab.report.metrics.Metric;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * The answer every report opens with: per family of measures (speed, tokens, calls, accuracy, cost), which mode is
 * better, by how much and how sure, or why no mode is called better. It reads only the comparison's own verdicts
 * ({@link Comparison}), so the headline never says more than the table beneath it; timings a latency model made are
 * named as such and get no verdict ({@code docs/engine.md#headline}).
 *
 * @param families one line per family that has a measure in this run, in reading order
 */
@API(status = INTERNAL, since = "0.2")
public record Headline(List<Family> families) {

    /** How to get a cost figure, as every report says it when there is none. */
    public static final String NO_PRICING = "point agentlab.pricing.file at a pricing catalog (docs/runtime.md), an "
            + "unpriced call is never counted as zero";

    /** The family of {@code kind}, if this run compared any of its measures. */
    public Optional<Family> family(Metric.Family kind) {
        return families.stream().filter(family -> family.kind() == kind).findFirst();
    }

    /** Copies the list. */
    public Headline {
        families = List.copyOf(families);
    }

    /**
     * One family's answer.
     *
     * @param kind      the family
     * @param measures  how many of its measures this run compared
     * @param dualWins  measures on which dual_agent is better beyond noise
     * @param toolsWins measures on which chat_agent_tools is better beyond noise
     * @param lead      the measure the line quotes: the first with a better mode, else the first with both figures
     * @param modelled  whether a latency model made the family's figures (timings of synthesized streams)
     */
    public record Family(Metric.Family kind, int measures, int dualWins, int toolsWins, Comparison lead,
                         boolean modelled) {

        /** Whether its lead measure has a figure in either mode (a cost without a pricing catalog has none). */
        public boolean figured() {
            return lead.dual().value() != null || lead.tools().value() != null;
        }

        /** The better mode, when only one mode won any measure of the family. */
        public Optional<InvocationMode> better() {
            if (dualWins > 0 && toolsWins == 0) {
                return Optional.of(InvocationMode.DUAL_AGENT);
            }
            if (toolsWins > 0 && dualWins == 0) {
                return Optional.of(InvocationMode.CHAT_AGENT_TOOLS);
            }
            return Optional.empty();
        }

        /** The line: the answer, then the measure it rests on with both figures, the ratio and the test. */
        public String text() {
            String figures = lead.metric().label() + " (" + Format.unit(lead.metric()) + ") dual_agent "
                    + Format.figure(lead.metric(), lead.dual()) + " vs chat_agent_tools "
                    + Format.figure(lead.metric(), lead.tools())
                    + lead.ratio().map(ratio -> ", tools ÷ dual " + Format.ratio(lead, "×")).orElse("");
            if (!figured()) {
                return kind.label() + ": no figure in either mode" + (kind == Metric.Family.COST ? "; " + NO_PRICING
                        : "");
            }
            if (modelled) {
                return kind.label() + ": no verdict, the latency model made these timings (" + figures + "; compare "
                        + "recorded or live streams)";
            }
            String answer;
            Optional<InvocationMode> better = better();
            if (better.isPresent()) {
                int wins = Math.max(dualWins, toolsWins);
                answer = better.get().wireName() + " better on " + wins + " of " + measures + " measure"
                        + (measures == 1 ? "" : "s");
            } else if (dualWins > 0) {
                answer = "mixed: dual_agent better on " + dualWins + ", chat_agent_tools on " + toolsWins + " of "
                        + measures;
            } else {
                answer = "no mode better on " + (measures == 1 ? "its measure" : "its " + measures + " measures");
            }
            return kind.label() + ": " + answer + " — " + figures + ", " + lead.verdict().text();
        }
    }

    /** The headline of these comparisons; {@code modelled} when a latency model timed any turn. */
    public static Headline of(List<Comparison> comparisons, boolean modelled) {
        List<Family> families = new ArrayList<>();
        for (Metric.Family kind : Metric.Family.values()) {
            List<Comparison> mine = comparisons.stream().filter(c -> c.metric().family().orElse(null) == kind)
                    .filter(c -> c.dual() != null && c.tools() != null).toList();
            if (mine.isEmpty()) {
                continue;
            }
            int dual = count(mine, InvocationMode.DUAL_AGENT);
            int tools = count(mine, InvocationMode.CHAT_AGENT_TOOLS);
            Comparison lead = mine.stream().filter(c -> c.verdict() instanceof Comparison.Verdict.Better).findFirst()
                    .or(() -> mine.stream().filter(c -> c.dual().value() != null && c.tools().value() != null)
                            .findFirst())
                    .orElse(mine.get(0));
            boolean familyModelled = modelled && mine.stream().allMatch(c -> c.metric().isTiming());
            families.add(new Family(kind, mine.size(), dual, tools, lead, familyModelled));
        }
        return new Headline(families);
    }

    private static int count(List<Comparison> comparisons, InvocationMode mode) {
        return (int) comparisons.stream().filter(c -> c.verdict() instanceof Comparison.Verdict.Better better
                && better.better() == mode).count();
    }

    /**
     * The run's answer, and after it, when {@code broken} tests failed or aborted, that it compares a run that does
     * not pass: a misconfigured runtime fails every turn in both modes alike, and "no mode is better" alone read as a
     * finding (docs/engine.md#headline).
     */
    public Optional<String> summary(long broken) {
        return summary().map(answer -> answer + brokenRun(broken).map(line -> " " + line).orElse(""));
    }

    /** What follows the answer of a run where {@code broken} tests failed or aborted; empty when none did. */
    public static Optional<String> brokenRun(long broken) {
        return broken == 0 ? Optional.empty() : Optional.of(broken + (broken == 1 ? " test" : " tests")
                + " broke, so this compares a run that does not pass.");
    }

    /** The run's answer in one sentence, or empty when only one mode ran (nothing to compare). */
    public Optional<String> summary() {
        if (families.isEmpty()) {
            return Optional.empty();
        }
        List<String> dual = new ArrayList<>();
        List<String> tools = new ArrayList<>();
        List<String> neither = new ArrayList<>();
        for (Family family : families) {
            if (!family.figured()) {
                continue; // no figure: the family's own line says why
            }
            Optional<InvocationMode> better = family.modelled() ? Optional.empty() : family.better();
            (better.isEmpty() ? neither : better.get() == InvocationMode.DUAL_AGENT ? dual : tools)
                    .add(family.kind().label());
        }
        List<String> parts = new ArrayList<>();
        if (!dual.isEmpty()) {
            parts.add("dual_agent is better on " + String.join(", ", dual));
        }
        if (!tools.isEmpty()) {
            parts.add("chat_agent_tools is better on " + String.join(", ", tools));
        }
        if (!neither.isEmpty()) {
            parts.add((parts.isEmpty() ? "no mode is better on " : "neither on ") + String.join(", ", neither));
        }
        // no capital: a sentence may open with a mode's name, which is written as it is configured
        return Optional.of(parts.isEmpty() ? "no measure has a figure in both modes." : String.join("; ", parts) + ".");
    }
}
