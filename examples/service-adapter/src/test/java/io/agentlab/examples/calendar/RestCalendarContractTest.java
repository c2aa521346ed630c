package io.agentlab.examples.calendar;

import io.agentlab.engine.contract.AdapterContract;
import io.agentlab.engine.contract.AdapterContractTests;
import io.agentlab.plugins.calendar.CalendarSchedulePort;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** The REST adapter keeps the calendar adapter contract against the service (WireMock stands in for it). */
@AdapterContract(CalendarSchedulePort.class)
class RestCalendarContractTest implements AdapterContractTests<CalendarSchedulePort> {

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
        return new RestCalendarAdapter(service.baseUrl());
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
