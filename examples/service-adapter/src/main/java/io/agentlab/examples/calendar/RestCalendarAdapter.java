package io.agentlab.examples.calendar;

import io.agentlab.plugins.calendar.CalendarSchedulePort;
import io.agentlab.plugins.calendar.ScheduleRequest;
import io.agentlab.plugins.calendar.ScheduledEntry;
import io.agentlab.plugins.port.PortException;
import java.io.IOException;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.LinkedHashMap;
import java.util.Map;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@link CalendarSchedulePort} over a REST calendar service: {@code POST /entries} with an {@code Idempotency-Key}
 * header; 201 is a new entry, 200 the entry an earlier request with that key created; 429 and 5xx are transient
 * failures, other 4xx permanent ones; a connection problem is transient.
 */
public final class RestCalendarAdapter implements CalendarSchedulePort {

    private static final MediaType JSON_TYPE = MediaType.get("application/json");
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final String baseUrl;
    private final OkHttpClient http;

    /** An adapter for the service at {@code baseUrl}, with a 3 s timeout (inside the event's). */
    public RestCalendarAdapter(String baseUrl) {
        this.baseUrl = baseUrl.endsWith("/") ? baseUrl.substring(0, baseUrl.length() - 1) : baseUrl;
        this.http = new OkHttpClient.Builder().callTimeout(Duration.ofSeconds(3)).retryOnConnectionFailure(false)
                .build();
    }

    @Override
    public ScheduledEntry create(ScheduleRequest request) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("sessionId", request.sessionId());
        body.put("title", request.title());
        body.put("date", request.date().toString());
        body.put("time", request.time().toString());
        body.put("timezone", request.timezone().getId());
        request.recurrence().ifPresent(r -> body.put("recurrence", r));
        request.reminderMinutesBefore().ifPresent(r -> body.put("reminderMinutesBefore", r));
        Request http = new Request.Builder().url(baseUrl + "/entries").header("Idempotency-Key", request.idempotencyKey())
                .post(RequestBody.create(JSON.writeValueAsString(body), JSON_TYPE)).build();
        try (Response response = this.http.newCall(http).execute()) {
            int status = response.code();
            if (status == 201 || status == 200) {
                JsonNode entry = JSON.readTree(response.body().string());
                return new ScheduledEntry(entry.path("id").asString(), OffsetDateTime.parse(entry.path("start").asString()),
                        status == 201);
            }
            boolean transientFailure = status == 429 || status >= 500;
            throw new PortException(transientFailure ? "calendar_unavailable" : "calendar_rejected",
                    "the calendar service answered HTTP " + status, transientFailure);
        } catch (IOException e) {
            throw new PortException("calendar_unreachable", "cannot reach the calendar service: " + e.getMessage(), true);
        }
    }
}
