package io.agentlab.plugins.calendar;

import java.time.DayOfWeek;
import java.time.LocalDate;
import java.time.Month;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** English phrase families of a schedule request (input already lower-cased and digitized). */
final class EnglishSchedule {

    private static final String DAY = "(mon|tues|tue|wednes|wens|wendes|thurs|thirs|fri|satur|sater|sun)day";
    private static final String MONTH = "(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\\.?";
    private static final String AMPM = "(a\\.?m\\.?|p\\.?m\\.?)";

    private static final Pattern WEEKDAYS = Pattern.compile(
            "\\b(?:every|each) (?:weekday|workday|working day)s?\\b|\\bon weekdays\\b|\\bweekdays\\b");
    private static final Pattern EVERY_DAY_OF_WEEK = Pattern.compile(
            "\\b(?:every|each) " + DAY + "s?(?:\\s*(?:and|,)\\s*" + DAY + "s?)?\\b|\\bon " + DAY + "s\\b");
    private static final Pattern DAILY = Pattern.compile(
            "\\b(?:every|each) (?:single )?(day|morning|afternoon|evening|night)\\b|\\bdaily\\b");
    private static final Pattern WEEKLY = Pattern.compile("\\b(?:every|each) week\\b|\\bweekly\\b");
    private static final Pattern MONTHLY = Pattern.compile("\\b(?:every|each) month\\b|\\bmonthly\\b");
    private static final Pattern YEARLY = Pattern.compile("\\b(?:every|each) year\\b|\\byearly\\b|\\bannually\\b");
    private static final ScheduleFacts.RecurrencePhrases RECURRENCE = new ScheduleFacts.RecurrencePhrases(
            WEEKDAYS, EVERY_DAY_OF_WEEK, DAILY, WEEKLY, MONTHLY, YEARLY,
            EnglishSchedule::days,
            m -> m.group(1) == null || m.group(1).equals("day") ? null : part(m.group(1)));
    private static final Pattern REMINDER = Pattern.compile(
            "(?:\\b(?:and )?remind me\\s+)?\\b(\\d+|an|a|half an)\\s*(minutes?|mins?|hours?|hrs?)\\s+"
                    + "(?:before|earlier|ahead|in advance|beforehand)\\b(?:\\s+it starts)?");
    /** "in 2 hours", "in 2.5 hours", "in three and a half hours", "in an hour and twenty minutes", "in 1 hour 30 minutes". */
    private static final Pattern OFFSET = Pattern.compile(
            "\\bin\\s+(\\d+(?:\\.\\d+)?|an|a|half an|a quarter of an|a quarter)(\\s+and a half)?\\s*"
                    + "(minutes?|mins?|hours?|hrs?|days?|weeks?)\\b(\\s+and a half\\b)?"
                    + "(?:,?\\s+(?:and\\s+)?(\\d+)\\s*(minutes?|mins?)\\b)?");
    private static final Pattern DAY_AFTER_TOMORROW = Pattern.compile("\\b(?:the )?day after tomorrow\\b");
    private static final Pattern TOMORROW = Pattern.compile("\\b(?:tomorrow|tomorow|tommorow|tommorrow|tmrw?|to morrow)\\b");
    private static final Pattern TODAY = Pattern.compile("\\btoday\\b");
    private static final Pattern TONIGHT = Pattern.compile("\\btonight\\b");
    private static final Pattern THIS_PART = Pattern.compile("\\bthis (morning|afternoon|evening)\\b");
    private static final Pattern NEXT_DAY = Pattern.compile("\\bnext " + DAY + "\\b");
    private static final Pattern UPCOMING_DAY = Pattern.compile(
            "\\b(?:(?:on|this|coming|this coming)\\s+)?" + DAY + "\\b");
    private static final Pattern VAGUE_WEEK = Pattern.compile("\\b(?:next|this) (?:week|weekend)\\b|\\bweekend\\b");
    private static final Pattern MONTH_DAY = Pattern.compile(
            "\\b(?:on\\s+)?" + MONTH + "\\s+(\\d{1,2})(?:st|nd|rd|th)?(?:,?\\s+(\\d{4}))?\\b");
    private static final Pattern DAY_MONTH = Pattern.compile(
            "\\b(?:on\\s+)?(?:the\\s+)?(\\d{1,2})(?:st|nd|rd|th)?\\s+(?:of\\s+)?" + MONTH + "(?:,?\\s+(\\d{4}))?\\b");
    private static final Pattern ISO_DATE = Pattern.compile("\\b(?:on\\s+)?(\\d{4})-(\\d{2})-(\\d{2})\\b");
    private static final Pattern DAY_OF_MONTH = Pattern.compile("\\bon the (\\d{1,2})(?:st|nd|rd|th)\\b");
    private static final Pattern CLOCK = Pattern.compile("\\b(?:at\\s+)?(\\d{1,2}):(\\d{2})\\s*" + AMPM + "?");
    private static final Pattern HOUR_AMPM = Pattern.compile("\\b(?:at\\s+)?(\\d{1,2})\\s*" + AMPM + "(?![a-z])");
    private static final Pattern HALF_PAST = Pattern.compile(
            "\\b(?:at\\s+)?(?:a\\s+)?(half|quarter) past (\\d{1,2}|midnight|noon)\\b|\\b(?:at\\s+)?(half) (\\d{1,2})\\b");
    private static final Pattern QUARTER_TO = Pattern.compile(
            "\\b(?:at\\s+)?(?:a\\s+)?quarter (?:to|of) (\\d{1,2}|midnight|noon)\\b");
    /** "at 15 00", "at 3 30 pm": a speech recognizer's clock without the colon. */
    private static final Pattern SPOKEN_CLOCK = Pattern.compile(
            "\\bat\\s+(\\d{1,2})\\s+([0-5]\\d)\\b\\s*" + AMPM + "?");
    private static final Pattern OCLOCK = Pattern.compile("\\b(?:at\\s+)?(\\d{1,2})\\s*o'?clock\\b");
    private static final Pattern AT_HOUR = Pattern.compile(
            "\\bat\\s+(\\d{1,2})\\b(?!\\s*(?:%|percent|minutes?|mins?|hours?|days?))");
    private static final Pattern NOON = Pattern.compile("\\b(?:at\\s+)?(?:noon|midday)\\b");
    private static final Pattern MIDNIGHT = Pattern.compile("\\b(?:at\\s+)?midnight\\b");
    private static final Pattern AMPM_MARKER = Pattern.compile("\\b" + AMPM + "(?![a-z])");
    private static final Pattern PART = Pattern.compile(
            "\\b(?:in the |this |at )?(morning|afternoon|evening|night)\\b");

