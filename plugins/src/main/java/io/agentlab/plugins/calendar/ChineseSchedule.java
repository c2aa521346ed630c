package io.agentlab.plugins.calendar;

import java.time.DayOfWeek;
import java.time.LocalDate;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Chinese phrase families of a schedule request. The input is digitized, so "下周五" arrives as "下周5" and
 * "八点半" as "8点半"; weekday digits 1..7 and 日/天 are read as Monday..Sunday.
 */
final class ChineseSchedule {

    private static final String WEEK = "(?:周|星期|礼拜)";
    private static final String WEEKDAY = "([1-7日天])";

    private static final Pattern WEEKDAYS = Pattern.compile("每个?工作日|工作日");
    private static final Pattern EVERY_WEEKDAY = Pattern.compile("每个?" + WEEK + WEEKDAY + "(?:和" + WEEK + "?" + WEEKDAY + ")?");
    private static final Pattern DAILY = Pattern.compile("每天|每日|天天|每晚|每早");
    private static final Pattern WEEKLY = Pattern.compile("每个?" + WEEK);
    private static final Pattern MONTHLY = Pattern.compile("每个?月");
    private static final Pattern YEARLY = Pattern.compile("每年");
    private static final ScheduleFacts.RecurrencePhrases RECURRENCE = new ScheduleFacts.RecurrencePhrases(
            WEEKDAYS, EVERY_WEEKDAY, DAILY, WEEKLY, MONTHLY, YEARLY,
            m -> m.group(2) == null ? Set.of(day(m.group(1))) : Set.of(day(m.group(1)), day(m.group(2))),
            m -> m.group().equals("每晚") ? PartOfDay.NIGHT : m.group().equals("每早") ? PartOfDay.MORNING : null);
    private static final Pattern REMINDER = Pattern.compile(
            "提前\\s*(\\d+|半)\\s*(分钟|分|个?小时|个?钟头)(?:提醒我?)?|(\\d+)\\s*分钟前提醒我?");
    /** "两小时后", "两个半小时后", "一小时二十分钟后", "2.5小时后", "一刻钟后", "过两个小时". */
    private static final Pattern OFFSET = Pattern.compile(
            "(?:(过)\\s*)?(\\d+(?:\\.\\d+)?|半)\\s*个?\\s*(半)?\\s*(小时|钟头|分钟|分|刻钟|天|周|星期)"
                    + "(?:\\s*(\\d+)\\s*(?:分钟|分))?\\s*(以后|之后|后)?");
    private static final Pattern DAY_WORDS = Pattern.compile("大后天|后天|明天|明早|明晚|明儿|今天|今早|今晚|今儿");
    private static final Pattern NEXT_WEEKDAY = Pattern.compile("下个?" + WEEK + WEEKDAY);
    private static final Pattern THIS_WEEKDAY = Pattern.compile("(?:这|本)个?" + WEEK + WEEKDAY);
    private static final Pattern WEEKDAY_ONLY = Pattern.compile(WEEK + WEEKDAY);
    private static final Pattern VAGUE_WEEK = Pattern.compile("下个?" + WEEK + "|这个?" + WEEK + "|周末");
    private static final Pattern FULL_DATE = Pattern.compile("(\\d{4})年(\\d{1,2})月(\\d{1,2})[日号]");
    private static final Pattern MONTH_DAY = Pattern.compile("(\\d{1,2})月(\\d{1,2})[日号]");
    private static final Pattern NEXT_MONTH_DAY = Pattern.compile("下个?月(\\d{1,2})[日号]");
    private static final Pattern DAY_OF_MONTH = Pattern.compile("(\\d{1,2})[日号]");
    private static final Pattern CLOCK = Pattern.compile("(\\d{1,2})\\s*:\\s*(\\d{2})");
    private static final Pattern HOUR = Pattern.compile(
            "(\\d{1,2})\\s*点(?:钟)?\\s*(?:([13])\\s*刻|(半)(?:钟)?|(\\d{1,2})\\s*(?:分钟|分)?|(整))?");
    /** "四点差一刻", "八点差五分": a quarter or some minutes before the hour. */
    private static final Pattern HOUR_LESS = Pattern.compile("(\\d{1,2})\\s*点\\s*差\\s*(?:([13])\\s*刻|(\\d{1,2})\\s*(?:分钟|分)?)");
    private static final Pattern PART = Pattern.compile("凌晨|早上|早晨|清晨|上午|中午|下午|傍晚|晚上|夜里|夜间|晚间");

    private ChineseSchedule() {
    }

    static void parse(ScheduleFacts facts, LocalDate today) {
        facts.recurrence(RECURRENCE);
        reminder(facts);
        offset(facts);
        dates(facts, today);
        clock(facts);
        Matcher part = facts.take(PART); // consumed even when 今晚/明早 already set the part
        if (part != null && facts.part == null) {
            facts.part = part(part.group());
        }
    }

    private static void reminder(ScheduleFacts facts) {
        Matcher m = facts.take(REMINDER);
        if (m != null) {
            if (m.group(3) != null) {
                facts.reminderMinutes = bounded(m.group(3));
            } else {
                int amount = m.group(1).equals("半") ? 30 : bounded(m.group(1));
                boolean hours = m.group(2).contains("时") || m.group(2).contains("钟头");
                facts.reminderMinutes = m.group(1).equals("半") ? 30 : hours ? amount * 60 : amount;
            }
        }
    }

