package io.agentlab.plugins.contracts;

import io.agentlab.contracts.AdapterContract;
import io.agentlab.contracts.AdapterContractTests;
import io.agentlab.plugins.volume.DeviceVolumePort;
import io.agentlab.plugins.volume.VolumeMode;
import io.agentlab.plugins.volume.VolumeState;
import java.util.HashMap;
import java.util.Map;

/**
 * A device adapter with the classic bug — it applies a repeated command again instead of honouring the idempotency
 * key — run by {@link AdapterContractRulesTest} to show the message service teams get. Not named *Test, so Surefire
 * does not run it directly.
 */
@AdapterContract(DeviceVolumePort.class)
class BrokenVolumeAdapterFixture implements AdapterContractTests<DeviceVolumePort> {

    @Override
    public DeviceVolumePort adapter() {
        Map<String, Integer> levels = new HashMap<>();
        return command -> {
            int level = levels.getOrDefault(command.sessionId(), 50);
            if (command.mode() == VolumeMode.ABSOLUTE) {
                level = command.value();
            } else if (command.mode() == VolumeMode.RELATIVE) {
                level = Math.max(0, Math.min(100, level + command.delta())); // ignores the idempotency key
            }
            levels.put(command.sessionId(), level);
            return new VolumeState(level, command.mode() == VolumeMode.MUTE);
        };
    }
}
