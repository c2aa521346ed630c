package io.agentlab.plugins.search;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.time.Instant;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * One search result in the stable internal contract ({@code docs/design.md#plugin-search-result-contract}).
 *
 * @param title       the source's title
 * @param location    where it is (a URL)
 * @param evidence    the passage that answers
 * @param retrievedAt when it was retrieved
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record SearchHit(String title, String location, String evidence, Instant retrievedAt) {
    /** Rejects nulls. */
    public SearchHit {
        Objects.requireNonNull(title, "title");
        Objects.requireNonNull(location, "location");
        Objects.requireNonNull(evidence, "evidence");
        Objects.requireNonNull(retrievedAt, "retrievedAt");
    }
}
