package io.agentlab.plugins.contracts;

import io.agentlab.contracts.AdapterContract;
import io.agentlab.contracts.AdapterContractTests;
import io.agentlab.plugins.volume.DeviceVolumePort;
import io.agentlab.plugins.volume.InMemoryDeviceVolume;

/** The in-memory device keeps the volume adapter contract. */
@AdapterContract(DeviceVolumePort.class)
class InMemoryVolumeContractTest implements AdapterContractTests<DeviceVolumePort> {

    @Override
    public DeviceVolumePort adapter() {
        return new InMemoryDeviceVolume();
    }
}
