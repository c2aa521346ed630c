package io.agentlab.kernel.api;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.Map;
import org.apiguardian.api.API;

/**
 * What a port holds, readable after a turn: the calendar entries that exist, the device's level. Conformance suites
 * check it ({@code expect.portState}), because a port call that was made says nothing about what it left behind
 * ({@code docs/design.md#plugin-ports}). In-memory adapters implement it; a real adapter may, when its service can
 * answer such a question cheaply. A plugin exposes its port's state through {@link EventPlugin#portState()}.
 */
@API(status = EXPERIMENTAL, since = "0.1")
@FunctionalInterface
public interface PortState {

    /**
     * A snapshot of the port's state as JSON values (maps with string keys, lists, strings, numbers, booleans and
     * null), taken when no handler is running. The shape is the plugin's to document; it should list the stored
     * things in a stable order.
     */
    Map<String, Object> snapshot();
}
