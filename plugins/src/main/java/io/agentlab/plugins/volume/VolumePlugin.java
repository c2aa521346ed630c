package io.agentlab.plugins.volume;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.agentlab.kernel.api.EventDefinition;
import io.agentlab.kernel.api.EventPlugin;
import io.agentlab.kernel.api.PortState;
import io.agentlab.kernel.api.ResultPolicy;
import io.agentlab.plugins.port.PortCalls;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * {@code device.volume.adjust} ({@code docs/design.md#plugin-volume-adjust}): policy {@code silent_success},
 * side-effecting, never retried, one volume change at a time per batch (conflict key {@value #CONFLICT_KEY}).
 */
@API(status = INTERNAL, since = "0.1")
public final class VolumePlugin implements EventPlugin {

    /** The event name. */
    public static final String NAME = "device.volume.adjust";
    /** Volume changes never overlap. */
    public static final String CONFLICT_KEY = "device.volume";
    static final String SCHEMA = """
            {"type":"object",
             "properties":{
               "mode":{"type":"string","enum":["absolute","relative","mute","unmute"],
                       "description":"absolute: set to value; relative: change by delta; mute; unmute"},
               "value":{"type":"integer","minimum":0,"maximum":100,"description":"target level for absolute"},
               "delta":{"type":"integer","minimum":-100,"maximum":100,"description":"signed change for relative"}},
             "required":["mode"],
             "additionalProperties":false}""";

    private final EventDefinition definition;
    private final DeviceVolumePort port;

    /** With an in-memory device (for discovery through {@link java.util.ServiceLoader}). */
    public VolumePlugin() {
        this(new InMemoryDeviceVolume());
    }

    /** With the given port. */
    public VolumePlugin(DeviceVolumePort port) {
        this.port = Objects.requireNonNull(port, "port");
        this.definition = EventDefinition.builder(NAME)
                .schemaVersion("1.0.0")
                .description("Change the device volume: set a level 0-100, turn it up or down, mute or unmute.")
                .argumentsSchema(SCHEMA)
                .resolver(new VolumeResolver())
                .normalizer(VolumeArguments.normalizer())
                .validator(VolumeArguments.validator())
                .requiredFields("mode")
                .fallbackAllowed(true)
                .handler(invocation -> PortCalls.call(() -> {
                    Map<String, Object> arguments = invocation.arguments();
                    VolumeMode mode = VolumeMode.valueOf(((String) arguments.get("mode")).toUpperCase(java.util.Locale.ROOT));
                    VolumeState state = port.apply(new VolumeCommand(invocation.turn().scope().sessionId(), mode,
                            (Integer) arguments.get("value"), (Integer) arguments.get("delta"),
                            invocation.idempotencyKey()));
                    Map<String, Object> payload = new LinkedHashMap<>();
                    payload.put("mode", mode.wireName());
                    payload.put("level", state.level());
                    payload.put("muted", state.muted());
                    return payload;
                }))
                .resultPolicy(ResultPolicy.SILENT_SUCCESS)
                .timeout(Duration.ofSeconds(3))
                .conflictKeys(CONFLICT_KEY)
                .build();
    }

    @Override
    public EventDefinition definition() {
        return definition;
    }

    /** The devices' levels, when the port shows them ({@link InMemoryDeviceVolume} does). */
    @Override
    public Optional<PortState> portState() {
        return port instanceof PortState state ? Optional.of(state) : Optional.empty();
    }
}
