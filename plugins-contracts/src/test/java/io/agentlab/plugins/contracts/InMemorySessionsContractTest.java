package io.agentlab.plugins.contracts;

import io.agentlab.contracts.AdapterContract;
import io.agentlab.contracts.AdapterContractTests;
import io.agentlab.plugins.session.InMemorySessions;
import io.agentlab.plugins.session.SessionTerminationPort;

/**
 * The in-memory session store keeps the session adapter contract.
 * The clause this checks: {@code docs/design.md#plugin-session-port}.
 */
@AdapterContract(SessionTerminationPort.class)
class InMemorySessionsContractTest implements AdapterContractTests<SessionTerminationPort> {

    @Override
    public SessionTerminationPort adapter() {
        return new InMemorySessions();
    }
}
