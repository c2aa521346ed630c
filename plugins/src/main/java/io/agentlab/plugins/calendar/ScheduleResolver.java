package io.agentlab.plugins.calendar;

import io.agentlab.kernel.api.ArgumentResolver;
import io.agentlab.kernel.api.Resolution;
import io.agentlab.kernel.api.ResolutionInput;
import io.agentlab.plugins.text.Clauses;
import io.agentlab.plugins.text.Language;
import io.agentlab.plugins.text.Leftovers;
import io.agentlab.plugins.text.Numbers;
import java.time.DayOfWeek;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.time.temporal.TemporalAdjusters;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Schedule arguments from English or Chinese, resolved against the session timezone and the captured request time
 * (never the wall clock), with {@code java.time} so DST transitions are exact:
 *
 * <ul>
 *   <li>"in 2 hours"/"两小时后" adds elapsed time to the request instant, then reads the local date and time;</li>
 *   <li>days ("tomorrow", "后天", "next Friday" = Friday of next week, "on Friday"/"周五" = the coming one) and
 *       dates ("December 5", "12月5日", "2026-12-05", "on the 5th") are calendar arithmetic in the zone;</li>
 *   <li>a part of the day without an hour takes its documented default ({@link PartOfDay}); an hour is read inside
 *       its part ("晚上八点" → 20:00), with am/pm, or as a 24-hour clock when 13..23 or 0;</li>
 *   <li>a bare hour 1..12 without am/pm or a part of the day is ambiguous: one focused question, never a guess;</li>
 *   <li>a time without a day is today, or tomorrow once it has passed; a weekly recurrence starts on its next day;
 *       an explicit "today" whose time has passed is asked about;</li>
 *   <li>a local time inside a DST gap moves forward by the gap (02:30 on a spring-forward night → 03:30).</li>
 * </ul>
 *
 * English titles are lower-cased (number words are digitized on the lower-cased text).
 */
public final class ScheduleResolver implements ArgumentResolver {

    /** Clauses about other built-in capabilities are left out of the title. */
    private static final Pattern OTHER_DOMAINS = Pattern.compile(
            "(?i)\\bvolume\\b|\\blouder\\b|\\bquieter\\b|\\bmute\\b|\\bturn (?:it|the sound) (?:up|down)\\b"
                    + "|\\bsearch\\b|\\blook up\\b|\\bgoodbye\\b|\\bbye\\b|\\bgood ?night\\b"
                    + "|音量|声音|静音|大声|小声|搜索|搜一下|查一下|再见|拜拜");
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm");

    @Override
    public Resolution resolve(ResolutionInput input) {
        String raw = Clauses.withoutMatching(input.turn().userText(), OTHER_DOMAINS);
        Language language = Language.of(raw);
        ZoneId zone = input.turn().timezone();
        ZonedDateTime now = input.turn().requestedAt().atZone(zone).truncatedTo(ChronoUnit.MINUTES);
        ScheduleFacts facts = new ScheduleFacts(Numbers.digitize(raw).replaceAll("\\s+", " ").trim());
        if (language == Language.CHINESE) {
            ChineseSchedule.parse(facts, now.toLocalDate());
        } else {
            EnglishSchedule.parse(facts, now.toLocalDate());
        }
        facts.title = language == Language.CHINESE ? Titles.chinese(facts.remainder()) : Titles.english(facts.remainder());
        Optional<String> leftover = Leftovers.find(facts.remainder(), language,
                EnumSet.of(Leftovers.Kind.NUMBER, Leftovers.Kind.TIME, Leftovers.Kind.UNIT), true);
        Questions ask = new Questions(language);
        if (leftover.isPresent()) {
            // Part of the request was not understood: the date, time and title may all be wrong, so none is kept.
            return Resolution.ambiguous(Map.of("timezone", zone.getId()), ask.notUnderstood(leftover.get()));
        }
        return assemble(facts, now, zone, ask);
    }

