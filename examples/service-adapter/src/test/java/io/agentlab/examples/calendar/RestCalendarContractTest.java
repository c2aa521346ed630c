package io.agentlab.examples.calendar;

import io.agentlab.plugins.calendar.CalendarSchedulePort;

/** The REST adapter keeps the calendar adapter contract against the service (WireMock stands in for it). */
class RestCalendarContractTest extends CalendarServiceContract {

    @Override
    public CalendarSchedulePort adapter() {
        return new RestCalendarAdapter(service.baseUrl());
    }
}