    private static void offset(ScheduleFacts facts) {
        Matcher m = facts.take(OFFSET);
        if (m == null) {
            return;
        }
        if (m.group(1) == null && m.group(6) == null) {
            facts.release(m); // "三天" without 后 or 过 is no offset
            return;
        }
        String unit = m.group(4);
        boolean andHalf = m.group(3) != null;
        if (unit.equals("天") || unit.equals("周") || unit.equals("星期")) {
            if (andHalf || m.group(5) != null || m.group(2).contains(".") || m.group(2).equals("半")) {
                facts.unclearOffset = true;
                return;
            }
            facts.offset = facts.offset.plusDays(bounded(m.group(2)) * (unit.equals("天") ? 1L : 7L));
            return;
        }
        double amount = m.group(2).equals("半") ? 0.5 : m.group(2).length() > 9 ? 1_000_000 : Double.parseDouble(m.group(2));
        double perUnit = switch (unit) {
            case "小时", "钟头" -> 60;
            case "刻钟" -> 15;
            default -> 1;
        };
        double minutes = perUnit * (amount + (andHalf ? 0.5 : 0));
        if (m.group(5) != null) {
            minutes += bounded(m.group(5));
        }
        facts.offset = facts.offset.plusMinutes(Math.round(Math.min(minutes, 1e9)));
        facts.elapsed = true;
    }

    private static void dates(ScheduleFacts facts, LocalDate today) {
        Matcher m = facts.take(DAY_WORDS);
        if (m != null) {
            switch (m.group()) {
                case "大后天" -> facts.date = today.plusDays(3);
                case "后天" -> facts.date = today.plusDays(2);
                case "明天", "明儿" -> facts.date = today.plusDays(1);
                case "明早" -> {
                    facts.date = today.plusDays(1);
                    facts.part = PartOfDay.MORNING;
                }
                case "明晚" -> {
                    facts.date = today.plusDays(1);
                    facts.part = PartOfDay.NIGHT;
                }
                case "今早" -> {
                    facts.date = today;
                    facts.explicitToday = true;
                    facts.part = PartOfDay.MORNING;
                }
                case "今晚" -> {
                    facts.date = today;
                    facts.explicitToday = true;
                    facts.part = PartOfDay.NIGHT;
                }
                default -> {
                    facts.date = today;
                    facts.explicitToday = true;
                }
            }
        }
        if ((m = facts.take(FULL_DATE)) != null) {
            facts.date = facts.date(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)),
                    Integer.parseInt(m.group(3)));
        } else if ((m = facts.take(MONTH_DAY)) != null) {
            facts.date = facts.nextMonthDay(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)), today);
        } else if ((m = facts.take(NEXT_MONTH_DAY)) != null) {
            LocalDate next = today.plusMonths(1);
            facts.date = facts.date(next.getYear(), next.getMonthValue(), Integer.parseInt(m.group(1)));
        } else if ((m = facts.take(DAY_OF_MONTH)) != null) {
            facts.dayOfMonth = Integer.parseInt(m.group(1));
        }
        if (facts.frequency == null || facts.byDay.isEmpty()) {
            if ((m = facts.take(NEXT_WEEKDAY)) != null) {
                facts.nextWeekWeekday = day(m.group(1));
            } else if ((m = facts.take(THIS_WEEKDAY)) != null) {
                facts.upcomingWeekday = day(m.group(1));
            } else if ((m = facts.take(WEEKDAY_ONLY)) != null) {
                facts.upcomingWeekday = day(m.group(1));
            } else if (facts.date == null && (m = facts.take(VAGUE_WEEK)) != null) {
                facts.dateQuestion = m.group().equals("周末") ? "周末哪一天？" : m.group() + "哪一天？";
            }
        }
    }

    private static void clock(ScheduleFacts facts) {
        Matcher m;
        if ((m = facts.take(CLOCK)) != null) {
            facts.hour = Integer.parseInt(m.group(1));
            facts.minute = Integer.parseInt(m.group(2));
            return;
        }
        if ((m = facts.take(HOUR_LESS)) != null) {
            int hour = Integer.parseInt(m.group(1));
            int less = m.group(2) != null ? Integer.parseInt(m.group(2)) * 15 : Integer.parseInt(m.group(3));
            if (less < 1 || less > 59) {
                facts.hour = 99; // left for the range check: asked
                return;
            }
            facts.hour = hour == 0 ? 23 : hour - 1;
            facts.minute = 60 - less;
            return;
        }
        if ((m = facts.take(HOUR)) != null) {
            facts.hour = Integer.parseInt(m.group(1));
            if (m.group(2) != null) {
                facts.minute = Integer.parseInt(m.group(2)) * 15;
            } else if (m.group(3) != null) {
                facts.minute = 30;
            } else if (m.group(4) != null) {
                facts.minute = Integer.parseInt(m.group(4));
            }
        }
    }

    private static PartOfDay part(String word) {
        return switch (word) {
            case "凌晨" -> PartOfDay.EARLY_MORNING;
            case "早上", "早晨", "清晨", "上午" -> PartOfDay.MORNING;
            case "中午" -> PartOfDay.NOON;
            case "下午" -> PartOfDay.AFTERNOON;
            case "傍晚" -> PartOfDay.EVENING;
            default -> PartOfDay.NIGHT;
        };
    }

    private static DayOfWeek day(String symbol) {
        return switch (symbol) {
            case "日", "天", "7" -> DayOfWeek.SUNDAY;
            default -> DayOfWeek.of(Integer.parseInt(symbol));
        };
    }

    private static int bounded(String digits) {
        return digits.length() > 6 ? 1_000_000 : Integer.parseInt(digits);
    }
}
