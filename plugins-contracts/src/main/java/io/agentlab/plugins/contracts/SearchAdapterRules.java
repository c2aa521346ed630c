package io.agentlab.plugins.contracts;

import io.agentlab.contracts.AdapterContractTests;
import io.agentlab.contracts.AdapterRuleCatalogue;
import io.agentlab.kernel.api.rule.Rule;
import io.agentlab.plugins.port.PortException;
import static org.apiguardian.api.API.Status.INTERNAL;
import io.agentlab.plugins.search.SearchHit;
import io.agentlab.plugins.search.WebSearchPort;
import java.net.URI;
import java.time.Instant;
import java.util.List;
import org.apiguardian.api.API;

/** {@link WebSearchPort} adapters. State: {@code busy} (the provider answers 503: a transient failure). */
@API(status = INTERNAL, since = "0.1")
public final class SearchAdapterRules implements AdapterRuleCatalogue<WebSearchPort> {

    @Override
    public Class<WebSearchPort> port() {
        return WebSearchPort.class;
    }

    @Override
    public List<RuleCheck<WebSearchPort>> rules() {
        return List.of(
                new RuleCheck<>(Rule.required("AC-SRC-01", "result_contract",
                        "docs/design.md#plugin-search-result-contract",
                        "Hits have a title, an absolute URI, evidence and a retrieval time not in the future."),
                        SearchAdapterRules::contract),
                new RuleCheck<>(Rule.required("AC-SRC-02", "max_results_respected",
                        "docs/design.md#plugin-search-result-contract",
                        "No more hits than asked for."), SearchAdapterRules::maxResults),
                new RuleCheck<>(Rule.optional("AC-SRC-03", "busy_is_transient_failure",
                        "docs/design.md#plugin-search-retry-once",
                        "A busy provider is a transient PortException, so the read-only search is retried once "
                                + "(state busy)."), SearchAdapterRules::busy));
    }

    private static void contract(AdapterContractTests<WebSearchPort> subject, RuleCheck<WebSearchPort> rule) {
        for (SearchHit hit : subject.adapter().search("weather in Paris", 3)) {
            boolean uri;
            try {
                uri = URI.create(hit.location()).isAbsolute();
            } catch (IllegalArgumentException e) {
                uri = false;
            }
            if (hit.title().isBlank() || !uri || hit.retrievedAt().isAfter(Instant.now())) {
                throw rule.failure("hit " + hit + " breaks the result contract");
            }
        }
    }

    private static void maxResults(AdapterContractTests<WebSearchPort> subject, RuleCheck<WebSearchPort> rule) {
        List<SearchHit> hits = subject.adapter().search("weather in Paris", 1);
        if (hits.size() > 1) {
            throw rule.failure("asked for 1 hit, got " + hits.size());
        }
    }

    private static void busy(AdapterContractTests<WebSearchPort> subject, RuleCheck<WebSearchPort> rule) {
        subject.given("busy");
        try {
            List<SearchHit> hits = subject.adapter().search("weather in Paris", 3);
            throw rule.failure("with the provider busy the adapter returned " + hits + "; expected a PortException");
        } catch (PortException e) {
            if (!e.isTransient()) {
                throw rule.failure("a busy provider gave a permanent PortException '" + e.code() + "'; it must be "
                        + "transient so the search is retried once");
            }
        }
    }
}
