package io.agentlab.engine.internal.wire;

import static org.apiguardian.api.API.Status.INTERNAL;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
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
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
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
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicReference;
import org.apiguardian.api.API;

/**
 * The port stand-ins a runtime over the wire calls (docs/wire.md#ports): one loopback HTTP server for the run, serving
 * the case that runs now ({@link #open}). Each call is recorded in the case's {@link HandlerLog} — the same log, ticks
 * and start watches an in-process handler call records into, so {@code portCalls}, {@code batch} and interruptions
 * read the same — and answered by the kit's in-memory adapters (so a port's state reads as in-process, through the
 * same plugins), or by the turn's declared handler fault, or, for a probe, by the probe's declared behaviour
 * ({@link ProbeEvents}: awaits, latency, outcome).
 */
@API(status = INTERNAL, since = "0.1")
public final class PortStandIns implements AutoCloseable {

    /** The event each built-in port serves: a call to it is a call of that event's handler. */
    private static final Map<String, String> EVENTS = Map.of(
            "/session/terminate", SessionTerminatePlugin.NAME,
            "/device/volume", VolumePlugin.NAME,
            "/calendar/entries", CalendarPlugin.NAME,
            "/search", SearchPlugin.NAME);

    private final HttpServer server;
    private final AtomicReference<CaseStandIns> current = new AtomicReference<>();

    private PortStandIns(HttpServer server) {
        this.server = server;
        server.createContext("/ports/", this::serve);
        server.setExecutor(Executors.newCachedThreadPool(runnable -> {
            Thread thread = new Thread(runnable, "agentlab-port-stand-in");
            thread.setDaemon(true);
            return thread;
        }));
        server.start();
    }

    /** Starts the stand-ins on a free loopback port. */
    public static PortStandIns start() throws IOException {
        return new PortStandIns(HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0));
    }

    /** {@code AGENTLAB_PORTS_URL}: {@code http://127.0.0.1:<q>/ports}. */
    public String baseUrl() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/ports";
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
                        : probe(probe, name, session, arguments, key));
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
                    return Answer.ok(adapter(path, body, session, key));
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

    private void serve(HttpExchange exchange) throws IOException {
        try (exchange) {
            String path = exchange.getRequestURI().getPath().substring("/ports".length());
            CaseStandIns stand = current.get();
            Answer answer;
            if (stand == null) {
                answer = Answer.error(409, "no_case", "no case is running: a port call outside any turn", false);
            } else {
                try {
                    answer = stand.call(path, Json.object(Json.tree(new String(exchange.getRequestBody().readAllBytes(),
                            StandardCharsets.UTF_8))));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    answer = Answer.error(503, "released", "the case ended while the call was held", true);
                } catch (Exception e) {
                    answer = Answer.error(400, "bad_request", path + ": " + e, false);
                }
            }
            byte[] bytes = Json.write(answer.body()).getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(answer.status(), bytes.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        }
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
        server.stop(0);
    }
}
