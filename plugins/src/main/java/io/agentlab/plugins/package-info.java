/**
 * The four built-in event plugins of design §3, one package each, and {@link io.agentlab.plugins.BuiltInPlugins},
 * which builds them with in-memory or injected ports. The kernel never imports this module.
 */
package io.agentlab.plugins;
