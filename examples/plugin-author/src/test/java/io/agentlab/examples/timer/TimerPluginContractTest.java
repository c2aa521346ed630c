package io.agentlab.examples.timer;

import io.agentlab.contracts.PluginContract;
import io.agentlab.contracts.PluginContractTests;
import io.agentlab.contracts.PluginExample;
import io.agentlab.kernel.api.EventPlugin;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;

/**
 * The whole contract of the timer plugin: one class, one test per rule of the catalogue.
 * The clause this checks: {@code docs/design.md#plugin-adding} (a capability added from outside the kit, built by
 * ExamplesIT).
 */
@PluginContract(catalogTokenBudget = 20)
class TimerPluginContractTest implements PluginContractTests {

    @Override
    public EventPlugin plugin() {
        return new TimerPlugin(new InMemoryTimers());
    }

    @Override
    public List<PluginExample> examples() {
        List<PluginExample> examples = new ArrayList<>(PluginExample.load("timer-examples.yaml"));
        examples.addAll(List.of(
                PluginExample.of("set a timer for 5 minutes", Map.of("minutes", 5)),
                PluginExample.of("start a ten minute timer please", Map.of("minutes", 10)),
                PluginExample.of("give me fifteen minutes", Map.of("minutes", 15)),
                PluginExample.of("设一个十分钟的计时器", Map.of("minutes", 10)),
                PluginExample.of("二十五分钟后提醒我", Map.of("minutes", 25)),
                PluginExample.clarification("start a timer")));
        return examples;
    }

    @Override
    public Optional<EventPlugin> pluginWithFailingPort() {
        return Optional.of(new TimerPlugin((session, minutes, label, key) -> {
            throw new IllegalStateException("the toy's clock is unavailable");
        }));
    }

    @Override
    public Optional<EventPlugin> pluginWithHangingPort() {
        return Optional.of(new TimerPlugin((session, minutes, label, key) -> {
            try {
                new CountDownLatch(1).await(); // a toy that never answers
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return "never";
        }));
    }
}
