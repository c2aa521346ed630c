package io.agentlab.plugins.search;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.agentlab.plugins.port.PortException;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apiguardian.api.API;

/**
 * Deterministic search for tests and local runs: scripted hits per query keyword, otherwise one placeholder hit on
 * {@code example.invalid}. It never touches the network. Failures can be scripted to test the retry.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class InMemoryWebSearch implements WebSearchPort {

    /**
     * The default retrieval clock, parsed once: every case gets fresh plugins, each with a new in-memory search
     * (docs/performance.md#per-case).
     */
    private static final Clock FIXED = Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC);

    private final Clock clock;
    private final Map<String, List<SearchHit>> scripted = new LinkedHashMap<>();
    private final List<String> calls = new CopyOnWriteArrayList<>();
    private int transientFailuresLeft;
    private boolean permanentFailure;

    /** With a fixed retrieval clock (2026-01-01T00:00:00Z) so payloads are reproducible. */
    public InMemoryWebSearch() {
        this(FIXED);
    }

    /** With the given retrieval clock. */
    public InMemoryWebSearch(Clock clock) {
        this.clock = clock;
    }

    /** Answers queries containing {@code keyword} (case-insensitive) with {@code hits}. */
    public synchronized InMemoryWebSearch respond(String keyword, List<SearchHit> hits) {
        scripted.put(keyword.toLowerCase(Locale.ROOT), List.copyOf(hits));
        return this;
    }

    /** The next {@code times} calls fail transiently (as a 503 would). */
    public synchronized InMemoryWebSearch failTransiently(int times) {
        this.transientFailuresLeft = times;
        return this;
    }

    /** Every call fails permanently. */
    public synchronized InMemoryWebSearch failPermanently() {
        this.permanentFailure = true;
        return this;
    }

    @Override
    public synchronized List<SearchHit> search(String query, int maxResults) {
        calls.add(query);
        if (permanentFailure) {
            throw new PortException("search_unavailable", "search provider rejected the request", false);
        }
        if (transientFailuresLeft > 0) {
            transientFailuresLeft--;
            throw new PortException("search_busy", "search provider answered 503", true);
        }
        String lower = query.toLowerCase(Locale.ROOT);
        for (Map.Entry<String, List<SearchHit>> entry : scripted.entrySet()) {
            if (lower.contains(entry.getKey())) {
                return entry.getValue().subList(0, Math.min(maxResults, entry.getValue().size()));
            }
        }
        List<SearchHit> placeholder = new ArrayList<>();
        placeholder.add(new SearchHit("Placeholder result for " + query,
                "https://example.invalid/search?q=" + query.replace(' ', '+'),
                "The in-memory search adapter has no live data.", clock.instant()));
        return placeholder;
    }

    /** Every query received, in order (a retry appears twice). */
    public List<String> calls() {
        return List.copyOf(calls);
    }
}
