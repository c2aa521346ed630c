package io.agentlab.plugins.calendar;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.time.OffsetDateTime;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * The entry as the calendar stored it.
 *
 * @param entryId the calendar's id
 * @param start   the absolute start (a local time inside a DST gap is moved forward by the gap)
 * @param created false when the idempotency key matched an existing entry
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record ScheduledEntry(String entryId, OffsetDateTime start, boolean created) {
    /** Rejects nulls. */
    public ScheduledEntry {
        Objects.requireNonNull(entryId, "entryId");
        Objects.requireNonNull(start, "start");
    }
}