    private static Resolution assemble(ScheduleFacts facts, ZonedDateTime now, ZoneId zone, Questions ask) {
        Map<String, Object> arguments = new LinkedHashMap<>();
        if (facts.title != null) {
            arguments.put("title", facts.title);
        }
        arguments.put("timezone", zone.getId());
        String recurrence = facts.recurrence();
        if (recurrence != null) {
            arguments.put("recurrence", recurrence);
        }
        if (facts.reminderMinutes != null) {
            arguments.put("reminder_minutes_before", facts.reminderMinutes);
        }
        if (facts.invalidDate) {
            return Resolution.ambiguous(arguments, ask.invalidDate());
        }
        if (facts.dateQuestion != null) {
            return Resolution.ambiguous(arguments, facts.dateQuestion); // already in the parser's language
        }

        LocalDate date = facts.date;
        LocalTime time = null;
        boolean hasElapsedOffset = facts.offset.toSeconds() % 86_400 != 0;
        if (hasElapsedOffset && !facts.hasClock()) {
            ZonedDateTime at = now.plus(facts.offset); // elapsed time: exact across DST
            date = at.toLocalDate();
            time = at.toLocalTime();
        } else {
            if (!facts.offset.isZero()) {
                date = now.toLocalDate().plusDays(facts.offset.toDays());
            }
            if (facts.midnight) {
                time = LocalTime.MIDNIGHT;
                date = (date == null ? now.toLocalDate() : date).plusDays(1); // "at midnight" ends the day
            } else if (facts.hour != null) {
                Integer hour24 = hour24(facts);
                if (hour24 == null) {
                    return Resolution.ambiguous(arguments, ask.amOrPm(facts.hour));
                }
                if (hour24 == 24) {
                    hour24 = 0;
                    date = (date == null ? now.toLocalDate() : date).plusDays(1);
                }
                if (hour24 > 23 || facts.minute > 59) {
                    return Resolution.ambiguous(arguments, ask.whatTime());
                }
                time = LocalTime.of(hour24, facts.minute);
            } else {
                if (date != null) {
                    arguments.put("date", date.toString());
                }
                return Resolution.ambiguous(arguments, ask.whatTime());
            }
            date = day(facts, date, time, now);
        }
        if (facts.frequency == null && date.atTime(time).isBefore(now.toLocalDateTime())) {
            if (facts.explicitToday || facts.date != null) {
                return Resolution.ambiguous(arguments, ask.passed());
            }
            date = date.plusDays(1);
        }
        LocalDateTime local = ZonedDateTime.ofLocal(date.atTime(time), zone, null).toLocalDateTime();
        arguments.put("date", local.toLocalDate().toString());
        arguments.put("time", local.toLocalTime().format(TIME));
        if (!arguments.containsKey("title")) {
            return Resolution.ambiguous(arguments, ask.whatTitle());
        }
        return Resolution.of(arguments);
    }

    /** The 24-hour hour, 24 for midnight at the end of the day, or null when the hour is ambiguous. */
    private static Integer hour24(ScheduleFacts facts) {
        int hour = facts.hour;
        if (facts.pm != null) {
            if (hour < 1 || hour > 12) {
                return hour; // "15 pm": left for the range check
            }
            return facts.pm ? (hour == 12 ? 12 : hour + 12) : (hour == 12 ? 0 : hour);
        }
        if (facts.part != null) {
            return hour > 12 ? hour : facts.part.hour24(hour);
        }
        if (hour == 0 || hour >= 13) {
            return hour;
        }
        return null;
    }

    /** The day when the utterance named a weekday, a day of the month or a weekly recurrence but no date. */
    private static LocalDate day(ScheduleFacts facts, LocalDate date, LocalTime time, ZonedDateTime now) {
        if (date != null) {
            return date;
        }
        LocalDate today = now.toLocalDate();
        boolean laterToday = time.isAfter(now.toLocalTime());
        if (facts.nextWeekWeekday != null) {
            return today.with(DayOfWeek.MONDAY).plusWeeks(1).with(facts.nextWeekWeekday);
        }
        DayOfWeek weekday = facts.upcomingWeekday;
        if (weekday == null && !facts.byDay.isEmpty()) {
            weekday = facts.byDay.stream().filter(d -> d != today.getDayOfWeek() || laterToday)
                    .min((a, b) -> Integer.compare(distance(today, a), distance(today, b)))
                    .orElse(facts.byDay.iterator().next());
        }
        if (weekday != null) {
            LocalDate candidate = today.with(TemporalAdjusters.nextOrSame(weekday));
            return candidate.equals(today) && !laterToday ? candidate.plusWeeks(1) : candidate;
        }
        if (facts.dayOfMonth > 0) {
            LocalDate candidate = safeDayOfMonth(today, facts.dayOfMonth);
            if (candidate == null || candidate.isBefore(today) || candidate.equals(today) && !laterToday) {
                candidate = safeDayOfMonth(today.plusMonths(1).withDayOfMonth(1), facts.dayOfMonth);
            }
            return candidate == null ? today : candidate;
        }
        return laterToday ? today : today.plusDays(1);
    }

    private static int distance(LocalDate today, DayOfWeek day) {
        return (day.getValue() - today.getDayOfWeek().getValue() + 7) % 7;
    }

    private static LocalDate safeDayOfMonth(LocalDate month, int day) {
        return day <= month.lengthOfMonth() ? month.withDayOfMonth(day) : null;
    }

    /** The focused questions, in the user's language. */
    private record Questions(Language language) {
        String amOrPm(int hour) {
            return language == Language.CHINESE ? "是上午" + hour + "点还是晚上" + hour + "点？"
                    : "Is that " + hour + " in the morning or " + hour + " in the evening?";
        }

        String notUnderstood(String word) {
            return language == Language.CHINESE ? "我没听懂“" + word + "”这部分，能再说一遍要提醒的时间和事情吗？"
                    : "I didn't catch the \"" + word + "\" part — could you say again when and what to remind you of?";
        }

        String whatTime() {
            return language == Language.CHINESE ? "要定在几点？" : "What time should I set it for?";
        }

        String whatTitle() {
            return language == Language.CHINESE ? "要提醒你什么事？" : "What should the reminder say?";
        }

        String passed() {
            return language == Language.CHINESE ? "这个时间已经过了，要改到什么时候？"
                    : "That time has already passed — when should it be?";
        }

        String invalidDate() {
            return language == Language.CHINESE ? "这个日期不存在，你指的是哪一天？"
                    : "That date does not exist — which day did you mean?";
        }
    }
}
