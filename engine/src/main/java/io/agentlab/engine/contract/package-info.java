/** Contracts for users: {@link io.agentlab.engine.contract.PluginContract} and the AG-UI endpoint contract. */
package io.agentlab.engine.contract;
