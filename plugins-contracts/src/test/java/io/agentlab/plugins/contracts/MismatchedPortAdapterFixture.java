package io.agentlab.plugins.contracts;

import io.agentlab.contracts.AdapterContract;
import io.agentlab.contracts.AdapterContractTests;
import io.agentlab.plugins.calendar.CalendarSchedulePort;
import io.agentlab.plugins.volume.DeviceVolumePort;
import io.agentlab.plugins.volume.InMemoryDeviceVolume;

/**
 * A volume adapter's contract class annotated with another port, run by {@link AdapterContractRulesTest}: one line
 * naming both ports, not a ClassCastException in every rule. Not named *Test, so Surefire does not run it directly.
 */
@AdapterContract(CalendarSchedulePort.class)
class MismatchedPortAdapterFixture implements AdapterContractTests<DeviceVolumePort> {

    @Override
    public DeviceVolumePort adapter() {
        return new InMemoryDeviceVolume();
    }
}
