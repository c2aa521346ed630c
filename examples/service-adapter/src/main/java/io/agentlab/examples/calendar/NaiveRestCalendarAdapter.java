package io.agentlab.examples.calendar;

import io.agentlab.plugins.calendar.CalendarSchedulePort;
import io.agentlab.plugins.calendar.ScheduleRequest;
import io.agentlab.plugins.calendar.ScheduledEntry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.OffsetDateTime;
import java.util.Map;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * How not to write the adapter — kept to show what the contract catches: it sends no idempotency key, treats every
 * answer as a new entry, and lets HTTP errors escape as plain exceptions.
 */
public final class NaiveRestCalendarAdapter implements CalendarSchedulePort {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private final String baseUrl;
    private final OkHttpClient http = new OkHttpClient();

    /** An adapter for the service at {@code baseUrl}. */
    public NaiveRestCalendarAdapter(String baseUrl) {
        this.baseUrl = baseUrl;
    }

    @Override
    public ScheduledEntry create(ScheduleRequest request) {
        String body = JSON.writeValueAsString(Map.of("title", request.title(), "date", request.date().toString(),
                "time", request.time().toString(), "timezone", request.timezone().getId()));
        try (Response response = http.newCall(new Request.Builder().url(baseUrl + "/entries")
                .post(RequestBody.create(body, MediaType.get("application/json"))).build()).execute()) {
            if (!response.isSuccessful()) {
                throw new IllegalStateException("HTTP " + response.code());
            }
            JsonNode entry = JSON.readTree(response.body().string());
            return new ScheduledEntry(entry.path("id").asString(), OffsetDateTime.parse(entry.path("start").asString()),
                    true);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
