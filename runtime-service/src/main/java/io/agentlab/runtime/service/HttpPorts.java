package io.agentlab.runtime.service;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.agentlab.kernel.api.JsonValues;
import io.agentlab.plugins.calendar.CalendarSchedulePort;
import io.agentlab.plugins.calendar.ScheduleRequest;
import io.agentlab.plugins.calendar.ScheduledEntry;
import io.agentlab.plugins.port.PortException;
import io.agentlab.plugins.search.SearchHit;
import io.agentlab.plugins.search.WebSearchPort;
import io.agentlab.plugins.session.SessionTerminationPort;
import io.agentlab.plugins.volume.DeviceVolumePort;
import io.agentlab.plugins.volume.VolumeCommand;
import io.agentlab.plugins.volume.VolumeState;
import io.agentlab.runtime.llm.Json;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * The four ports, and the probe events' one port call, as HTTP clients of {@code AGENTLAB_PORTS_URL}
 * (docs/wire.md#ports): each call is one {@code POST {ports}/<port>} with a JSON body; {@code 200} is success, an error
 * status with {@code {"error": {"code", "message", "transient"}}} is a {@link PortException} with that code and
 * transience, so the plugins' handlers map it to a failed event exactly as they map an in-memory adapter's.
 *
 * <p>The JDK client's {@code send} is interruptible: when the kernel's event timeout interrupts a handler whose port
 * call hangs, the call is abandoned and the handler ends (docs/wire.md#ports, {@code hang: true}).
 */
@API(status = INTERNAL, since = "0.1")
public final class HttpPorts implements SessionTerminationPort, DeviceVolumePort, CalendarSchedulePort,
        WebSearchPort {

    /** What a probe's port answers when the probe is declared to throw (docs/wire.md#ports). */
    public static final String PROBE_THREW = "probe_threw";

    private final String base;
    private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    /** Clients of the stand-ins at {@code portsUrl} ({@code http://127.0.0.1:<q>/ports}). */
    public HttpPorts(String portsUrl) {
        String url = Objects.requireNonNull(portsUrl, "portsUrl");
        this.base = url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
    }

    @Override
    public Termination terminate(String sessionId, String idempotencyKey) {
        Map<String, Object> answer = post("/session/terminate", body("sessionId", sessionId,
                "idempotencyKey", idempotencyKey));
        return new Termination(String.valueOf(answer.getOrDefault("sessionId", sessionId)),
                Boolean.TRUE.equals(answer.get("alreadyEnded")));
    }

    @Override
    public VolumeState apply(VolumeCommand command) {
        Map<String, Object> answer = post("/device/volume", body("sessionId", command.sessionId(),
                "mode", command.mode().wireName(), "value", command.value(), "delta", command.delta(),
                "idempotencyKey", command.idempotencyKey()));
        return new VolumeState(((Number) answer.get("level")).intValue(), Boolean.TRUE.equals(answer.get("muted")));
    }

    @Override
    public ScheduledEntry create(ScheduleRequest request) {
        Map<String, Object> answer = post("/calendar/entries", body("sessionId", request.sessionId(),
                "title", request.title(), "date", request.date().toString(), "time", request.time().toString(),
                "timezone", request.timezone().getId(), "recurrence", request.recurrence().orElse(null),
                "reminderMinutesBefore", request.reminderMinutesBefore().orElse(null),
                "idempotencyKey", request.idempotencyKey()));
        return new ScheduledEntry(String.valueOf(answer.get("entryId")),
                OffsetDateTime.parse(String.valueOf(answer.get("start"))), !Boolean.FALSE.equals(answer.get("created")));
    }

    @Override
    public List<SearchHit> search(String query, int maxResults) {
        Map<String, Object> answer = post("/search", body("query", query, "maxResults", maxResults));
        return answer.get("hits") instanceof List<?> hits ? hits.stream().map(Map.class::cast)
                .map(hit -> new SearchHit(String.valueOf(hit.get("title")), String.valueOf(hit.get("location")),
                        String.valueOf(hit.get("evidence")), Instant.parse(String.valueOf(hit.get("retrievedAt")))))
                .toList() : List.of();
    }

    /**
     * A probe event's one port call ({@code POST /ports/probe/<name>}); its {@code result}.
     *
     * @throws PortException         when the stand-in answers the probe's declared failure
     * @throws IllegalStateException when the probe is declared to throw: the handler raises, as in-process
     */
    public Map<String, Object> probe(String name, String sessionId, Map<String, Object> arguments,
                                     String idempotencyKey) {
        Map<String, Object> answer = post("/probe/" + name, body("sessionId", sessionId, "arguments", arguments,
                "idempotencyKey", idempotencyKey));
        return answer.get("result") instanceof Map<?, ?> result ? JsonValues.copyObject(cast(result)) : Map.of();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> cast(Map<?, ?> map) {
        return (Map<String, Object>) map;
    }

    private static Map<String, Object> body(Object... pairs) {
        Map<String, Object> body = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            body.put((String) pairs[i], pairs[i + 1]);
        }
        return body;
    }

    /** One port call: the answer's object on 200, else the failure the stand-in declared. */
    private Map<String, Object> post(String path, Map<String, Object> body) {
        HttpRequest request = HttpRequest.newBuilder(URI.create(base + path))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(Json.write(body))).build();
        HttpResponse<String> response;
        try {
            response = client.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // the kernel timed the event out: the call is abandoned
            throw new PortException("port_interrupted", "the call to " + path + " was interrupted", false);
        } catch (IOException e) {
            throw new PortException("port_unreachable", "POST " + base + path + " failed: " + e.getMessage(), true);
        }
        Map<String, Object> answer = response.body().isBlank() ? Map.of() : Json.object(Json.tree(response.body()));
        if (response.statusCode() == 200) {
            return answer;
        }
        Map<String, Object> error = answer.get("error") instanceof Map<?, ?> map ? cast(map) : Map.of();
        String code = String.valueOf(error.getOrDefault("code", "port_http_" + response.statusCode()));
        if (Boolean.TRUE.equals(error.get("throw"))) {
            throw new IllegalStateException(path + " threw as declared (" + code + ")");
        }
        throw new PortException(code, String.valueOf(error.getOrDefault("message", path + " answered "
                + response.statusCode())), Boolean.TRUE.equals(error.get("transient")) || response.statusCode() == 503);
    }
}
