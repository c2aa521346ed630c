package io.agentlab.kernel.api;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.Optional;
import org.apiguardian.api.API;

/**
 * One concrete capability ({@code docs/design.md#plugin-one-capability}): a flat plugin owning exactly one event
 * definition. Built-in and third-party plugins implement this same interface; there is no inheritance between plugins.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public interface EventPlugin {

    /** The event this plugin owns. */
    EventDefinition definition();

    /**
     * The state of this plugin's port, when the port can show it (an in-memory adapter, or a real one implementing
     * {@link PortState}); empty by default. Conformance suites read it after a turn ({@code expect.portState}).
     */
    default Optional<PortState> portState() {
        return Optional.empty();
    }
}
