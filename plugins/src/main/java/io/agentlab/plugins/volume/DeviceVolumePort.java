package io.agentlab.plugins.volume;

/**
 * The device-action boundary for volume ({@code docs/design.md#plugin-volume-port}: through the device dispatcher,
 * never direct MQTT). An adapter clamps the resulting level to 0..100 and reports it.
 */
public interface DeviceVolumePort {

    /**
     * Applies the command.
     *
     * @return the resulting state
     * @throws io.agentlab.plugins.port.PortException when the device refuses or cannot be reached
     */
    VolumeState apply(VolumeCommand command);
}
