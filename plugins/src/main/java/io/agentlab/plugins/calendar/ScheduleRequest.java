package io.agentlab.plugins.calendar;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneId;
import java.util.Objects;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * A calendar entry to create, in the user's local terms ({@code docs/design.md#plugin-schedule-port}: an explicit user
 * and time-zone contract).
 *
 * @param sessionId              the session (identifies the user)
 * @param title                  what it is
 * @param date                   local date
 * @param time                   local time
 * @param timezone               the zone the local date and time are in
 * @param recurrence             an RFC 5545 RRULE subset, e.g. {@code FREQ=WEEKLY;BYDAY=MO}
 * @param reminderMinutesBefore  reminder offset in minutes
 * @param idempotencyKey         the same key for a retransmission: the adapter must create one entry
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record ScheduleRequest(String sessionId, String title, LocalDate date, LocalTime time, ZoneId timezone,
                              Optional<String> recurrence, Optional<Integer> reminderMinutesBefore,
                              String idempotencyKey) {
    /** Rejects nulls. */
    public ScheduleRequest {
        Objects.requireNonNull(sessionId, "sessionId");
        Objects.requireNonNull(title, "title");
        Objects.requireNonNull(date, "date");
        Objects.requireNonNull(time, "time");
        Objects.requireNonNull(timezone, "timezone");
        Objects.requireNonNull(recurrence, "recurrence");
        Objects.requireNonNull(reminderMinutesBefore, "reminderMinutesBefore");
        Objects.requireNonNull(idempotencyKey, "idempotencyKey");
    }
}
