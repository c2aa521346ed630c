package io.agentlab.plugins.contracts;

import io.agentlab.contracts.AdapterContract;
import io.agentlab.contracts.AdapterContractTests;
import io.agentlab.plugins.search.InMemoryWebSearch;
import io.agentlab.plugins.search.WebSearchPort;

/**
 * The in-memory search keeps the search adapter contract, its busy state included.
 * The clauses this checks: {@code docs/design.md#plugin-search-port},
 * {@code docs/design.md#plugin-search-result-contract}.
 */
@AdapterContract(WebSearchPort.class)
class InMemorySearchContractTest implements AdapterContractTests<WebSearchPort> {

    private InMemoryWebSearch search = new InMemoryWebSearch();

    @Override
    public WebSearchPort adapter() {
        return search;
    }

    @Override
    public void given(String state) {
        if (!state.equals("busy")) {
            AdapterContractTests.super.given(state);
        }
        search.failTransiently(1);
    }

    @Override
    public void reset() {
        search = new InMemoryWebSearch();
    }
}