    private EnglishSchedule() {
    }

    static void parse(ScheduleFacts facts, LocalDate today) {
        facts.recurrence(RECURRENCE);
        reminder(facts);
        offset(facts);
        dates(facts, today);
        clock(facts);
        Matcher part = facts.part == null ? facts.take(PART) : null;
        if (part != null) {
            facts.part = part(part.group(1));
        }
    }

    private static void reminder(ScheduleFacts facts) {
        Matcher m = facts.take(REMINDER);
        if (m != null) {
            facts.reminderMinutes = minutes(m.group(1), m.group(2));
        }
    }

    private static void offset(ScheduleFacts facts) {
        Matcher m = facts.take(OFFSET);
        if (m != null) {
            String unit = m.group(3);
            boolean andHalf = m.group(2) != null || m.group(4) != null;
            if (unit.startsWith("day") || unit.startsWith("week")) {
                if (andHalf || m.group(5) != null || m.group(1).contains(".")) {
                    facts.unclearOffset = true; // "in 2.5 days": not a calendar day, not said as elapsed time
                    return;
                }
                facts.offset = facts.offset.plusDays(amount(m.group(1)) * (unit.startsWith("week") ? 7 : 1));
                if (unit.startsWith("day")) {
                    facts.date = null;
                }
                return;
            }
            double amount = switch (m.group(1)) {
                case "an", "a" -> 1;
                case "half an" -> 0.5;
                case "a quarter of an", "a quarter" -> 0.25;
                default -> m.group(1).length() > 9 ? 1_000_000 : Double.parseDouble(m.group(1));
            };
            double minutes = (unit.startsWith("h") ? 60 : 1) * (amount + (andHalf ? 0.5 : 0));
            if (m.group(5) != null) {
                minutes += Math.min(Integer.parseInt(m.group(5).length() > 6 ? "999999" : m.group(5)), 999_999);
            }
            facts.offset = facts.offset.plusMinutes(Math.round(Math.min(minutes, 1e9)));
            facts.elapsed = true;
        }
    }

