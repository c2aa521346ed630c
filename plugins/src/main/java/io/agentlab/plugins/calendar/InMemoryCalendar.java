package io.agentlab.plugins.calendar;

import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/** An in-memory calendar: one entry per idempotency key, every call recorded. */
public final class InMemoryCalendar implements CalendarSchedulePort {

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

    private record Stored(ScheduleRequest request, ScheduledEntry entry) {
    }
}
