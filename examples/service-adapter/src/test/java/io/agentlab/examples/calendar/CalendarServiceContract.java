package io.agentlab.examples.calendar;

import io.agentlab.contracts.AdapterContract;
import io.agentlab.contracts.AdapterContractTests;
import io.agentlab.plugins.calendar.CalendarSchedulePort;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The calendar adapter contract against the service stand-in, with its state hooks; subclasses name the adapter under
 * test.
 */
@AdapterContract(CalendarSchedulePort.class)
abstract class CalendarServiceContract implements AdapterContractTests<CalendarSchedulePort> {

    static CalendarServiceStandIn service;

    @BeforeAll
    static void start() {
        service = new CalendarServiceStandIn();
    }

    @AfterAll
    static void stop() {
        service.close();
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
