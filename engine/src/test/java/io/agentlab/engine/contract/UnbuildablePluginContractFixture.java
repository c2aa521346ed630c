package io.agentlab.contracts;

import io.agentlab.kernel.api.EventDefinition;
import io.agentlab.kernel.api.EventPlugin;
import io.agentlab.kernel.api.HandlerResult;
import io.agentlab.kernel.api.ResultPolicy;
import io.agentlab.kernel.api.RetryPolicy;
import java.util.Map;

/** A plugin whose definition cannot be built (a retried side effect), run by {@link PluginContractRulesTest}. */
@PluginContract
class UnbuildablePluginContractFixture implements PluginContractTests {

    @Override
    public EventPlugin plugin() {
        return () -> EventDefinition.builder("toy.alarm.set").schemaVersion("1.0.0").description("Set an alarm.")
                .argumentsSchema("{\"type\":\"object\"}")
                .handler(invocation -> HandlerResult.success(Map.of()))
                .retryPolicy(RetryPolicy.onceOnTransientFailure())
                .resultPolicy(ResultPolicy.SILENT_SUCCESS).build();
    }
}
