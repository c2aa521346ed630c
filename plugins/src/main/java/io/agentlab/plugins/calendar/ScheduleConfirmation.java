package io.agentlab.plugins.calendar;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.agentlab.kernel.api.ConfirmationTemplate;
import io.agentlab.plugins.text.Language;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.time.format.TextStyle;
import java.util.Locale;
import java.util.Map;
import org.apiguardian.api.API;

/**
 * The deterministic confirmation ({@code docs/design.md#plugin-schedule-confirmation}): normalized date, time and title
 * in the user's language, no LLM call.
 * "Added "dentist" on Friday, December 4 at 15:00, every Monday, reminder 10 minutes before." /
 * "好的，已添加日程：12月4日（星期五）15:00「看牙医」，每周一重复，提前10分钟提醒。"
 */
@API(status = INTERNAL, since = "0.1")
public final class ScheduleConfirmation implements ConfirmationTemplate {

    /** "Monday, March 2": the English confirmation's date. */
    private static final DateTimeFormatter ENGLISH_DAY = DateTimeFormatter.ofPattern("EEEE, MMMM d", Locale.ENGLISH);

    @Override
    public String render(Map<String, Object> arguments, Map<String, Object> payload, Locale locale) {
        String title = String.valueOf(arguments.get("title"));
        LocalDate date = LocalDate.parse(String.valueOf(payload.getOrDefault("date", arguments.get("date"))));
        LocalTime time = LocalTime.parse(String.valueOf(payload.getOrDefault("time", arguments.get("time"))));
        String recurrence = (String) arguments.get("recurrence");
        Object reminder = arguments.get("reminder_minutes_before");
        String hhmm = time.format(ScheduledEntry.CLOCK_TIME);
        if (Language.of(locale) == Language.CHINESE) {
            StringBuilder out = new StringBuilder("好的，已添加日程：")
                    .append(date.getMonthValue()).append("月").append(date.getDayOfMonth()).append("日（")
                    .append(date.getDayOfWeek().getDisplayName(TextStyle.FULL, Locale.CHINESE)).append("）")
                    .append(hhmm).append("「").append(title).append("」");
            if (recurrence != null) {
                out.append("，").append(Recurrences.describe(recurrence, Language.CHINESE)).append("重复");
            }
            if (reminder != null) {
                out.append("，提前").append(reminder).append("分钟提醒");
            }
            return out.append("。").toString();
        }
        StringBuilder out = new StringBuilder("Added \"").append(title).append("\" on ")
                .append(date.format(ENGLISH_DAY))
                .append(" at ").append(hhmm);
        if (recurrence != null) {
            out.append(", repeating ").append(Recurrences.describe(recurrence, Language.ENGLISH));
        }
        if (reminder != null) {
            out.append(", with a reminder ").append(reminder).append(" minutes before");
        }
        return out.append('.').toString();
    }
}
