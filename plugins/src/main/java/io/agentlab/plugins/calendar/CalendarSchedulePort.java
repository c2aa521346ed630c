package io.agentlab.plugins.calendar;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/** The calendar/reminder application port ({@code docs/design.md#plugin-schedule-port}). */
@API(status = EXPERIMENTAL, since = "0.1")
public interface CalendarSchedulePort {

    /**
     * Creates the entry, or returns the existing one for a repeated idempotency key.
     *
     * @throws io.agentlab.plugins.port.PortException when the calendar refuses or cannot be reached
     */
    ScheduledEntry create(ScheduleRequest request);
}
