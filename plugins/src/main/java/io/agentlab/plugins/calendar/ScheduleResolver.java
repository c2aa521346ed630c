package io.agentlab.plugins.calendar;

import static org.apiguardian.api.API.Status.INTERNAL;

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
import java.time.temporal.ChronoUnit;
import java.time.temporal.TemporalAdjusters;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apiguardian.api.API;

/**
 * Schedule arguments from English or Chinese, resolved against the session timezone and the captured request time
 * (never the wall clock), with {@code java.time} so DST transitions are exact:
 *
 * <ul>
 *   <li>"in 2 hours"/"两小时后" (also compound, fractional and whole-day amounts of hours or minutes) adds elapsed
 *       time to the request instant, then reads the local date and time; the later of a repeated DST hour is asked
 *       about;</li>
 *   <li>days ("tomorrow", "后天", "next Friday" = Friday of next week, "on Friday"/"周五" = the coming one) and
 *       dates ("December 5", "12月5日", "2026-12-05", "on the 5th") are calendar arithmetic in the zone;</li>
 *   <li>a part of the day without an hour is asked about; an hour is read inside its part ("晚上八点" → 20:00),
 *       with am/pm, or as a 24-hour clock when 13..23 or 0;</li>
 *   <li>clauses are grouped into requests and each same-name event reads its own
 *       ({@code docs/plugins.md#two-requests-stay-two}); words left unread that hold a number, a time word or a unit
 *       make it ask ({@code docs/plugins.md#safety-net});</li>
 *   <li>a bare hour 1..12 without am/pm or a part of the day is ambiguous: one focused question, never a guess;</li>
 *   <li>a time without a day is today, or tomorrow once it has passed; a weekly recurrence starts on its next day;
 *       an explicit "today" whose time has passed is asked about;</li>
 *   <li>a local time inside a DST gap moves forward by the gap (02:30 on a spring-forward night → 03:30).</li>
 * </ul>
 *
 * English titles are lower-cased (number words are digitized on the lower-cased text).
 */
@API(status = INTERNAL, since = "0.1")
public final class ScheduleResolver implements ArgumentResolver {

    /** Clauses about other built-in capabilities, farewells and thanks are left out of the request. */
    private static final Pattern OTHER_DOMAINS = Pattern.compile(
            "(?i)\\bvolume\\b|\\blouder\\b|\\bquieter\\b|\\bmute\\b|\\bturn (?:it|the sound) (?:up|down)\\b"
                    + "|\\bsearch\\b|\\blook up\\b|\\bgoodbye\\b|\\bbye\\b|\\bgood ?night\\b|^\\s*thanks?(?: you)?\\s*[.!]*$"
                    + "|音量|声音|静音|大声|小声|搜索|搜一下|查一下|再见|拜拜|晚安|^\\s*谢谢\\s*[。！]*$");
    /** A clause with its own time: it starts a new request when the one being read already has a time. */
    private static final Pattern WHEN = Pattern.compile(
            "\\b\\d{1,2}(?::\\d{2})?\\s*(?:am|pm|a\\.m\\.?|p\\.m\\.?)(?![a-z])|\\b\\d{1,2}:\\d{2}\\b|\\bnoon\\b|\\bmidnight\\b"
                    + "|o'?clock|\\b(?:half|quarter) (?:past|to) (?:\\d|midnight|noon)|\\bat \\d{1,2}\\b"
                    + "|\\bin (?:\\d+(?:\\.\\d+)?|an?|half an) (?:hours?|minutes?|mins?|hrs?)\\b"
                    + "|\\d{1,2}\\s*点|(?:\\d+|半)\\s*个?\\s*半?\\s*(?:小时|钟头|分钟|刻钟)\\s*(?:后|以后|之后)|过\\s*\\d+\\s*个?\\s*(?:小时|钟头|分钟)");
    /** Speech-recognizer homophones around a time: "at 3pm two call mom", "at for pm", "3 p m". */
    private static final Pattern EN_TO_HOMOPHONE = Pattern.compile(
            "((?:\\d|am|pm|a\\.m\\.?|p\\.m\\.?|o'clock|\\btomorrow|\\btoday|\\btonight|\\bnoon|\\bmidnight))\\s+(?:too|two)\\s+(?=[a-z])");
    private static final Pattern EN_FOR_HOMOPHONE = Pattern.compile("\\bat for\\s*(?=(?:am|pm|a\\.m|p\\.m|o'clock)\\b)");
    private static final Pattern EN_SPLIT_AMPM = Pattern.compile(
            "(\\d|\\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve))\\s*([ap])\\s+m\\b");
    private static final Pattern HAN_SPACE = Pattern.compile("(?<=\\p{IsHan})\\s+|\\s+(?=\\p{IsHan})");
    /**
     * Digits beside a Chinese numeral ("提前 30 两小时后", "1 两个小时"): once spaces go and numerals become digits they
     * read as one number (302, 12), so the words are asked about instead (docs/plugins.md#safety-net). A weekday's
     * numeral before a time ("周一9点", "星期三3点", "礼拜一8点") is none.
     */
    private static final Pattern GLUED_NUMBERS = Pattern.compile(
            "\\d\\s*[零〇一二两三四五六七八九十百千万]|(?<![周期拜])[零〇一二两三四五六七八九百千万]\\s*\\d");
    /** The schema's {@code reminder_minutes_before} maximum: one week. */
    static final int MAX_REMINDER_MINUTES = 7 * 24 * 60;

