package io.agentlab.plugins.calendar;

/** The calendar/reminder application port ({@code docs/design.md#plugin-schedule-port}). */
public interface CalendarSchedulePort {

    /**
     * Creates the entry, or returns the existing one for a repeated idempotency key.
     *
     * @throws io.agentlab.plugins.port.PortException when the calendar refuses or cannot be reached
     */
    ScheduledEntry create(ScheduleRequest request);
}
