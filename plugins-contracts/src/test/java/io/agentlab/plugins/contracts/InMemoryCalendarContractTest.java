package io.agentlab.plugins.contracts;

import io.agentlab.contracts.AdapterContract;
import io.agentlab.contracts.AdapterContractTests;
import io.agentlab.plugins.calendar.CalendarSchedulePort;
import io.agentlab.plugins.calendar.InMemoryCalendar;

/** The in-memory calendar keeps the calendar adapter contract (it has no outage states: those rules are skipped). */
@AdapterContract(CalendarSchedulePort.class)
class InMemoryCalendarContractTest implements AdapterContractTests<CalendarSchedulePort> {

    private final InMemoryCalendar calendar = new InMemoryCalendar();

    @Override
    public CalendarSchedulePort adapter() {
        return calendar;
    }
}
