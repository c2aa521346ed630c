package io.agentlab.contracts;

import io.agentlab.kernel.api.EventPlugin;
import io.agentlab.plugins.volume.InMemoryDeviceVolume;
import io.agentlab.plugins.volume.VolumePlugin;
import java.util.List;
import java.util.Map;

/** A good plugin with a wrong example, run by {@link PluginContractRulesTest}: PC-11 must catch it in both modes. */
@PluginContract(seeds = {1, 2, 3})
class WrongExamplePluginContractFixture implements PluginContractTests {

    @Override
    public EventPlugin plugin() {
        return new VolumePlugin(new InMemoryDeviceVolume());
    }

    @Override
    public List<PluginExample> examples() {
        return List.of(PluginExample.of("set the volume to 30", Map.of("mode", "absolute", "value", 40)));
    }
}
