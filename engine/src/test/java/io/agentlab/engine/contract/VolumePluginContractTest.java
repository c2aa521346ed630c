package io.agentlab.contracts;

import io.agentlab.kernel.api.EventPlugin;
import io.agentlab.plugins.port.PortException;
import io.agentlab.plugins.volume.DeviceVolumePort;
import io.agentlab.plugins.volume.InMemoryDeviceVolume;
import io.agentlab.plugins.volume.VolumePlugin;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;

/**
 * The built-in volume plugin passes its own contract: what a plugin author's test class looks like.
 * The clauses this checks: {@code docs/design.md#kernel-definition-valid},
 * {@code docs/design.md#plugin-schema-provider-safe}, {@code docs/design.md#kernel-resolver-total},
 * {@code docs/design.md#kernel-validation}, {@code docs/design.md#safety-idempotency-key},
 * {@code docs/design.md#safety-structured-failure} (PC-01 to PC-11 run on the built-in volume plugin).
 */
@PluginContract(catalogTokenBudget = 30)
class VolumePluginContractTest implements PluginContractTests {

    @Override
    public EventPlugin plugin() {
        return new VolumePlugin(new InMemoryDeviceVolume());
    }

    @Override
    public List<PluginExample> examples() {
        return List.of(
                PluginExample.of("set the volume to 30", Map.of("mode", "absolute", "value", 30)),
                PluginExample.of("turn it up a bit", Map.of("mode", "relative", "delta", 10)),
                PluginExample.of("把音量调到三十", Map.of("mode", "absolute", "value", 30)));
    }

    @Override
    public Optional<EventPlugin> pluginWithFailingPort() {
        DeviceVolumePort offline = command -> {
            throw new PortException("device_offline", "the speaker did not answer", false);
        };
        return Optional.of(new VolumePlugin(offline));
    }

    @Override
    public Optional<EventPlugin> pluginWithHangingPort() {
        DeviceVolumePort silent = command -> {
            try {
                new CountDownLatch(1).await(); // a device that never answers, until the timeout interrupts
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            throw new PortException("interrupted", "the call was interrupted", false);
        };
        return Optional.of(new VolumePlugin(silent));
    }
}
