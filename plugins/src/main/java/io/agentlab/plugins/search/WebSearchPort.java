package io.agentlab.plugins.search;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.List;
import org.apiguardian.api.API;

/** The external-capability search adapter ({@code docs/design.md#plugin-search-port}). Read-only. */
@API(status = EXPERIMENTAL, since = "0.1")
public interface WebSearchPort {

    /**
     * Searches.
     *
     * @param query      the focused query
     * @param maxResults at most this many hits
     * @return hits, best first (possibly none)
     * @throws io.agentlab.plugins.port.PortException a transient one (timeout, 429, 5xx) is retried once by the kernel
     */
    List<SearchHit> search(String query, int maxResults);
}
