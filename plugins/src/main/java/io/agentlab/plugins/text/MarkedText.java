package io.agentlab.plugins.text;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apiguardian.api.API;

/**
 * A text whose characters rules mark as understood. Each rule takes the first match no earlier rule used; what is
 * never taken is the {@link #remainder()}: the words the resolver did not understand, which {@link Leftovers} checks
 * before anything executes.
 */
@API(status = INTERNAL, since = "0.1")
public final class MarkedText {

    private final String text;
    private final boolean[] taken;

    /** Nothing taken yet. */
    public MarkedText(String text) {
        this.text = text;
        this.taken = new boolean[text.length()];
    }

    /** The text. */
    public String text() {
        return text;
    }

    /** The first match of {@code pattern} that overlaps nothing taken, now taken; null when there is none. */
    public Matcher take(Pattern pattern) {
        Matcher matcher = firstFree(pattern);
        if (matcher != null) {
            mark(matcher.start(), matcher.end());
        }
        return matcher;
    }

    /** Takes every free match of {@code pattern}; the number taken. */
    public int takeAll(Pattern pattern) {
        int count = 0;
        while (take(pattern) != null) {
            count++;
        }
        return count;
    }

    /** Whether a free match of {@code pattern} exists (nothing is taken). */
    public boolean has(Pattern pattern) {
        return firstFree(pattern) != null;
    }

    private Matcher firstFree(Pattern pattern) {
        Matcher matcher = pattern.matcher(text);
        int from = 0;
        while (from <= text.length() && matcher.find(from)) {
            if (matcher.end() > matcher.start() && isFree(matcher.start(), matcher.end())) {
                return matcher;
            }
            from = matcher.start() + 1; // a shorter alternative may start inside a taken match
        }
        return null;
    }

    /** Marks characters {@code start..end} as understood. */
    public void mark(int start, int end) {
        for (int i = Math.max(0, start); i < Math.min(end, taken.length); i++) {
            taken[i] = true;
        }
    }

    /** Marks one group of a match as understood. */
    public void mark(Matcher matcher, int group) {
        if (matcher.group(group) != null) {
            mark(matcher.start(group), matcher.end(group));
        }
    }

    /** Gives characters back (a rule that took too much). */
    public void release(int start, int end) {
        for (int i = Math.max(0, start); i < Math.min(end, taken.length); i++) {
            taken[i] = false;
        }
    }

    /** Whether none of {@code start..end} is taken. */
    public boolean isFree(int start, int end) {
        for (int i = start; i < end; i++) {
            if (taken[i]) {
                return false;
            }
        }
        return true;
    }

    /** The text with every taken character replaced by a space. */
    public String remainder() {
        StringBuilder out = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            out.append(taken[i] ? ' ' : text.charAt(i));
        }
        return out.toString();
    }
}
