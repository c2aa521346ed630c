package io.agentlab.plugins.text;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apiguardian.api.API;

/**
 * One utterance often carries several requests ("set the volume to 30 and remind me at 9am to call mom", "remind me
 * at 7 to X and at 8 to Y"). Clauses are split at "and", "then", commas and their Chinese counterparts; a resolver
 * groups the clauses of its own domain into <b>requests</b> and reads the one that belongs to its event
 * ({@code docs/plugins.md#two-requests-stay-two}).
 */
@API(status = INTERNAL, since = "0.1")
public final class Clauses {

    private static final Pattern SEPARATORS = Pattern.compile(
            "\\s*(?:,|;|[?!]+|\\band then\\b|\\bthen\\b|\\band\\b|\\balso\\b|，|；|、|[？！。]+|然后|并且|还有|顺便|另外|再帮我|同时)\\s*");
    /** "Tuesday and Thursday" is one list, not two clauses. */
    private static final Pattern DAY_LIST = Pattern.compile(
            "(?i)(?:day|周[一二三四五六日天1-7]|星期[一二三四五六日天1-7])\\s*$");
    private static final Pattern DAY_AHEAD = Pattern.compile(
            "(?i)^\\s*(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*day|^\\s*(?:周|星期)[一二三四五六日天1-7]");

    private Clauses() {
    }

    /** The non-blank clauses in order. */
    public static List<String> split(String text) {
        List<String> clauses = new ArrayList<>();
        for (int[] span : spans(text)) {
            clauses.add(text.substring(span[0], span[1]));
        }
        return clauses;
    }

    /** Start and end of each non-blank clause. */
    private static List<int[]> spans(String text) {
        List<int[]> spans = new ArrayList<>();
        Matcher separator = SEPARATORS.matcher(text);
        int from = 0;
        while (separator.find()) {
            boolean dayList = DAY_LIST.matcher(text.substring(from, separator.start())).find()
                    && DAY_AHEAD.matcher(text.substring(separator.end())).find();
            if (dayList) {
                continue;
            }
            add(spans, text, from, separator.start());
            from = separator.end();
        }
        add(spans, text, from, text.length());
        return spans;
    }

    private static void add(List<int[]> spans, String text, int start, int end) {
        String clause = text.substring(start, end);
        if (!clause.isBlank()) {
            int lead = clause.length() - clause.stripLeading().length();
            spans.add(new int[] {start + lead, start + clause.stripTrailing().length()});
        }
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
     * The requests of one domain in the utterance, in order. Clauses that do not {@code belong} (another event's, a
     * farewell) are left out. A clause starts a new request when it has its own {@code action} (a clock time, a volume
     * change) and the request being built already has one; otherwise it continues that request ("remind me at 3pm,
     * 10 minutes before"). A request keeps the text between its first and last clause, separators included.
     */
    public static List<String> requests(String text, Predicate<String> belongs, Predicate<String> action) {
        List<String> requests = new ArrayList<>();
        int start = -1;
        int end = -1;
        boolean hasAction = false;
        StringBuilder pieces = new StringBuilder();
        for (int[] span : spans(text)) {
            String clause = text.substring(span[0], span[1]);
            if (!belongs.test(clause)) {
                if (start >= 0) {
                    pieces.append(text, start, end).append(' ');
                    start = -1;
                }
                continue;
            }
            boolean own = action.test(clause);
            if (own && hasAction) {
                if (start >= 0) {
                    pieces.append(text, start, end);
                }
                requests.add(pieces.toString().trim());
                pieces.setLength(0);
                start = -1;
                hasAction = false;
            }
            if (start < 0) {
                start = span[0];
            }
            end = span[1];
            hasAction |= own;
        }
        if (start >= 0) {
            pieces.append(text, start, end);
        }
        if (!pieces.toString().isBlank()) {
            requests.add(pieces.toString().trim());
        }
        return requests;
    }

    /**
     * The request the {@code occurrence}-th of {@code occurrences} same-name events stands for: the request at that
     * place when the counts agree; the only request when there is one (the model named it twice: both read it, and the
     * kernel coalesces them); otherwise nothing, because it cannot be told which request is meant — the resolver
     * asks.
     */
    public static Optional<String> pick(List<String> requests, int occurrence, int occurrences) {
        if (requests.size() == 1) {
            return Optional.of(requests.get(0));
        }
        if (requests.size() == occurrences) {
            return Optional.of(requests.get(occurrence));
        }
        return Optional.empty();
    }
}
