package io.agentlab.plugins.contracts;

import io.agentlab.contracts.AdapterContractTests;
import io.agentlab.contracts.AdapterRuleCatalogue;
import io.agentlab.kernel.api.rule.Rule;
import io.agentlab.plugins.port.PortException;
import static org.apiguardian.api.API.Status.INTERNAL;
import io.agentlab.plugins.calendar.CalendarSchedulePort;
import io.agentlab.plugins.calendar.ScheduleRequest;
import io.agentlab.plugins.calendar.ScheduledEntry;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apiguardian.api.API;

/**
 * {@link CalendarSchedulePort} adapters. States: {@code unavailable} (the service answers like an outage: a transient
 * failure), {@code rejecting} (it refuses the request: a permanent failure), {@code slow} (it answers only after ten
 * seconds). The port reports no recurrence or reminder back, so their preservation is left to the adapter's own tests.
 */
@API(status = INTERNAL, since = "0.1")
public final class CalendarAdapterRules implements AdapterRuleCatalogue<CalendarSchedulePort> {

    @Override
    public Class<CalendarSchedulePort> port() {
        return CalendarSchedulePort.class;
    }

    @Override
    public List<RuleCheck<CalendarSchedulePort>> rules() {
        return List.of(
                new RuleCheck<>(Rule.required("AC-CAL-01", "idempotent_when_repeated",
                        "docs/design.md#plugin-schedule-idempotent",
                        "The same idempotency key twice creates one entry: the same id, created only the first time."),
                        CalendarAdapterRules::sequential),
                new RuleCheck<>(Rule.required("AC-CAL-02", "idempotent_under_concurrency",
                        "docs/design.md#plugin-schedule-idempotent",
                        "Eight concurrent requests with one key create one entry."), CalendarAdapterRules::concurrent),
                new RuleCheck<>(Rule.required("AC-CAL-03", "distinct_keys_distinct_entries",
                        "docs/design.md#plugin-schedule-idempotent",
                        "Different keys create different entries."), CalendarAdapterRules::distinct),
                new RuleCheck<>(Rule.required("AC-CAL-04", "local_time_in_its_zone",
                        "docs/design.md#plugin-schedule-port",
                        "09:00 on 2026-12-01 in Asia/Shanghai starts at 2026-12-01T01:00Z, whatever offset is reported."),
                        CalendarAdapterRules::timezone),
                new RuleCheck<>(Rule.optional("AC-CAL-05", "outage_is_transient_failure",
                        "docs/design.md#plugin-schedule-port",
                        "With the service unavailable the adapter raises a transient PortException (state unavailable)."),
                        (subject, rule) -> failure(subject, rule, "unavailable", true)),
                new RuleCheck<>(Rule.optional("AC-CAL-06", "refusal_is_permanent_failure",
                        "docs/design.md#plugin-schedule-port",
                        "With the request refused the adapter raises a permanent PortException (state rejecting)."),
                        (subject, rule) -> failure(subject, rule, "rejecting", false)),
                new RuleCheck<>(Rule.optional("AC-CAL-07", "slow_service_times_out_in_time",
                        "docs/design.md#plugin-schedule-port",
                        "With the service answering after 10 s the adapter gives up within the event's 5 s timeout, "
                                + "as a transient PortException (state slow)."), CalendarAdapterRules::slow));
    }

    static ScheduleRequest request(String key) {
        return new ScheduleRequest("contract-session", "call grandma", LocalDate.of(2026, 12, 1), LocalTime.of(9, 0),
                ZoneId.of("Asia/Shanghai"), Optional.empty(), Optional.empty(), key);
    }

    private static void sequential(AdapterContractTests<CalendarSchedulePort> subject,
                                   RuleCheck<CalendarSchedulePort> rule) {
        CalendarSchedulePort adapter = subject.adapter();
        String key = "contract-" + UUID.randomUUID();
        ScheduledEntry first = adapter.create(request(key));
        ScheduledEntry second = adapter.create(request(key));
        if (!first.entryId().equals(second.entryId()) || !first.created() || second.created()) {
            throw rule.failure("the same key gave " + first + " then " + second + "; expected one entry, created once");
        }
    }

