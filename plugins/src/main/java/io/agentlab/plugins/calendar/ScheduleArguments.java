package io.agentlab.plugins.calendar;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.agentlab.kernel.api.ArgumentNormalizer;
import io.agentlab.kernel.api.ArgumentValidator;
import io.agentlab.kernel.api.ArgumentViolation;
import java.time.DateTimeException;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apiguardian.api.API;

/**
 * Normalization of model-proposed schedule arguments to the canonical forms the resolver produces ({@code 2026/12/4}
 * → {@code 2026-12-04}, {@code 3:30 pm} or {@code 15:30:00} → {@code 15:30}, {@code "10 minutes"} or {@code PT10M} →
 * {@code 10}, {@code weekly} → {@code FREQ=WEEKLY}), and validation the schema cannot express (a real date, a known
 * timezone).
 */
@API(status = INTERNAL, since = "0.1")
public final class ScheduleArguments {

    private static final Pattern DATE = Pattern.compile("^(\\d{4})[-/.](\\d{1,2})[-/.](\\d{1,2})$");
    private static final Pattern TIME = Pattern.compile(
            "^(\\d{1,2})(?:[:.](\\d{2}))?(?::\\d{2})?\\s*(am|pm|a\\.m\\.|p\\.m\\.)?$");
    private static final Pattern MINUTES = Pattern.compile("^(?:pt)?(\\d+)\\s*(m|min|mins|minutes?|h|hr|hrs|hours?)?$");

    private ScheduleArguments() {
    }

    /** The normalizer. */
    public static ArgumentNormalizer normalizer() {
        return ScheduleArguments::normalize;
    }

    /** The validator. */
    public static ArgumentValidator validator() {
        return arguments -> {
            List<ArgumentViolation> violations = new ArrayList<>();
            if (arguments.get("timezone") instanceof String zone) {
                try {
                    ZoneId.of(zone);
                } catch (DateTimeException e) {
                    violations.add(ArgumentViolation.of("timezone", "unknown timezone '" + zone + "'"));
                }
            }
            if (arguments.get("date") instanceof String date && DATE.matcher(date).matches()) {
                try {
                    LocalDate.parse(date);
                } catch (DateTimeException e) {
                    violations.add(ArgumentViolation.of("date", "no such date '" + date + "'"));
                }
            }
            return violations;
        };
    }

    static Map<String, Object> normalize(Map<String, Object> arguments) {
        Map<String, Object> out = new LinkedHashMap<>(arguments);
        if (out.get("title") instanceof String title) {
            out.put("title", title.strip());
        }
        if (out.get("date") instanceof String date) {
            Matcher m = DATE.matcher(date.strip());
            if (m.matches()) {
                out.put("date", String.format(Locale.ROOT, "%s-%02d-%02d", m.group(1),
                        Integer.parseInt(m.group(2)), Integer.parseInt(m.group(3))));
            }
        }
        if (out.get("time") instanceof String time) {
            Matcher m = TIME.matcher(time.strip().toLowerCase(Locale.ROOT));
            if (m.matches()) {
                int hour = Integer.parseInt(m.group(1));
                int minute = m.group(2) == null ? 0 : Integer.parseInt(m.group(2));
                if (m.group(3) != null && hour >= 1 && hour <= 12) {
                    boolean pm = m.group(3).startsWith("p");
                    hour = pm ? (hour == 12 ? 12 : hour + 12) : (hour == 12 ? 0 : hour);
                }
                // An hour without minutes or am/pm ("9") stays as it is: the schema rejects it, nothing is guessed.
                if (m.group(2) != null || m.group(3) != null) {
                    out.put("time", String.format(Locale.ROOT, "%02d:%02d", hour, minute));
                }
            }
        }
        Object reminder = out.get("reminder_minutes_before");
        if (reminder instanceof String text) {
            Matcher m = MINUTES.matcher(text.strip().toLowerCase(Locale.ROOT));
            if (m.matches() && m.group(1).length() < 7) {
                int amount = Integer.parseInt(m.group(1));
                out.put("reminder_minutes_before", m.group(2) != null && m.group(2).startsWith("h") ? amount * 60 : amount);
            }
        } else if (reminder instanceof Number number && !(reminder instanceof Integer)
                && number.doubleValue() == Math.rint(number.doubleValue()) && Math.abs(number.doubleValue()) < 1e6) {
            out.put("reminder_minutes_before", number.intValue());
        }
        if (out.get("recurrence") instanceof String recurrence) {
            String r = recurrence.strip().toUpperCase(Locale.ROOT).replaceFirst("^RRULE:", "");
            out.put("recurrence", switch (r) {
                case "DAILY", "EVERY DAY" -> "FREQ=DAILY";
                case "WEEKLY", "EVERY WEEK" -> "FREQ=WEEKLY";
                case "MONTHLY", "EVERY MONTH" -> "FREQ=MONTHLY";
                case "YEARLY", "ANNUALLY", "EVERY YEAR" -> "FREQ=YEARLY";
                case "WEEKDAYS" -> "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR";
                default -> r;
            });
        }
        return out;
    }
}
