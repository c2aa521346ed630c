package io.agentlab.engine.internal.wire;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.agentlab.engine.internal.execution.HandlerLog;
import io.agentlab.engine.internal.execution.ProbeEvents;
import io.agentlab.engine.internal.suite.Suite;
import io.agentlab.kernel.api.EventDefinition;
import io.agentlab.kernel.api.EventInvocation;
import io.agentlab.kernel.api.EventPlugin;
import io.agentlab.kernel.api.EventScope;
import io.agentlab.kernel.api.HandlerResult;
import io.agentlab.kernel.api.TurnContext;
import io.agentlab.plugins.BuiltInPlugins;
import io.agentlab.plugins.calendar.CalendarPlugin;
import io.agentlab.plugins.search.SearchPlugin;
import io.agentlab.plugins.session.SessionTerminatePlugin;
import io.agentlab.plugins.volume.VolumePlugin;
import io.agentlab.plugins.calendar.InMemoryCalendar;
import io.agentlab.plugins.calendar.ScheduleRequest;
import io.agentlab.plugins.calendar.ScheduledEntry;
import io.agentlab.plugins.port.PortException;
import io.agentlab.plugins.search.InMemoryWebSearch;
import io.agentlab.plugins.search.SearchHit;
import io.agentlab.plugins.session.InMemorySessions;
import io.agentlab.plugins.session.SessionTerminationPort;
import io.agentlab.plugins.volume.InMemoryDeviceVolume;
import io.agentlab.plugins.volume.VolumeCommand;
import io.agentlab.plugins.volume.VolumeMode;
import io.agentlab.plugins.volume.VolumeState;
import io.agentlab.runtime.llm.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneId;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import org.apiguardian.api.API;

/**
 * The port stand-ins a runtime over the wire calls (docs/wire.md#ports): one loopback HTTP server for the run, serving
 * the case that runs now ({@link #open}). Each call is recorded in the case's {@link HandlerLog} — the same log, ticks
 * and start watches an in-process handler call records into, so {@code portCalls}, {@code batch} and interruptions
 * read the same — and answered by the kit's in-memory adapters (so a port's state reads as in-process, through the
 * same plugins), or by the turn's declared handler fault, or, for a probe, by the probe's declared behaviour
 * ({@link ProbeEvents}: awaits, latency, outcome). A call the runtime drops (its event timeout closing the
 * connection) ends there: the work behind it is interrupted, so the call's return is recorded when the runtime gave
 * up on it, as an in-process handler's is when the kernel interrupts it (docs/wire.md#batch-orders).
 */
@API(status = INTERNAL, since = "0.1")
public final class PortStandIns implements AutoCloseable {

    /** The event each built-in port serves: a call to it is a call of that event's handler. */
    private static final Map<String, String> EVENTS = Map.of(
            "/session/terminate", SessionTerminatePlugin.NAME,
            "/device/volume", VolumePlugin.NAME,
            "/calendar/entries", CalendarPlugin.NAME,
            "/search", SearchPlugin.NAME);

    /**
     * The longest a port call of an event named by a turn's {@code firstVisibleBefore} is held until the first visible
     * text has reached the kit (docs/wire.md#first-visible), unless the event's timeout is shorter: then half of it.
     */
    public static final Duration FIRST_VISIBLE_HOLD = Duration.ofSeconds(3);

    private final StandInServer server;
    private final AtomicReference<CaseStandIns> current = new AtomicReference<>();

    private PortStandIns(int port) throws IOException {
        this.server = StandInServer.start(port, this::serve);
    }

    /** Starts the stand-ins on a free loopback port. */
    public static PortStandIns start() throws IOException {
        return start(0);
    }

    /**
     * Starts the stand-ins on loopback {@code port} ({@code 0}: a free one); a fixed port lets a runtime already
     * running be configured before the run (docs/wire.md#attach).
     */
    public static PortStandIns start(int port) throws IOException {
        return new PortStandIns(port);
    }

    /** {@code AGENTLAB_PORTS_URL}: {@code http://127.0.0.1:<q>/ports}. */
    public String baseUrl() {
        return "http://127.0.0.1:" + server.port() + "/ports";
    }

    /**
     * Opens one case's stand-ins: fresh in-memory adapters behind the four ports, the suite's probes, every call into
     * {@code log}. The run serves one case at a time (docs/wire.md#one-turn-at-a-time).
     */
    public CaseStandIns open(Suite suite, HandlerLog log) {
        CaseStandIns stand = new CaseStandIns(suite, log);
        current.set(stand);
        return stand;
    }