    private static void concurrent(AdapterContractTests<CalendarSchedulePort> subject,
                                   RuleCheck<CalendarSchedulePort> rule) throws Exception {
        CalendarSchedulePort adapter = subject.adapter();
        String key = "contract-" + UUID.randomUUID();
        CountDownLatch start = new CountDownLatch(1);
        Set<String> ids = ConcurrentHashMap.newKeySet();
        List<CompletableFuture<ScheduledEntry>> calls = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            calls.add(CompletableFuture.supplyAsync(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return adapter.create(request(key));
            }));
        }
        start.countDown();
        long created = 0;
        for (CompletableFuture<ScheduledEntry> call : calls) {
            ScheduledEntry entry = call.get(30, TimeUnit.SECONDS);
            ids.add(entry.entryId());
            created += entry.created() ? 1 : 0;
        }
        if (ids.size() != 1 || created != 1) {
            throw rule.failure("8 concurrent requests with one key gave entries " + ids + " with " + created
                    + " created; expected one entry created once");
        }
    }

    private static void distinct(AdapterContractTests<CalendarSchedulePort> subject, RuleCheck<CalendarSchedulePort> rule) {
        CalendarSchedulePort adapter = subject.adapter();
        ScheduledEntry a = adapter.create(request("contract-" + UUID.randomUUID()));
        ScheduledEntry b = adapter.create(request("contract-" + UUID.randomUUID()));
        if (a.entryId().equals(b.entryId())) {
            throw rule.failure("two different keys gave the same entry " + a.entryId());
        }
    }

    private static void timezone(AdapterContractTests<CalendarSchedulePort> subject, RuleCheck<CalendarSchedulePort> rule) {
        ScheduledEntry entry = subject.adapter().create(request("contract-" + UUID.randomUUID()));
        Instant expected = Instant.parse("2026-12-01T01:00:00Z");
        if (!entry.start().toInstant().equals(expected)) {
            throw rule.failure("09:00 Asia/Shanghai on 2026-12-01 started at " + entry.start() + " ("
                    + entry.start().toInstant() + "); expected " + expected);
        }
    }

    private static void slow(AdapterContractTests<CalendarSchedulePort> subject, RuleCheck<CalendarSchedulePort> rule)
            throws InterruptedException {
        subject.given("slow");
        CalendarSchedulePort adapter = subject.adapter();
        CompletableFuture<ScheduledEntry> call = CompletableFuture.supplyAsync(() -> adapter.create(
                request("contract-" + UUID.randomUUID())));
        try {
            ScheduledEntry entry = call.get(EVENT_TIMEOUT_SECONDS, TimeUnit.SECONDS);
            throw rule.failure("with the service answering after 10 s the adapter returned " + entry
                    + " within the timeout; expected it to give up");
        } catch (java.util.concurrent.TimeoutException e) {
            call.cancel(true);
            throw rule.failure("the adapter was still waiting after " + EVENT_TIMEOUT_SECONDS + " s, the calendar "
                    + "event's timeout: the kernel would abandon the call while the entry may still be created");
        } catch (java.util.concurrent.ExecutionException e) {
            if (!(e.getCause() instanceof PortException port) || !port.isTransient()) {
                throw rule.failure("a slow service ended in " + e.getCause() + "; expected a transient PortException");
            }
        }
    }

    /** The calendar event's timeout (docs/plugins.md), which a call to the service must stay inside. */
    static final long EVENT_TIMEOUT_SECONDS = 5;

    private static void failure(AdapterContractTests<CalendarSchedulePort> subject, RuleCheck<CalendarSchedulePort> rule,
                                String state, boolean transientExpected) {
        subject.given(state);
        try {
            ScheduledEntry entry = subject.adapter().create(request("contract-" + UUID.randomUUID()));
            throw rule.failure("with the service " + state + " the adapter returned " + entry
                    + "; expected a PortException");
        } catch (PortException e) {
            if (e.isTransient() != transientExpected) {
                throw rule.failure("with the service " + state + " the PortException '" + e.code() + "' says transient="
                        + e.isTransient() + "; expected " + transientExpected);
            }
        } catch (RuntimeException e) {
            throw rule.failure("with the service " + state + " the adapter threw " + e
                    + "; expected a PortException with a code (the handler maps only those to failures)");
        }
    }
}
