package io.agentlab.examples.calendar;

import io.agentlab.engine.contract.AdapterContract;
import io.agentlab.engine.contract.AdapterContractTests;
import io.agentlab.plugins.calendar.CalendarSchedulePort;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** The naive adapter under the same contract; run by {@link NaiveAdapterTest} (not named *Test on purpose). */
@AdapterContract(CalendarSchedulePort.class)
class NaiveRestCalendarContractFixture implements AdapterContractTests<CalendarSchedulePort> {

    private static CalendarServiceStandIn service;

    @BeforeAll
    static void start() {
        service = new CalendarServiceStandIn();
    }

    @AfterAll
    static void stop() {
        service.close();
    }

    @Override
    public CalendarSchedulePort adapter() {
        return new NaiveRestCalendarAdapter(service.baseUrl());
    }

    @Override
    public void given(String state) {
        service.switchTo(state);
    }

    @Override
    public void reset() {
        service.switchTo("normal");
    }
}
