/** Contracts for users: {@link io.agentlab.contracts.PluginContract} and the AG-UI endpoint contract. */
package io.agentlab.contracts;
