package io.agentlab.examples.calendar;

import io.agentlab.plugins.calendar.CalendarSchedulePort;

/** The naive adapter under the same contract; run by {@link NaiveAdapterTest} (not named *Test on purpose). */
class NaiveRestCalendarContractFixture extends CalendarServiceContract {

    @Override
    public CalendarSchedulePort adapter() {
        return new NaiveRestCalendarAdapter(service.baseUrl());
    }
}