    private static final Pattern SOMETIME = Pattern.compile("\\bsometime(?=\\s+(?:today|tomorrow|tonight|on\\b|next\\b|this\\b))");

    private static void dates(ScheduleFacts facts, LocalDate today) {
        Matcher m;
        facts.take(SOMETIME); // "sometime tomorrow at 3pm": the day and time say when
        if ((m = facts.take(DAY_AFTER_TOMORROW)) != null) {
            facts.date = today.plusDays(2);
        } else if ((m = facts.take(TOMORROW)) != null) {
            facts.date = today.plusDays(1);
        } else if ((m = facts.take(TONIGHT)) != null) {
            facts.date = today;
            facts.explicitToday = true;
            facts.part = PartOfDay.NIGHT;
        } else if ((m = facts.take(THIS_PART)) != null) {
            facts.date = today;
            facts.explicitToday = true;
            facts.part = part(m.group(1));
        } else if ((m = facts.take(TODAY)) != null) {
            facts.date = today;
            facts.explicitToday = true;
        }
        if ((m = facts.take(ISO_DATE)) != null) {
            facts.date = facts.date(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)),
                    Integer.parseInt(m.group(3)));
        } else if ((m = facts.take(MONTH_DAY)) != null) {
            facts.date = monthDay(facts, month(m.group(1)), Integer.parseInt(m.group(2)), m.group(3), today);
        } else if ((m = facts.take(DAY_MONTH)) != null) {
            facts.date = monthDay(facts, month(m.group(2)), Integer.parseInt(m.group(1)), m.group(3), today);
        } else if ((m = facts.take(DAY_OF_MONTH)) != null) {
            facts.dayOfMonth = Integer.parseInt(m.group(1));
        }
        if (facts.frequency == null || facts.byDay.isEmpty()) {
            if ((m = facts.take(NEXT_DAY)) != null) {
                facts.nextWeekWeekday = day(m.group(1));
            } else if ((m = facts.take(UPCOMING_DAY)) != null) {
                facts.upcomingWeekday = day(m.group(1));
            } else if (facts.date == null && (m = facts.take(VAGUE_WEEK)) != null) {
                facts.dateQuestion = "Which day " + m.group().trim() + "?";
            }
        }
    }

    private static void clock(ScheduleFacts facts) {
        Matcher m;
        if ((m = facts.take(CLOCK)) != null) {
            facts.hour = Integer.parseInt(m.group(1));
            facts.minute = Integer.parseInt(m.group(2));
            facts.pm = m.group(3) == null ? null : m.group(3).startsWith("p");
        } else if ((m = facts.take(SPOKEN_CLOCK)) != null) {
            facts.hour = Integer.parseInt(m.group(1));
            facts.minute = Integer.parseInt(m.group(2));
            facts.pm = m.group(3) == null ? null : m.group(3).startsWith("p");
        } else if ((m = facts.take(HALF_PAST)) != null) {
            String fraction = m.group(1) != null ? m.group(1) : m.group(3);
            setHour(facts, m.group(2) != null ? m.group(2) : m.group(4));
            facts.minute = fraction.equals("half") ? 30 : 15;
        } else if ((m = facts.take(QUARTER_TO)) != null) {
            String to = m.group(1);
            if (to.equals("midnight")) {
                facts.hour = 23;
            } else if (to.equals("noon")) {
                facts.hour = 11;
                facts.pm = false;
            } else {
                int hour = Integer.parseInt(to);
                facts.hour = hour == 1 ? 12 : hour == 0 ? 23 : hour - 1;
            }
            facts.minute = 45;
        } else if ((m = facts.take(HOUR_AMPM)) != null) {
            facts.hour = Integer.parseInt(m.group(1));
            facts.pm = m.group(2).startsWith("p");
        } else if ((m = facts.take(OCLOCK)) != null) {
            facts.hour = Integer.parseInt(m.group(1));
        } else if ((m = facts.take(NOON)) != null) {
            facts.hour = 12;
            facts.pm = true;
        } else if ((m = facts.take(MIDNIGHT)) != null) {
            facts.midnight = true;
        } else if ((m = facts.take(AT_HOUR)) != null) {
            facts.hour = Integer.parseInt(m.group(1));
        }
        // "at 9 in the morning" and "at 3 pm" may both appear: a later am/pm marker still counts.
        if (facts.hour != null && facts.pm == null) {
            Matcher marker = facts.take(AMPM_MARKER);
            if (marker != null) {
                facts.pm = marker.group(1).startsWith("p");
            }
        }
    }

    /** An hour word of "half past": a number, midnight (0) or noon (12, pm). */
    private static void setHour(ScheduleFacts facts, String word) {
        if (word.equals("midnight")) {
            facts.hour = 0;
        } else if (word.equals("noon")) {
            facts.hour = 12;
            facts.pm = true;
        } else {
            facts.hour = Integer.parseInt(word);
        }
    }

    private static Set<DayOfWeek> days(Matcher m) {
        Set<DayOfWeek> days = EnumSet.noneOf(DayOfWeek.class);
        for (int g = 1; g <= m.groupCount(); g++) {
            if (m.group(g) != null) {
                days.add(day(m.group(g)));
            }
        }
        return days;
    }

    private static PartOfDay part(String word) {
        return switch (word) {
            case "morning" -> PartOfDay.MORNING;
            case "afternoon" -> PartOfDay.AFTERNOON;
            case "evening" -> PartOfDay.EVENING;
            default -> PartOfDay.NIGHT;
        };
    }

    private static DayOfWeek day(String prefix) {
        return switch (prefix.replaceAll("day$", "")) {
            case "mon" -> DayOfWeek.MONDAY;
            case "tues", "tue" -> DayOfWeek.TUESDAY;
            case "wednes", "wens", "wendes" -> DayOfWeek.WEDNESDAY;
            case "thurs", "thirs" -> DayOfWeek.THURSDAY;
            case "fri" -> DayOfWeek.FRIDAY;
            case "satur", "sater" -> DayOfWeek.SATURDAY;
            default -> DayOfWeek.SUNDAY;
        };
    }

    private static LocalDate monthDay(ScheduleFacts facts, Month month, int day, String year, LocalDate today) {
        return year == null ? facts.nextMonthDay(month.getValue(), day, today)
                : facts.date(Integer.parseInt(year), month.getValue(), day);
    }

    private static Month month(String word) {
        String prefix = word.substring(0, 3).toUpperCase(Locale.ROOT);
        for (Month month : Month.values()) {
            if (month.name().startsWith(prefix)) {
                return month;
            }
        }
        throw new IllegalStateException("pattern matched an unknown month: " + word);
    }

    private static long amount(String word) {
        return switch (word) {
            case "an", "a" -> 1;
            case "half an" -> 0;
            default -> word.length() > 6 ? 1_000_000 : Long.parseLong(word);
        };
    }

    static int minutes(String amountWord, String unit) {
        if (amountWord.equals("half an")) {
            return 30;
        }
        long amount = amount(amountWord);
        long minutes = unit.startsWith("h") ? amount * 60 : amount;
        return (int) Math.min(minutes, 1_000_000);
    }

}