    /**
     * One case's stand-ins.
     */
    public final class CaseStandIns implements AutoCloseable {
        private final InMemorySessions sessions = new InMemorySessions();
        private final InMemoryDeviceVolume volume = new InMemoryDeviceVolume();
        private final InMemoryCalendar calendar = new InMemoryCalendar();
        private final InMemoryWebSearch search = new InMemoryWebSearch();
        private final List<EventPlugin> plugins = BuiltInPlugins.builder().session(sessions).volume(volume)
                .calendar(calendar).search(search).build();
        private final Map<String, EventDefinition> probes = new LinkedHashMap<>();
        private final ProbeEvents probeEvents = new ProbeEvents();
        private final HandlerLog log;
        private final Suite suite;
        /** Released when the case ends: a hanging fault's call holds until then at most. */
        private final CountDownLatch released = new CountDownLatch(1);
        /** The turn's events whose port answers wait for the first visible text (docs/wire.md#first-visible). */
        private volatile Set<String> held = Set.of();
        private volatile CompletableFuture<Void> firstVisible = CompletableFuture.completedFuture(null);

        private CaseStandIns(Suite suite, HandlerLog log) {
            this.suite = suite;
            this.log = log;
            for (Suite.Probe probe : suite.probes()) {
                probes.put(probe.name(), probeEvents.definition(probe));
            }
        }

        /** The plugins over this case's adapters, whose port states the expectations read (as in-process). */
        public List<EventPlugin> plugins() {
            return plugins;
        }

        /**
         * For the turn about to run: the answers of {@code events}' port calls wait until {@code visible} completes
         * (the first visible text reached the kit) or {@link #FIRST_VISIBLE_HOLD} passes, so "the first visible text
         * before the handler returned" is a happens-before fact over the wire as it is in-process
         * (docs/wire.md#first-visible).
         */
        public void holdUntilVisible(Set<String> events, CompletableFuture<Void> visible) {
            firstVisible = visible;
            held = Set.copyOf(events);
        }

        /** Waits, for a held event, until the first visible text has arrived or the hold's bound passes. */
        private <T> T afterVisible(String event, T answer) throws InterruptedException {
            if (held.contains(event)) {
                Duration timeout = plugins.stream().map(EventPlugin::definition).filter(d -> d.name().equals(event))
                        .map(EventDefinition::timeout).findFirst().or(() -> Optional.ofNullable(probes.get(event))
                                .map(EventDefinition::timeout)).orElse(FIRST_VISIBLE_HOLD.multipliedBy(2));
                Duration hold = timeout.dividedBy(2).compareTo(FIRST_VISIBLE_HOLD) < 0 ? timeout.dividedBy(2)
                        : FIRST_VISIBLE_HOLD;
                try {
                    firstVisible.get(hold.toMillis(), TimeUnit.MILLISECONDS);
                } catch (TimeoutException | java.util.concurrent.ExecutionException e) {
                    // the bound passed: answer now, and the verdict reads the order as it came
                }
            }
            return answer;
        }

        /** The probes' definitions as in-process, whose descriptions and traits the runtime is sent. */
        public Map<String, EventDefinition> probes() {
            return Map.copyOf(probes);
        }

        @Override
        public void close() {
            released.countDown();
            probeEvents.release();
            current.compareAndSet(this, null);
        }

        /** One port call: recorded, then answered. */
        private Answer call(String path, Map<String, Object> body) throws Exception {
            String session = text(body, "sessionId");
            String key = text(body, "idempotencyKey");
            if (path.startsWith("/probe/")) {
                String name = path.substring("/probe/".length());
                EventDefinition probe = probes.get(name);
                if (probe == null) {
                    return Answer.error(404, "unknown_probe", "the suite declares no probe " + name, false);
                }
                Map<String, Object> arguments = body.get("arguments") instanceof Map<?, ?> map ? cast(map) : Map.of();
                return log.record(name, key, arguments, key, fault -> fault.isPresent() ? faulted(fault.get())
                        : afterVisible(name, probe(probe, name, session, arguments, key)));
            }
            String event = EVENTS.get(path);
            if (event == null) {
                return Answer.error(404, "unknown_port", "no port " + path + "; expected one of "
                        + EVENTS.keySet().stream().sorted().toList() + " or /probe/<name>", false);
            }
            Map<String, Object> arguments = new LinkedHashMap<>(body);
            arguments.remove("sessionId");
            arguments.remove("idempotencyKey");
            return log.record(event, key, arguments, key, fault -> {
                if (fault.isPresent()) {
                    return faulted(fault.get());
                }
                try {
                    return afterVisible(event, Answer.ok(adapter(path, body, session, key)));
                } catch (PortException e) {
                    return Answer.error(e.isTransient() ? 503 : 422, e.code(), e.getMessage(), e.isTransient());
                }
            });
        }

        /** The turn's handler fault for the event: its code and message; a hang holds the call until the case ends. */
        private Answer faulted(Suite.HandlerFault fault) throws InterruptedException {
            if (fault.hang()) {
                released.await(); // the runtime gives up on it (its event timeout) or the case ends
            }
            return Answer.error(fault.transientFailure() ? 503 : 422, fault.code(), fault.message(),
                    fault.transientFailure());
        }

