package io.agentlab.plugins.calendar;

import java.time.DayOfWeek;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;

/**
 * What a language parser found in one utterance, before assembly against the clock. Each match is "consumed" so the
 * title is what remains once every temporal phrase is taken out.
 */
final class ScheduleFacts {

    final String text;
    private final boolean[] consumed;

    LocalDate date;
    boolean explicitToday;
    DayOfWeek upcomingWeekday;
    DayOfWeek nextWeekWeekday;
    int dayOfMonth;
    Duration offset = Duration.ZERO;
    PartOfDay part;
    Integer hour;
    int minute;
    Boolean pm;
    boolean midnight;
    String frequency;
    final Set<DayOfWeek> byDay = EnumSet.noneOf(DayOfWeek.class);
    Integer reminderMinutes;
    String dateQuestion;
    boolean invalidDate;
    String title;

    ScheduleFacts(String text) {
        this.text = text;
        this.consumed = new boolean[text.length()];
    }

    /** Marks the whole match as used. */
    void consume(Matcher matcher) {
        for (int i = matcher.start(); i < matcher.end(); i++) {
            consumed[i] = true;
        }
    }

    /** True when any character of the match was already used by an earlier rule. */
    boolean overlapsConsumed(Matcher matcher) {
        for (int i = matcher.start(); i < matcher.end(); i++) {
            if (consumed[i]) {
                return true;
            }
        }
        return false;
    }

    /** The text with every consumed character replaced by a space. */
    String remainder() {
        StringBuilder out = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            out.append(consumed[i] ? ' ' : text.charAt(i));
        }
        return out.toString();
    }

    boolean hasClock() {
        return hour != null || midnight;
    }

    /** The RRULE, or null. */
    String recurrence() {
        if (frequency == null) {
            return null;
        }
        if (byDay.isEmpty()) {
            return "FREQ=" + frequency;
        }
        List<String> days = new ArrayList<>();
        byDay.forEach(day -> days.add(day.name().substring(0, 2)));
        return "FREQ=" + frequency + ";BYDAY=" + String.join(",", days);
    }
}
