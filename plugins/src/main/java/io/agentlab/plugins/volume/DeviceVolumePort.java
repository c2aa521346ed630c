package io.agentlab.plugins.volume;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * The device-action boundary for volume ({@code docs/design.md#plugin-volume-port}: through the device dispatcher,
 * never direct MQTT). An adapter clamps the resulting level to 0..100 and reports it.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public interface DeviceVolumePort {

    /**
     * Applies the command.
     *
     * @return the resulting state
     * @throws io.agentlab.plugins.port.PortException when the device refuses or cannot be reached
     */
    VolumeState apply(VolumeCommand command);
}
