/**
 * The four built-in event plugins ({@code docs/design.md#plugin-namespaced-name}), one package each, and {@link
 * io.agentlab.plugins.BuiltInPlugins}, which builds them with in-memory or injected ports. The kernel never imports
 * this module.
 */
package io.agentlab.plugins;
