package io.agentlab.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentlab.kernel.api.EventPlugin;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The default factory looks its providers up once and still hands every case fresh plugins. */
class ServiceLoaderKernelFactoryTest {

    @Test
    @DisplayName("each call gives new plugin instances (fresh in-memory ports), of the same providers in the same order")
    void freshPluginsEveryCall() {
        ServiceLoaderKernelFactory factory = new ServiceLoaderKernelFactory();
        List<EventPlugin> first = factory.plugins();
        List<EventPlugin> second = factory.plugins();
        assertThat(first).isNotEmpty();
        assertThat(second).extracting(plugin -> plugin.definition().name())
                .containsExactlyElementsOf(first.stream().map(plugin -> plugin.definition().name()).toList());
        for (int i = 0; i < first.size(); i++) {
            assertThat(second.get(i)).as(first.get(i).definition().name()).isNotSameAs(first.get(i));
        }
    }
}