        /** A probe's declared behaviour, exactly its in-process handler's. */
        private Answer probe(EventDefinition probe, String name, String session, Map<String, Object> arguments,
                             String key) throws Exception {
            EventInvocation invocation = new EventInvocation(key == null ? name : key, name, arguments,
                    key == null ? "" : key, new TurnContext(new EventScope(session == null ? "wire" : session, "wire"),
                    Instant.now(), ZoneId.of("UTC"), Locale.ROOT, "", List.of()), 1);
            HandlerResult result;
            try {
                result = probe.handler().handle(invocation);
            } catch (IllegalStateException e) {
                // the probe is declared to throw: the runtime's handler raises (docs/wire.md#ports)
                return new Answer(500, Map.of("error", Map.of("code", "probe_threw", "message", e.getMessage(),
                        "throw", true)));
            }
            if (result instanceof HandlerResult.Failure failure) {
                return Answer.error(failure.transientFailure() ? 503 : 422, failure.code(), failure.message(),
                        failure.transientFailure());
            }
            return Answer.ok(Map.of("result", ((HandlerResult.Success) result).payload()));
        }

        /** A built-in port's call, answered by its in-memory adapter. */
        private Map<String, Object> adapter(String path, Map<String, Object> body, String session, String key) {
            switch (path) {
                case "/session/terminate" -> {
                    SessionTerminationPort.Termination termination = sessions.terminate(session, key);
                    return Map.of("sessionId", termination.sessionId(), "alreadyEnded", termination.alreadyEnded());
                }
                case "/device/volume" -> {
                    VolumeMode mode = Arrays.stream(VolumeMode.values())
                            .filter(m -> m.wireName().equals(text(body, "mode"))).findFirst()
                            .orElseThrow(() -> new PortException("invalid_request", "unknown volume mode "
                                    + body.get("mode"), false));
                    VolumeState state = volume.apply(new VolumeCommand(session, mode, integer(body, "value"),
                            integer(body, "delta"), key));
                    return Map.of("level", state.level(), "muted", state.muted());
                }
                case "/calendar/entries" -> {
                    ScheduledEntry entry = calendar.create(new ScheduleRequest(session, text(body, "title"),
                            LocalDate.parse(text(body, "date")), LocalTime.parse(text(body, "time")),
                            ZoneId.of(text(body, "timezone")), Optional.ofNullable(text(body, "recurrence")),
                            Optional.ofNullable(integer(body, "reminderMinutesBefore")), key));
                    return Map.of("entryId", entry.entryId(), "start", entry.start().toString(),
                            "created", entry.created());
                }
                default -> {
                    List<SearchHit> hits = search.search(text(body, "query"),
                            Optional.ofNullable(integer(body, "maxResults")).orElse(3));
                    return Map.of("hits", hits.stream().map(hit -> Map.of("title", hit.title(), "location",
                            hit.location(), "evidence", hit.evidence(), "retrievedAt", hit.retrievedAt().toString()))
                            .toList());
                }
            }
        }
    }

    /** One answer: status and JSON body. */
    private record Answer(int status, Map<String, Object> body) {
        static Answer ok(Map<String, Object> body) {
            return new Answer(200, body);
        }

        static Answer error(int status, String code, String message, boolean transientFailure) {
            return new Answer(status, Map.of("error", Map.of("code", code, "message", message,
                    "transient", transientFailure)));
        }
    }

    /**
     * One port call. When the runtime drops it before the answer (its event timeout closing the connection), the work
     * behind it is interrupted, so the call's return is recorded then (docs/wire.md#batch-orders).
     */
    private StandInServer.Reply serve(String target, byte[] request, CompletableFuture<Void> gone) {
        String path = target.startsWith("/ports/") ? target.substring("/ports".length()) : target;
        CaseStandIns stand = current.get();
        Answer answer;
        if (stand == null) {
            answer = Answer.error(409, "no_case", "no case is running: a port call outside any turn", false);
        } else {
            Thread worker = Thread.currentThread();
            Object lock = new Object();
            boolean[] working = {true};
            gone.thenRun(() -> {
                synchronized (lock) {
                    if (working[0]) {
                        worker.interrupt();
                    }
                }
            });
            try {
                answer = stand.call(path, Json.object(Json.tree(new String(request, StandardCharsets.UTF_8))));
            } catch (InterruptedException e) {
                answer = Answer.error(503, "released", "the call was dropped, or the case ended while it was held",
                        true);
            } catch (Exception e) {
                answer = Answer.error(400, "bad_request", path + ": " + e, false);
            } finally {
                synchronized (lock) {
                    working[0] = false;
                }
                Thread.interrupted(); // an interrupt that came as the work ended has nothing left to end
            }
        }
        return new StandInServer.Reply(answer.status(), Json.write(answer.body()).getBytes(StandardCharsets.UTF_8));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> cast(Map<?, ?> map) {
        return (Map<String, Object>) map;
    }

    private static String text(Map<String, Object> body, String key) {
        return body.get(key) instanceof String value ? value : null;
    }

    private static Integer integer(Map<String, Object> body, String key) {
        return body.get(key) instanceof Number value ? value.intValue() : null;
    }

    @Override
    public void close() {
        CaseStandIns stand = current.getAndSet(null);
        if (stand != null) {
            stand.close();
        }
        server.close();
    }
}
