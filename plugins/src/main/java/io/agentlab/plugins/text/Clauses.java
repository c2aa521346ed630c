package io.agentlab.plugins.text;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * One utterance often carries several requests ("set the volume to 30 and remind me at 9am to call mom"). Each
 * resolver reads the clauses that concern it: clauses are split at "and", "then", commas and their Chinese
 * counterparts.
 */
public final class Clauses {

    private static final Pattern SEPARATORS = Pattern.compile(
            "\\s*(?:,|;|\\band then\\b|\\bthen\\b|\\band\\b|\\balso\\b|，|；|、|然后|并且|还有|顺便|另外|再帮我|同时)\\s*");

    private Clauses() {
    }

    /** The non-blank clauses in order. */
    public static List<String> split(String text) {
        List<String> clauses = new ArrayList<>();
        for (String clause : SEPARATORS.split(text)) {
            if (!clause.isBlank()) {
                clauses.add(clause.trim());
            }
        }
        return clauses;
    }

    /** The first clause the domain pattern finds something in, or the whole text when none does. */
    public static String firstMatching(String text, Pattern domain) {
        for (String clause : split(text)) {
            if (domain.matcher(clause).find()) {
                return clause;
            }
        }
        return text;
    }

    /**
     * The text without the clauses the pattern finds something in; the text unchanged when no clause or every clause
     * matches.
     */
    public static String withoutMatching(String text, Pattern other) {
        List<String> clauses = split(text);
        List<String> kept = new ArrayList<>();
        for (String clause : clauses) {
            if (!other.matcher(clause).find()) {
                kept.add(clause);
            }
        }
        // Nothing removed: keep the text whole, separators included ("every Tuesday and Thursday").
        return kept.isEmpty() || kept.size() == clauses.size() ? text : String.join(" ", kept);
    }
}
