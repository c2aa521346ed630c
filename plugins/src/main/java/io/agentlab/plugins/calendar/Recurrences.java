package io.agentlab.plugins.calendar;

import io.agentlab.plugins.text.Language;
import java.time.DayOfWeek;
import java.time.format.TextStyle;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Human words for the RRULE subset the plugin produces. */
final class Recurrences {

    private Recurrences() {
    }

    static String describe(String rrule, Language language) {
        boolean zh = language == Language.CHINESE;
        if (rrule.equals("FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR")) {
            return zh ? "每个工作日" : "every weekday";
        }
        if (rrule.startsWith("FREQ=WEEKLY;BYDAY=")) {
            List<String> days = new ArrayList<>();
            for (String code : rrule.substring("FREQ=WEEKLY;BYDAY=".length()).split(",")) {
                DayOfWeek day = dayOf(code);
                days.add(zh ? "周" + "一二三四五六日".charAt(day.getValue() - 1)
                        : day.getDisplayName(TextStyle.FULL, Locale.ENGLISH));
            }
            return zh ? "每" + String.join("、", days) : "every " + String.join(" and ", days);
        }
        return switch (rrule) {
            case "FREQ=DAILY" -> zh ? "每天" : "every day";
            case "FREQ=WEEKLY" -> zh ? "每周" : "every week";
            case "FREQ=MONTHLY" -> zh ? "每月" : "every month";
            case "FREQ=YEARLY" -> zh ? "每年" : "every year";
            default -> rrule;
        };
    }

    private static DayOfWeek dayOf(String code) {
        for (DayOfWeek day : DayOfWeek.values()) {
            if (day.name().startsWith(code)) {
                return day;
            }
        }
        throw new IllegalArgumentException("not a BYDAY code: " + code);
    }
}