    @Override
    public Resolution resolve(ResolutionInput input) {
        String text = input.turn().userText();
        Language language = Language.of(text);
        Questions ask = new Questions(language);
        ZoneId zone = input.turn().timezone();
        List<String> requests = Clauses.requests(normalize(text, language), clause -> !OTHER_DOMAINS.matcher(clause).find(),
                clause -> WHEN.matcher(Numbers.digitize(clause)).find());
        Optional<String> request = Clauses.pick(requests, input.occurrence(), input.occurrences());
        if (requests.isEmpty()) {
            request = Optional.of(normalize(text, language));
        }
        if (request.isEmpty()) {
            return Resolution.ambiguous(Map.of("timezone", zone.getId()), ask.several(requests.size()));
        }
        Matcher glued = GLUED_NUMBERS.matcher(request.get());
        if (language == Language.CHINESE && glued.find()) {
            return Resolution.ambiguous(Map.of("timezone", zone.getId()), ask.notUnderstood(glued.group()))
                    .withSource(request.get());
        }
        int index = Math.max(0, requests.indexOf(request.get()));
        ZonedDateTime now = input.turn().requestedAt().atZone(zone).truncatedTo(ChronoUnit.MINUTES);
        ScheduleFacts facts = parse(requests.isEmpty() ? List.of(request.get()) : requests, index, language, now);
        Optional<String> leftover = Leftovers.find(facts.remainder(), language,
                EnumSet.of(Leftovers.Kind.TIME, Leftovers.Kind.UNIT), false)
                .or(() -> facts.title == null ? Optional.empty()
                        : Leftovers.find(facts.title, language, EnumSet.of(Leftovers.Kind.NUMBER), true));
        if (leftover.isPresent() || facts.conflictingDays() || facts.unclearOffset
                || facts.elapsed && (facts.hasClock() || facts.hasDay())) {
            // Part of the request was not understood: the date, time and title may all be wrong, so none is kept.
            return Resolution.ambiguous(Map.of("timezone", zone.getId()),
                    ask.notUnderstood(leftover.orElse(request.get()))).withSource(request.get());
        }
        return assemble(facts, now, zone, ask).withSource(request.get());
    }

