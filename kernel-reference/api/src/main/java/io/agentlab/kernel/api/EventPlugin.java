package io.agentlab.kernel.api;

/**
 * One concrete capability ({@code docs/design.md#plugin-one-capability}): a flat plugin owning exactly one event
 * definition. Built-in and third-party plugins implement this same interface; there is no inheritance between plugins.
 */
public interface EventPlugin {

    /** The event this plugin owns. */
    EventDefinition definition();
}
