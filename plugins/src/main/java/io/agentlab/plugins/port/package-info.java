/**
 * What every built-in plugin's port shares: {@link io.agentlab.plugins.port.PortException}, how a port reports a
 * failure, and {@link io.agentlab.plugins.port.PortCalls}, which turns it into a handler's structured failure. Its own
 * package so the plugins' packages and {@link io.agentlab.plugins.BuiltInPlugins}, which builds them, form no cycle
 * (docs/development.md#guards).
 */
package io.agentlab.plugins.port;
