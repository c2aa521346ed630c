package io.agentlab.plugins.calendar;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.agentlab.kernel.api.EventDefinition;
import io.agentlab.kernel.api.EventPlugin;
import io.agentlab.kernel.api.PortState;
import io.agentlab.kernel.api.ResultPolicy;
import io.agentlab.plugins.port.PortCalls;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneId;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * {@code calendar.schedule.create} ({@code docs/design.md#plugin-schedule-create}): policy {@code template_follow_up}
 * with a deterministic confirmation, side-effecting and never retried; the kernel's idempotency key (session, turn,
 * event id, normalized arguments) goes to the port so a retransmission creates one entry.
 */
@API(status = INTERNAL, since = "0.1")
public final class CalendarPlugin implements EventPlugin {

    /** The event name. */
    public static final String NAME = "calendar.schedule.create";
    /** The arguments' schema; the reminder's bound is the resolver's, written with {@link Integer#toString(int)}: a
     * format's {@code %d} would write the default locale's digits (Arabic-Indic under ar-EG), which JSON is not. */
    static final String SCHEMA = """
            {"type":"object",
             "properties":{
               "title":{"type":"string","minLength":1,"maxLength":200,"description":"what to remember"},
               "date":{"type":"string","pattern":"^[0-9]{4}-[0-9]{2}-[0-9]{2}$","description":"local date YYYY-MM-DD"},
               "time":{"type":"string","pattern":"^([01][0-9]|2[0-3]):[0-5][0-9]$","description":"local time HH:MM, 24h"},
               "timezone":{"type":"string","minLength":1,"description":"IANA timezone, e.g. Asia/Shanghai"},
               "recurrence":{"type":"string",
                 "pattern":"^FREQ=(DAILY|WEEKLY|MONTHLY|YEARLY)(;BYDAY=(MO|TU|WE|TH|FR|SA|SU)(,(MO|TU|WE|TH|FR|SA|SU))*)?$",
                 "description":"RRULE subset, e.g. FREQ=WEEKLY;BYDAY=MO"},
               "reminder_minutes_before":{"type":"integer","minimum":0,"maximum":MAX_REMINDER_MINUTES}},
             "required":["title","date","time","timezone"],
             "additionalProperties":false}"""
            .replace("MAX_REMINDER_MINUTES", Integer.toString(ScheduleResolver.MAX_REMINDER_MINUTES));

    private final EventDefinition definition;
    private final CalendarSchedulePort port;

    /** With an in-memory calendar (for discovery through {@link java.util.ServiceLoader}). */
    public CalendarPlugin() {
        this(new InMemoryCalendar());
    }

    /** With the given port. */
    public CalendarPlugin(CalendarSchedulePort port) {
        this.port = Objects.requireNonNull(port, "port");
        this.definition = EventDefinition.builder(NAME)
                .schemaVersion("1.0.0")
                .description("Add a reminder or calendar entry at a date and time, optionally repeating.")
                .argumentsSchema(SCHEMA)
                .resolver(new ScheduleResolver())
                .normalizer(ScheduleArguments.normalizer())
                .validator(ScheduleArguments.validator())
                .fallbackAllowed(true)
                .handler(invocation -> PortCalls.call(() -> {
                    Map<String, Object> a = invocation.arguments();
                    ZoneId zone = ZoneId.of((String) a.get("timezone"));
                    ScheduleRequest request = new ScheduleRequest(invocation.turn().scope().sessionId(),
                            (String) a.get("title"), LocalDate.parse((String) a.get("date")),
                            LocalTime.parse((String) a.get("time")), zone,
                            Optional.ofNullable((String) a.get("recurrence")),
                            Optional.ofNullable((Integer) a.get("reminder_minutes_before")),
                            invocation.idempotencyKey());
                    ScheduledEntry entry = port.create(request);
                    Map<String, Object> payload = entry.fields(request);
                    payload.put("created", entry.created());
                    return payload;
                }))
                .resultPolicy(ResultPolicy.TEMPLATE_FOLLOW_UP)
                .confirmationTemplate(new ScheduleConfirmation())
                .build();
    }

    @Override
    public EventDefinition definition() {
        return definition;
    }

    /** The calendar's entries, when its port shows them ({@link InMemoryCalendar} does). */
    @Override
    public Optional<PortState> portState() {
        return port instanceof PortState state ? Optional.of(state) : Optional.empty();
    }
}
