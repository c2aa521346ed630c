package io.agentlab.plugins.calendar;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.time.OffsetDateTime;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * The entry as the calendar stored it.
 *
 * @param entryId the calendar's id
 * @param start   the absolute start (a local time inside a DST gap is moved forward by the gap)
 * @param created false when the idempotency key matched an existing entry
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record ScheduledEntry(String entryId, OffsetDateTime start, boolean created) {

    /**
     * How a resolved local time is written: in an entry's payload and port state, the confirmation and the resolver's
     * question about a repeated hour. (The normalizer writes what the model sent in the same shape, valid or not, for
     * the schema to judge.)
     */
    static final DateTimeFormatter CLOCK_TIME = DateTimeFormatter.ofPattern("HH:mm");

    /** Rejects nulls. */
    public ScheduledEntry {
        Objects.requireNonNull(entryId, "entryId");
        Objects.requireNonNull(start, "start");
    }

    /**
     * This entry of {@code request} as the handler's payload and the in-memory port's state both write it:
     * {@code entry_id}, {@code title}, {@code date}, {@code time}, {@code timezone}, {@code start}, then
     * {@code recurrence} and {@code reminder_minutes_before} when asked for. The local date and time are read back from
     * the stored start in the request's zone, so a time stored in the wrong zone shows.
     */
    Map<String, Object> fields(ScheduleRequest request) {
        ZonedDateTime local = start.atZoneSameInstant(request.timezone());
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("entry_id", entryId);
        fields.put("title", request.title());
        fields.put("date", local.toLocalDate().toString());
        fields.put("time", local.toLocalTime().format(CLOCK_TIME));
        fields.put("timezone", request.timezone().getId());
        fields.put("start", start.toString());
        request.recurrence().ifPresent(r -> fields.put("recurrence", r));
        request.reminderMinutesBefore().ifPresent(r -> fields.put("reminder_minutes_before", r));
        return fields;
    }
}
