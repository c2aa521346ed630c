/** AssertJ entry points on event results, turn outcomes and audit streams: {@link io.agentlab.engine.assertions.AgentLabAssertions}. */
package io.agentlab.engine.assertions;