    /** The facts of request {@code index}; a request that names no day takes the day of the one before it. */
    private static ScheduleFacts parse(List<String> requests, int index, Language language, ZonedDateTime now) {
        ScheduleFacts facts = new ScheduleFacts(Numbers.digitize(requests.get(index)).replaceAll("\\s+", " ").trim());
        if (language == Language.CHINESE) {
            ChineseSchedule.parse(facts, now.toLocalDate());
        } else {
            EnglishSchedule.parse(facts, now.toLocalDate());
        }
        facts.title = language == Language.CHINESE ? Titles.chinese(facts.remainder()) : Titles.english(facts.remainder());
        if (index > 0 && !facts.hasDay() && !facts.elapsed && facts.frequency == null) {
            ScheduleFacts previous = parse(requests, index - 1, language, now);
            if (previous.hasDay()) {
                facts.inheritDay(previous);
            }
        }
        return facts;
    }

    /** Speech-recognizer spellings read as meant; Chinese loses its spaces and the "一下" that is no number. */
    private static String normalize(String text, Language language) {
        if (language == Language.CHINESE) {
            return HAN_SPACE.matcher(text).replaceAll("").replace("记一下", "记下").replace("一下", "").replace("题型", "提醒");
        }
        String lower = text.toLowerCase(java.util.Locale.ROOT);
        lower = EN_TO_HOMOPHONE.matcher(lower).replaceAll("$1 to ");
        lower = EN_FOR_HOMOPHONE.matcher(lower).replaceAll("at 4 ");
        return EN_SPLIT_AMPM.matcher(lower).replaceAll("$1 $2m");
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
            if (facts.reminderMinutes > MAX_REMINDER_MINUTES) {
                // The schema's bound: a lead time past a week is more likely misheard than meant, so it is asked
                // about rather than clipped or dropped (docs/plugins.md#safety-net).
                return Resolution.ambiguous(arguments, ask.reminderTooEarly());
            }
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
        if (facts.elapsed) {
            ZonedDateTime at = now.plus(facts.offset); // elapsed time: exact across DST, even in whole days
            if (zone.getRules().getValidOffsets(at.toLocalDateTime()).size() > 1
                    && !at.getOffset().equals(at.withEarlierOffsetAtOverlap().getOffset())) {
                // The later of a repeated hour: a local date and time cannot say so, and the port would take the
                // earlier one — an hour off.
                return Resolution.ambiguous(arguments, ask.repeatedHour(at.toLocalTime().format(ScheduledEntry.CLOCK_TIME)));
            }
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
            if (date == null) {
                return Resolution.ambiguous(arguments, ask.invalidDate());
            }
        }
        if (facts.frequency == null && date.atTime(time).isBefore(now.toLocalDateTime())) {
            if (facts.explicitToday || facts.date != null) {
                return Resolution.ambiguous(arguments, ask.passed());
            }
            date = date.plusDays(1);
        }
        LocalDateTime local = ZonedDateTime.ofLocal(date.atTime(time), zone, null).toLocalDateTime();
        arguments.put("date", local.toLocalDate().toString());
        arguments.put("time", local.toLocalTime().format(ScheduledEntry.CLOCK_TIME));
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
            return candidate; // null: neither this month nor the next has that day
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

        String several(int count) {
            return language == Language.CHINESE ? "我听到了" + (count > 1 ? "好几个" : "") + "提醒，能一个一个地告诉我吗？"
                    : "I heard more than one reminder there — could you give them to me one at a time?";
        }

        String repeatedHour(String time) {
            return language == Language.CHINESE ? time + "那晚会出现两次，你指的是哪一个？"
                    : time + " happens twice that night — which one do you mean?";
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

        String reminderTooEarly() {
            return language == Language.CHINESE ? "要提前多久提醒你？最多可以提前一周。"
                    : "How long before should I remind you? At most a week ahead.";
        }

        String invalidDate() {
            return language == Language.CHINESE ? "这个日期不存在，你指的是哪一天？"
                    : "That date does not exist — which day did you mean?";
        }
    }
}
