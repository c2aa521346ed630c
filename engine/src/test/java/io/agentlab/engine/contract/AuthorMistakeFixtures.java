package io.agentlab.contracts;

import io.agentlab.kernel.api.EventDefinition;
import io.agentlab.kernel.api.EventPlugin;
import io.agentlab.kernel.api.HandlerResult;
import io.agentlab.kernel.api.ResultPolicy;
import io.agentlab.plugins.port.PortException;
import io.agentlab.plugins.volume.DeviceVolumePort;
import io.agentlab.plugins.volume.InMemoryDeviceVolume;
import io.agentlab.plugins.volume.VolumePlugin;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Contract test classes with the mistakes a plugin author makes in the test rather than the plugin, and plugins broken
 * where only one rule looks, run by {@link PluginContractRulesTest} through EngineTestKit. Nested, so Surefire runs
 * none of them directly.
 */
final class AuthorMistakeFixtures {

    private AuthorMistakeFixtures() {
    }

    static EventPlugin volume() {
        return new VolumePlugin(new InMemoryDeviceVolume());
    }

    static Optional<EventPlugin> offlineVolume() {
        DeviceVolumePort offline = command -> {
            throw new PortException("device_offline", "the speaker did not answer", false);
        };
        return Optional.of(new VolumePlugin(offline));
    }

    /** A plugin whose definition is built in its constructor, as the built-in timer's is: it cannot be made at all. */
    static final class UnbuildableInConstructor implements EventPlugin {
        private final EventDefinition definition;

        UnbuildableInConstructor() {
            definition = EventDefinition.builder("Lights").schemaVersion("1.0.0").description("Toggle the lights.")
                    .argumentsSchema("{\"type\":\"object\"}").handler(invocation -> HandlerResult.success(Map.of()))
                    .resultPolicy(ResultPolicy.SILENT_SUCCESS).build();
        }

        @Override
        public EventDefinition definition() {
            return definition;
        }
    }

    @PluginContract
    static class ConstructorThrows implements PluginContractTests {
        @Override
        public EventPlugin plugin() {
            return new UnbuildableInConstructor();
        }

        @Override
        public List<PluginExample> examples() {
            return List.of(PluginExample.of("lights on", Map.of()));
        }

        @Override
        public Optional<EventPlugin> pluginWithFailingPort() {
            return Optional.of(new UnbuildableInConstructor());
        }
    }

    @PluginContract(catalogTokenBudget = 30)
    static class ExamplesThrow implements PluginContractTests {
        @Override
        public EventPlugin plugin() {
            return volume();
        }

        @Override
        public List<PluginExample> examples() {
            return PluginExample.load("no-such-examples.yaml");
        }

        @Override
        public Optional<EventPlugin> pluginWithFailingPort() {
            return offlineVolume();
        }
    }

    @PluginContract(catalogTokenBudget = 30)
    static class NullsGiven implements PluginContractTests {
        @Override
        public EventPlugin plugin() {
            return volume();
        }

        @Override
        public List<PluginExample> examples() {
            return java.util.Arrays.asList(PluginExample.of("set the volume to 30", Map.of("mode", "absolute",
                    "value", 30)), null);
        }

        @Override
        public Optional<EventPlugin> pluginWithFailingPort() {
            return null;
        }
    }

    @PluginContract(catalogTokenBudget = -5, seeds = {})
    static class BadAnnotation implements PluginContractTests {
        @Override
        public EventPlugin plugin() {
            return volume();
        }

        @Override
        public List<PluginExample> examples() {
            return List.of(PluginExample.of("set the volume to 30", Map.of("mode", "absolute", "value", 30)));
        }
    }

    @PluginContract
    static class SchemaRefused implements PluginContractTests {
        static EventPlugin plugin(String schema) {
            return () -> EventDefinition.builder("toy.lights.toggle").schemaVersion("1.0.0")
                    .description("Toggle the lights.").argumentsSchema(schema)
                    .handler(invocation -> HandlerResult.success(Map.of())).resultPolicy(ResultPolicy.SILENT_SUCCESS)
                    .build();
        }

        @Override
        public EventPlugin plugin() {
            return plugin("{\"type\":\"array\"}");
        }

        @Override
        public List<PluginExample> examples() {
            return List.of(PluginExample.of("lights on", Map.of()));
        }

        @Override
        public Optional<EventPlugin> pluginWithFailingPort() {
            return Optional.of(plugin());
        }
    }

    @PluginContract(catalogTokenBudget = 30)
    static class ExampleBreaksSchema implements PluginContractTests {
        @Override
        public EventPlugin plugin() {
            return volume();
        }

        @Override
        public List<PluginExample> examples() {
            return List.of(PluginExample.of("set the volume to 30", Map.of("mode", "absolute", "value", "thirty")));
        }

        @Override
        public Optional<EventPlugin> pluginWithFailingPort() {
            return offlineVolume();
        }
    }

    /** Port doubles wired the wrong way round: the "failing" one answers, the "hanging" one throws. */
    @PluginContract
    static class DoublesSwapped implements PluginContractTests {
        @Override
        public EventPlugin plugin() {
            return volume();
        }

        @Override
        public List<PluginExample> examples() {
            return List.of(PluginExample.of("set the volume to 30", Map.of("mode", "absolute", "value", 30)));
        }

        @Override
        public Optional<EventPlugin> pluginWithFailingPort() {
            return Optional.of(volume());
        }

        @Override
        public Optional<EventPlugin> pluginWithHangingPort() {
            return offlineVolume();
        }
    }

    /**
     * Lets the handler of {@link HandlerIgnoresInterrupts} return, once the test has its verdict: a latch per run, so
     * that a rerun in the same JVM (an IDE's, Surefire's rerunFailingTestsCount) hangs again instead of finding it
     * open and passing the handler.
     */
    static volatile CountDownLatch release = new CountDownLatch(1);

    @PluginContract
    static class HandlerIgnoresInterrupts implements PluginContractTests {
        static EventPlugin plugin(Runnable port) {
            return () -> EventDefinition.builder("toy.lights.toggle").schemaVersion("1.0.0")
                    .description("Toggle the lights.").argumentsSchema("{\"type\":\"object\"}")
                    .timeout(Duration.ofMillis(100)).resultPolicy(ResultPolicy.SILENT_SUCCESS)
                    .handler(invocation -> {
                        port.run();
                        return HandlerResult.success(Map.of());
                    }).build();
        }

        @Override
        public EventPlugin plugin() {
            return plugin(() -> { });
        }

        @Override
        public List<PluginExample> examples() {
            return List.of(PluginExample.of("lights on", Map.of()));
        }

        @Override
        public Optional<EventPlugin> pluginWithHangingPort() {
            CountDownLatch latch = release;
            return Optional.of(plugin(() -> {
                boolean released = false;
                while (!released) {
                    try {
                        released = latch.await(1, TimeUnit.DAYS);
                    } catch (InterruptedException swallowed) {
                        // the bug: the interrupt is swallowed and the wait goes on
                    }
                }
            }));
        }
    }

    @PluginContract
    static class RandomIdempotencyKey implements PluginContractTests {
        @Override
        public EventPlugin plugin() {
            return () -> EventDefinition.builder("toy.lights.toggle").schemaVersion("1.0.0")
                    .description("Toggle the lights.").argumentsSchema("{\"type\":\"object\"}")
                    .handler(invocation -> HandlerResult.success(Map.of())).resultPolicy(ResultPolicy.SILENT_SUCCESS)
                    .idempotencyKeys((scope, eventId, name, arguments) -> UUID.randomUUID().toString()).build();
        }
    }
}
