/** AssertJ entry points on event results, turn outcomes and audit streams: {@link io.agentlab.contracts.assertions.AgentLabAssertions}. */
package io.agentlab.contracts.assertions;
