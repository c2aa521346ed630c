package io.agentlab.plugins.search;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.agentlab.kernel.api.ConcurrencyClass;
import io.agentlab.kernel.api.EventDefinition;
import io.agentlab.kernel.api.EventPlugin;
import io.agentlab.kernel.api.ResultPolicy;
import io.agentlab.kernel.api.ResultSummarizer;
import io.agentlab.kernel.api.RetryPolicy;
import io.agentlab.plugins.port.PortCalls;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * {@code knowledge.web.search} ({@code docs/design.md#plugin-search-two-answers}): policy {@code llm_follow_up} (a
 * second, grounded answer), read-only, one retry on a transient failure inside its timeout. The follow-up call sees
 * only the compact summary: at most {@value #SUMMARY_HITS} hits with evidence cut to {@value #EVIDENCE_CHARS}
 * characters; the raw payload stays in the result for audit.
 */
@API(status = INTERNAL, since = "0.1")
public final class SearchPlugin implements EventPlugin {

    /** The event name. */
    public static final String NAME = "knowledge.web.search";
    /** Hits in the follow-up summary. */
    public static final int SUMMARY_HITS = 3;
    /** Evidence characters per hit in the summary. */
    public static final int EVIDENCE_CHARS = 280;
    /** Hits requested when the arguments do not say. */
    public static final int DEFAULT_MAX_RESULTS = 5;
    static final String SCHEMA = """
            {"type":"object",
             "properties":{
               "query":{"type":"string","minLength":1,"maxLength":300,"description":"focused web search query"},
               "max_results":{"type":"integer","minimum":1,"maximum":10}},
             "required":["query"],
             "additionalProperties":false}""";

    private final EventDefinition definition;

    /** With the in-memory search (for discovery through {@link java.util.ServiceLoader}). */
    public SearchPlugin() {
        this(new InMemoryWebSearch());
    }

    /** With the given port. */
    public SearchPlugin(WebSearchPort port) {
        Objects.requireNonNull(port, "port");
        this.definition = EventDefinition.builder(NAME)
                .schemaVersion("1.0.0")
                .description("Search the web when current or external facts matter; a second answer follows.")
                .argumentsSchema(SCHEMA)
                .resolver(new SearchQueryResolver())
                .normalizer(arguments -> {
                    Map<String, Object> out = new LinkedHashMap<>(arguments);
                    if (out.get("query") instanceof String query) {
                        out.put("query", SearchQueryResolver.normalQuery(query));
                    }
                    return out;
                })
                .fallbackAllowed(true)
                .handler(invocation -> PortCalls.call(() -> {
                    String query = (String) invocation.arguments().get("query");
                    int max = invocation.arguments().get("max_results") instanceof Integer n ? n : DEFAULT_MAX_RESULTS;
                    List<Map<String, Object>> results = new ArrayList<>();
                    for (SearchHit hit : port.search(query, max)) {
                        Map<String, Object> result = new LinkedHashMap<>();
                        result.put("title", hit.title());
                        result.put("location", hit.location());
                        result.put("evidence", hit.evidence());
                        result.put("retrieved_at", hit.retrievedAt().toString());
                        results.add(result);
                    }
                    Map<String, Object> payload = new LinkedHashMap<>();
                    payload.put("query", query);
                    payload.put("results", results);
                    return payload;
                }))
                .resultPolicy(ResultPolicy.LLM_FOLLOW_UP)
                .resultSummarizer(summarizer())
                .concurrencyClass(ConcurrencyClass.READ_ONLY)
                .retryPolicy(RetryPolicy.onceOnTransientFailure())
                .timeout(Duration.ofSeconds(8))
                .build();
    }

    @Override
    public EventDefinition definition() {
        return definition;
    }

    /** The compact summary for the follow-up call. */
    static ResultSummarizer summarizer() {
        return payload -> {
            List<Map<String, Object>> compact = new ArrayList<>();
            if (payload.get("results") instanceof List<?> results) {
                for (Object item : results.subList(0, Math.min(SUMMARY_HITS, results.size()))) {
                    if (item instanceof Map<?, ?> hit) {
                        Map<String, Object> entry = new LinkedHashMap<>();
                        entry.put("title", hit.get("title"));
                        entry.put("location", hit.get("location"));
                        String evidence = String.valueOf(hit.get("evidence"));
                        entry.put("evidence", evidence.length() > EVIDENCE_CHARS
                                ? evidence.substring(0, EVIDENCE_CHARS) + "…" : evidence);
                        entry.put("retrieved_at", hit.get("retrieved_at"));
                        compact.add(entry);
                    }
                }
            }
            Map<String, Object> summary = new LinkedHashMap<>();
            summary.put("query", payload.get("query"));
            summary.put("results", compact);
            return summary;
        };
    }
}
