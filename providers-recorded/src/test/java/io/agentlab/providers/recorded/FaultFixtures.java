package io.agentlab.providers.recorded;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The fault fixtures shipped under {@code src/main/resources/recordings}, as code: every stream is written in its
 * provider family's shape by {@link ProviderStream}, so a fault differs from a faithful stream only by the fault.
 * {@link RecordingsTest#committedFixturesMatchCode()} keeps the committed files equal to this.
 */
final class FaultFixtures {

    static final LocalDate DAY = LocalDate.of(2026, 11, 30);
    static final String MODEL = "model-x";
    private static final String TIMING = "modelled: fixed fault-fixture offsets (first event 20 ms, then %d ms apart)";
    private static final String NO_STREAM = "modelled: no stream is sent (a fault fixture)";
    private static final Map<String, String> SSE = Map.of("Content-Type", "text/event-stream");

    private FaultFixtures() {
    }

    static List<Recording> fixtures() {
        List<Recording> all = new ArrayList<>();
        all.add(answer("fault-http-429", "fault 429", new Recording.RecordedResponse(429,
                Map.of("Content-Type", "application/json", "Retry-After", "7"), List.of(),
                "{\"error\":{\"message\":\"rate limited\",\"type\":\"rate_limit\"}}", null)));
        all.add(answer("fault-http-500", "fault 500", new Recording.RecordedResponse(500,
                Map.of("Content-Type", "application/json"), List.of(), "{\"error\":{\"message\":\"internal error\"}}",
                null)));
        all.add(answer("fault-connection-reset", "fault reset",
                new Recording.RecordedResponse(200, SSE, List.of(), null, "connection_reset")));
        // a stream that stops mid-answer: no finish reason, no [DONE]
        all.add(stream("fault-truncated", "any", "fault truncated", 20,
                stream(ProviderFamily.OPENAI, "fault-truncated").content("Once upon ", "a time")));
        // a chunk cut short: not JSON
        all.add(stream("fault-malformed-chunk", "any", "fault malformed", 20,
                stream(ProviderFamily.OPENAI, "fault-malformed-chunk").content("Hel")
                        .raw("{\"choices\":[{\"delta\":{\"content\":")));
        // a finish reason (with DeepSeek's usage on it) and then the connection closes without [DONE]: tolerated
        all.add(stream("fault-missing-done", "any", "fault missing done", 20,
                stream(ProviderFamily.DEEPSEEK, "fault-missing-done").content("All fine.")
                        .finish("stop", ProviderStream.Usage.of(40, 3))));
        // 150 ms between chunks, well within the read timeout: tolerated
        all.add(stream("fault-slow-dribble", "any", "fault slow dribble", 150,
                stream(ProviderFamily.DASHSCOPE, "fault-slow-dribble").content("Slow", " and", " steady.")
                        .finish("stop", ProviderStream.Usage.of(40, 4)).done()));
        // llama.cpp's server when the model's output does not parse as the template's tool-call format: an error object
        // in the stream instead of the usage chunk and [DONE] (wire shape derived from the real server's streams)
        all.add(stream("fault-llamacpp-stream-error", "any", "fault stream error", 20,
                stream(ProviderFamily.LLAMACPP, "fault-llamacpp-stream-error").content("Sure", ", turning")
                        .raw("{\"error\":{\"code\":500,\"message\":\"The model produced output that does not "
                                + "match the expected peg-native format\",\"type\":\"server_error\"}}")));
        // tool-call arguments that are not JSON
        all.add(stream("fault-invalid-tool-arguments", "chat_agent_tools", "lamp off please", 20,
                stream(ProviderFamily.OPENAI, "fault-invalid-tool-arguments").content("Switching it off.")
                        .toolCall(0, "call_1", "lamp_power_toggle", List.of("{\"state\": off"))
                        .finish("tool_calls", null).done()));
        return all;
    }

    private static ProviderStream stream(ProviderFamily family, String id) {
        return family.stream(MODEL, id, DAY);
    }

    private static Recording stream(String id, String mode, String user, long gapMs, ProviderStream stream) {
        List<String> payloads = stream.payloads();
        List<Recording.TimedEvent> events = new ArrayList<>();
        for (int i = 0; i < payloads.size(); i++) {
            // the role chunk comes with the first token; [DONE] comes with the last chunk
            boolean withPrevious = i == 1 || payloads.get(i).equals("[DONE]");
            long at = i == 0 ? 20 : events.get(i - 1).offsetMs() + (withPrevious ? 0 : gapMs);
            events.add(new Recording.TimedEvent(at, payloads.get(i)));
        }
        return new Recording(id, new RequestMatcher(mode, "chat", user),
                new Recording.RecordedResponse(200, SSE, events), metadata(stream.family(),
                String.format(TIMING, gapMs)));
    }

    private static Recording answer(String id, String user, Recording.RecordedResponse response) {
        return new Recording(id, new RequestMatcher("any", "chat", user), response,
                metadata(ProviderFamily.OPENAI, NO_STREAM));
    }

    private static Recording.Metadata metadata(ProviderFamily family, String timing) {
        return new Recording.Metadata(family.wireName(), MODEL, DAY.toString(), true, List.of(), timing);
    }
}
