package io.agentlab.plugins.calendar;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.agentlab.kernel.api.PortState;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apiguardian.api.API;

/**
 * An in-memory calendar: one entry per idempotency key, every call recorded. Its {@link #snapshot() state} lists the
 * entries it holds.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class InMemoryCalendar implements CalendarSchedulePort, PortState {

    private final Map<String, Stored> byKey = new LinkedHashMap<>();
    private final List<ScheduleRequest> calls = new CopyOnWriteArrayList<>();

    @Override
    public synchronized ScheduledEntry create(ScheduleRequest request) {
        calls.add(request);
        Stored existing = byKey.get(request.idempotencyKey());
        if (existing != null) {
            return new ScheduledEntry(existing.entry().entryId(), existing.entry().start(), false);
        }
        // ofLocal moves a time inside a DST gap forward by the gap and takes the earlier offset in an overlap.
        ZonedDateTime start = ZonedDateTime.ofLocal(request.date().atTime(request.time()), request.timezone(), null);
        ScheduledEntry entry = new ScheduledEntry("cal-" + (byKey.size() + 1), start.toOffsetDateTime(), true);
        byKey.put(request.idempotencyKey(), new Stored(request, entry));
        return entry;
    }

    /** The stored entries' requests, in creation order (one per idempotency key). */
    public synchronized List<ScheduleRequest> entries() {
        List<ScheduleRequest> entries = new ArrayList<>();
        byKey.values().forEach(stored -> entries.add(stored.request()));
        return entries;
    }

    /** Every call, including repeats. */
    public List<ScheduleRequest> calls() {
        return List.copyOf(calls);
    }

    /**
     * The entries held, in creation order: {@code {"entries": [{"entry_id", "title", "date", "time", "timezone",
     * "start", "recurrence"?, "reminder_minutes_before"?}]}}, the local date and time read back from the stored start
     * in the entry's zone (so a time stored in the wrong zone shows).
     */
    @Override
    public synchronized Map<String, Object> snapshot() {
        List<Object> entries = new ArrayList<>();
        for (Stored stored : byKey.values()) {
            entries.add(stored.entry().fields(stored.request()));
        }
        return Map.of("entries", entries);
    }

    private record Stored(ScheduleRequest request, ScheduledEntry entry) {
    }
}
