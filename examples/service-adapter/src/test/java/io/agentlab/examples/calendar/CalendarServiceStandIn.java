package io.agentlab.examples.calendar;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.extension.ResponseTransformerV2;
import com.github.tomakehurst.wiremock.http.HttpHeader;
import com.github.tomakehurst.wiremock.http.HttpHeaders;
import com.github.tomakehurst.wiremock.http.Response;
import com.github.tomakehurst.wiremock.stubbing.ServeEvent;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The REST calendar service, stood in by WireMock over real HTTP: {@code POST /entries} creates an entry once per
 * {@code Idempotency-Key} (201, then 200 with the same entry), and can be switched to {@code unavailable} (503) or
 * {@code rejecting} (422) or {@code slow} (10 s) — the states the contract's optional rules ask for.
 */
final class CalendarServiceStandIn implements AutoCloseable {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final Map<String, String> entries = new ConcurrentHashMap<>();
    private final AtomicInteger ids = new AtomicInteger();
    private volatile String state = "normal";
    private final WireMockServer server;

    CalendarServiceStandIn() {
        ResponseTransformerV2 calendar = new ResponseTransformerV2() {
            @Override
            public String getName() {
                return "calendar-stand-in";
            }

            @Override
            public Response transform(Response response, ServeEvent event) {
                return respond(event);
            }
        };
        server = new WireMockServer(options().dynamicPort().extensions(calendar));
        server.start();
        server.stubFor(post(urlEqualTo("/entries")).willReturn(aResponse().withStatus(200)));
    }

    String baseUrl() {
        return server.baseUrl();
    }

    void switchTo(String next) {
        state = next;
    }

    private Response respond(ServeEvent event) {
        if (state.equals("unavailable")) {
            return json(503, "{\"error\":\"maintenance\"}");
        }
        if (state.equals("rejecting")) {
            return json(422, "{\"error\":\"calendar full\"}");
        }
        if (state.equals("slow")) {
            return Response.Builder.like(json(201, "{\"id\":\"late\",\"start\":\"2026-12-01T09:00+08:00\"}")).but()
                    .incrementInitialDelay(10_000).build();
        }
        JsonNode body = JSON.readTree(event.getRequest().getBodyAsString());
        String key = event.getRequest().getHeader("Idempotency-Key");
        ZonedDateTime start = ZonedDateTime.of(LocalDate.parse(body.path("date").asString()),
                LocalTime.parse(body.path("time").asString()), ZoneId.of(body.path("timezone").asString()));
        String fresh = "{\"id\":\"entry-" + ids.incrementAndGet() + "\",\"start\":\"" + start.toOffsetDateTime() + "\"}";
        if (key == null) {
            return json(201, fresh); // without a key every request is a new entry
        }
        String existing = entries.putIfAbsent(key, fresh);
        return existing == null ? json(201, fresh) : json(200, existing);
    }

    private static Response json(int status, String body) {
        return Response.response().status(status)
                .headers(new HttpHeaders(new HttpHeader("Content-Type", "application/json"))).body(body).build();
    }

    @Override
    public void close() {
        server.stop();
    }
}
