package io.agentlab.kernel.api;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.List;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * The compact structured results the one follow-up ChatAgent call receives ({@code
 * docs/design.md#context-compact-results}: never raw payloads).
 *
 * @param eventIds the events the summary covers, in input order
 * @param json     the bounded canonical JSON text sent to ChatAgent
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record FollowUpSummary(List<String> eventIds, String json) {
    /** Rejects nulls and copies the ids. */
    public FollowUpSummary {
        eventIds = List.copyOf(eventIds);
        Objects.requireNonNull(json, "json");
    }
}
