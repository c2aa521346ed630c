package io.agentlab.contracts;

import io.agentlab.kernel.api.EventDefinition;
import io.agentlab.kernel.api.EventPlugin;
import io.agentlab.kernel.api.HandlerResult;
import io.agentlab.kernel.api.Resolution;
import io.agentlab.kernel.api.ResultPolicy;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A plugin that breaks several rules on purpose, run by {@link PluginContractRulesTest} through EngineTestKit to show
 * the messages authors get. Not named *Test, so Surefire does not run it directly.
 */
@PluginContract(catalogTokenBudget = 20)
class BrokenPluginContractFixture implements PluginContractTests {

    private static final AtomicInteger CALLS = new AtomicInteger();

    @Override
    public EventPlugin plugin() {
        return () -> EventDefinition.builder("toy.light.set").schemaVersion("1.0.0")
                .description("Set the brightness of the toy's night light, which glows softly in many colours and "
                        + "can also be dimmed slowly over several minutes when the child falls asleep at night.")
                .argumentsSchema("{\"type\":\"object\",\"properties\":{\"level\":{\"oneOf\":[{\"type\":\"integer\"},"
                        + "{\"type\":\"string\"}]}}}")
                .resolver(input -> Resolution.of(Map.of("level", CALLS.incrementAndGet()))) // not deterministic
                .handler(invocation -> HandlerResult.success(Map.of()))
                .terminal(true) // waits for its siblings, then ends nothing
                .timeout(Duration.ofMinutes(5))
                .resultPolicy(ResultPolicy.SILENT_SUCCESS).build();
    }
}
