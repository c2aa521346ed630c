package io.agentlab.plugins.calendar;

import io.agentlab.plugins.text.MarkedText;
import java.time.DayOfWeek;
import java.time.Duration;
import java.time.LocalDate;
import java.time.YearMonth;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a language parser found in one utterance, before assembly against the clock. Each match is "consumed" so the
 * title is what remains once every temporal phrase is taken out.
 */
final class ScheduleFacts {

    final String text;
    private final MarkedText marked;

    LocalDate date;
    boolean explicitToday;
    DayOfWeek upcomingWeekday;
    DayOfWeek nextWeekWeekday;
    int dayOfMonth;
    Duration offset = Duration.ZERO;
    /** The offset was said in hours or minutes: elapsed time, even when it is whole days. */
    boolean elapsed;
    /** An offset that is neither elapsed time nor whole calendar days ("in 2.5 days"). */
    boolean unclearOffset;
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
        this.marked = new MarkedText(text);
    }

    /** Marks the whole match as used. */
    void consume(Matcher matcher) {
        marked.mark(matcher.start(), matcher.end());
    }

    /** Gives a match back (a rule that found it was not its phrase after all). */
    void release(Matcher matcher) {
        marked.release(matcher.start(), matcher.end());
    }

    /** The first match of {@code pattern} that no earlier rule used, consumed; null when there is none. */
    Matcher take(Pattern pattern) {
        return marked.take(pattern);
    }

    /** The text with every consumed character replaced by a space. */
    String remainder() {
        return marked.remainder();
    }

    /**
     * One language's recurrence phrases. The first family that matches sets the frequency; {@code days} reads the
     * weekdays of an "every Monday" match and {@code part} the part of the day of an "every evening" match (or null).
     */
    record RecurrencePhrases(Pattern weekdays, Pattern everyDayOfWeek, Pattern daily, Pattern weekly, Pattern monthly,
                             Pattern yearly, Function<Matcher, Set<DayOfWeek>> days,
                             Function<Matcher, PartOfDay> part) {
    }

    /** Records the first recurrence family the text contains and consumes its phrase. */
    void recurrence(RecurrencePhrases phrases) {
        Matcher m;
        if ((m = phrases.weekdays().matcher(text)).find()) {
            frequency = "WEEKLY";
            byDay.addAll(EnumSet.range(DayOfWeek.MONDAY, DayOfWeek.FRIDAY));
        } else if ((m = phrases.everyDayOfWeek().matcher(text)).find()) {
            frequency = "WEEKLY";
            byDay.addAll(phrases.days().apply(m));
        } else if ((m = phrases.daily().matcher(text)).find()) {
            frequency = "DAILY";
            PartOfDay daily = phrases.part().apply(m);
            if (daily != null) {
                part = daily;
            }
        } else if ((m = phrases.weekly().matcher(text)).find()) {
            frequency = "WEEKLY";
        } else if ((m = phrases.monthly().matcher(text)).find()) {
            frequency = "MONTHLY";
        } else if ((m = phrases.yearly().matcher(text)).find()) {
            frequency = "YEARLY";
        } else {
            return;
        }
        consume(m);
    }

    /** The date, or null with {@link #invalidDate} set when it does not exist (February 30, month 13). */
    LocalDate date(int year, int month, int day) {
        if (year < 1 || year > 9999 || month < 1 || month > 12 || day < 1
                || day > YearMonth.of(year, month).lengthOfMonth()) {
            invalidDate = true;
            return null;
        }
        return LocalDate.of(year, month, day);
    }

    /** A month-day without a year: this year's, or next year's once it has passed. */
    LocalDate nextMonthDay(int month, int day, LocalDate today) {
        LocalDate candidate = date(today.getYear(), month, day);
        return candidate != null && candidate.isBefore(today) ? date(today.getYear() + 1, month, day) : candidate;
    }

    boolean hasClock() {
        return hour != null || midnight;
    }

    /** Whether the words named a day: a date, a weekday, a day of the month or a number of days. */
    boolean hasDay() {
        return date != null || upcomingWeekday != null || nextWeekWeekday != null || dayOfMonth > 0
                || !elapsed && !offset.isZero();
    }

    /** Two different days named for one request ("tomorrow ... on Friday"). */
    boolean conflictingDays() {
        int days = (date != null ? 1 : 0) + (upcomingWeekday != null || nextWeekWeekday != null ? 1 : 0)
                + (dayOfMonth > 0 ? 1 : 0) + (!elapsed && !offset.isZero() ? 1 : 0);
        return days > 1;
    }

    /** Takes over the day of the previous request of the same utterance ("tomorrow at 9 to X and at 3 to Y"). */
    void inheritDay(ScheduleFacts previous) {
        date = previous.date;
        explicitToday = previous.explicitToday;
        upcomingWeekday = previous.upcomingWeekday;
        nextWeekWeekday = previous.nextWeekWeekday;
        dayOfMonth = previous.dayOfMonth;
        if (!previous.elapsed) {
            offset = previous.offset;
        }
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
