package io.agentlab.plugins.volume;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.agentlab.kernel.api.PortState;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apiguardian.api.API;

/**
 * An in-memory device per session (level starts at {@value #INITIAL_LEVEL}) that records every command. A repeated
 * idempotency key returns the first result without applying the change again. Its {@link #snapshot() state} lists
 * the devices commanded so far.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class InMemoryDeviceVolume implements DeviceVolumePort, PortState {

    /** The level a new device starts at. */
    public static final int INITIAL_LEVEL = 50;

    private final Map<String, VolumeState> devices = new LinkedHashMap<>();
    private final Map<String, VolumeState> applied = new HashMap<>();
    private final List<VolumeCommand> calls = new CopyOnWriteArrayList<>();

    @Override
    public synchronized VolumeState apply(VolumeCommand command) {
        calls.add(command);
        VolumeState earlier = applied.get(command.idempotencyKey());
        if (earlier != null) {
            return earlier;
        }
        VolumeState current = state(command.sessionId());
        VolumeState next = switch (command.mode()) {
            case ABSOLUTE -> new VolumeState(clamp(command.value()), false);
            case RELATIVE -> new VolumeState(clamp(current.level() + command.delta()), false);
            case MUTE -> new VolumeState(current.level(), true);
            case UNMUTE -> new VolumeState(current.level(), false);
        };
        devices.put(command.sessionId(), next);
        applied.put(command.idempotencyKey(), next);
        return next;
    }

    /** The device state of a session. */
    public synchronized VolumeState state(String sessionId) {
        return devices.getOrDefault(sessionId, new VolumeState(INITIAL_LEVEL, false));
    }

    /** The devices commanded so far, in first-use order: {@code {"devices": [{"session", "level", "muted"}]}}. */
    @Override
    public synchronized Map<String, Object> snapshot() {
        List<Object> list = new ArrayList<>();
        devices.forEach((session, state) -> {
            Map<String, Object> device = new LinkedHashMap<>();
            device.put("session", session);
            device.put("level", state.level());
            device.put("muted", state.muted());
            list.add(device);
        });
        return Map.of("devices", list);
    }

    /** Every command received, in order (including repeats). */
    public List<VolumeCommand> calls() {
        return List.copyOf(calls);
    }

    private static int clamp(int level) {
        return Math.max(0, Math.min(100, level));
    }
}
