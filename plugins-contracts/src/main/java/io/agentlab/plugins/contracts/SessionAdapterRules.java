package io.agentlab.plugins.contracts;

import io.agentlab.contracts.AdapterContractTests;
import io.agentlab.contracts.AdapterRuleCatalogue;
import io.agentlab.kernel.api.rule.Rule;
import static org.apiguardian.api.API.Status.INTERNAL;
import io.agentlab.plugins.session.SessionTerminationPort;
import java.util.List;
import java.util.UUID;
import org.apiguardian.api.API;

/** {@link SessionTerminationPort} adapters: termination is idempotent and its end state observable. */
@API(status = INTERNAL, since = "0.1")
public final class SessionAdapterRules implements AdapterRuleCatalogue<SessionTerminationPort> {

    @Override
    public Class<SessionTerminationPort> port() {
        return SessionTerminationPort.class;
    }

    @Override
    public List<RuleCheck<SessionTerminationPort>> rules() {
        return List.of(
                new RuleCheck<>(Rule.required("AC-SES-01", "terminate_ends_the_session",
                        "docs/design.md#plugin-session-port",
                        "The first termination of a session reports it was not already ended."),
                        SessionAdapterRules::first),
                new RuleCheck<>(Rule.required("AC-SES-02", "ended_state_observable",
                        "docs/design.md#plugin-session-port",
                        "A later termination, with the same or another key, reports the session already ended."),
                        SessionAdapterRules::observable));
    }

    private static void first(AdapterContractTests<SessionTerminationPort> subject,
                              RuleCheck<SessionTerminationPort> rule) {
        String session = "s-" + UUID.randomUUID();
        SessionTerminationPort.Termination termination = subject.adapter().terminate(session, "k-" + UUID.randomUUID());
        if (termination.alreadyEnded() || !termination.sessionId().equals(session)) {
            throw rule.failure("the first termination of " + session + " reported " + termination);
        }
    }

    private static void observable(AdapterContractTests<SessionTerminationPort> subject,
                                   RuleCheck<SessionTerminationPort> rule) {
        SessionTerminationPort port = subject.adapter();
        String session = "s-" + UUID.randomUUID();
        String key = "k-" + UUID.randomUUID();
        port.terminate(session, key);
        SessionTerminationPort.Termination sameKey = port.terminate(session, key);
        SessionTerminationPort.Termination otherKey = port.terminate(session, "k-" + UUID.randomUUID());
        if (!sameKey.alreadyEnded() || !otherKey.alreadyEnded()) {
            throw rule.failure("after ending " + session + " a repeat reported " + sameKey + " and another key "
                    + otherKey + "; expected already ended both times");
        }
    }
}
