package io.agentlab.providers.recorded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.agentlab.runtime.llm.CallRole;
import io.agentlab.runtime.llm.ChatMessage;
import io.agentlab.runtime.llm.ChatRequest;
import io.agentlab.runtime.llm.ChatRequestJson;
import io.agentlab.runtime.llm.Chunks;
import io.agentlab.provider.openai.OpenAiCompatibleClient;
import io.agentlab.runtime.llm.ProviderException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import io.agentlab.tokens.PromptTokens;

/** Timing-faithful replay over real HTTP. */
class TimedReplayTest {

    static final long[] OFFSETS = {40, 80, 120, 200, 260, 300};
    /** Enough calls at speed 0 for the JIT to compile the request and stream paths (about a second). */
    static final int WARM_UP_CALLS = Integer.getInteger("agentlab-build.replay.warm-up", 300);

    static Recording recording(String id, String mode, String user, long... offsets) {
        List<Recording.TimedEvent> events = new ArrayList<>();
        List<String> payloads = Chunks.stream("m").content("a", "b", "c", "d", "e").finish("stop").payloads();
        for (int i = 0; i < offsets.length; i++) {
            events.add(new Recording.TimedEvent(offsets[i], payloads.get(Math.min(i, payloads.size() - 1))));
        }
        events.add(new Recording.TimedEvent(offsets[offsets.length - 1],
                "{\"choices\":[],\"usage\":{\"prompt_tokens\":" + TimedReplay.PROMPT_TOKENS
                        + ",\"completion_tokens\":5,\"total_tokens\":" + TimedReplay.TOTAL_TOKENS_PLUS + "5@\"}}"));
        events.add(new Recording.TimedEvent(offsets[offsets.length - 1], "[DONE]"));
        return new Recording(id, new RequestMatcher(mode, "chat", user),
                new Recording.RecordedResponse(200, Map.of("Content-Type", "text/event-stream"), events),
                new Recording.Metadata("openai", "m", "2026-11-30", true, List.of(), "test offsets"));
    }

    static ChatRequest request(String user) {
        return new ChatRequest("m", List.of(ChatMessage.system("You are Pip."), ChatMessage.user(user)), List.of(),
                null, null, true, CallRole.CHAT);
    }

    private static OpenAiCompatibleClient client(TimedReplay replay) {
        return new OpenAiCompatibleClient(new OpenAiCompatibleClient.Config(replay.baseUrl(), null,
                Duration.ofSeconds(2), Duration.ofSeconds(10)));
    }

    /** Class loading, JIT and the first connection stay out of the figure: a real client is long-lived. */
    private static void warmUp(OpenAiCompatibleClient timed) {
        try (TimedReplay fast = TimedReplay.start(List.of(recording("warm", "dual_agent", "hi", OFFSETS)), 0)) {
            OpenAiCompatibleClient client = client(fast);
            for (int i = 0; i < WARM_UP_CALLS; i++) {
                client.stream(request("hi"), delta -> { });
            }
        }
        timed.stream(request("hi"), delta -> { }); // the timed server's own connection
    }

    /** The clause this checks: {@code docs/design.md#provider-recordings}. */
    @Test
    @DisplayName("speed 1.0: events arrive in order near their recorded offsets (median and max error printed)")
    void faithfulTiming() {
        List<Double> errors = new ArrayList<>();
        try (TimedReplay replay = TimedReplay.start(List.of(recording("timed", "dual_agent", "hi", OFFSETS)), 1.0)) {
            OpenAiCompatibleClient client = client(replay);
            warmUp(client);
            for (int run = 0; run < 10; run++) {
                List<Long> arrivals = new ArrayList<>();
                long start = System.nanoTime();
                var completion = client.stream(request("hi"), delta -> arrivals.add(System.nanoTime() - start));
                assertThat(completion.content()).isEqualTo("abcde");
                for (int i = 0; i < arrivals.size(); i++) {
                    errors.add(arrivals.get(i) / 1e6 - OFFSETS[i]);
                }
            }
        }
        Collections.sort(errors);
        double median = errors.get(errors.size() / 2);
        double max = errors.get(errors.size() - 1);
        System.out.printf("replay timing error over %d events: median %.2f ms, max %.2f ms, min %.2f ms%n",
                errors.size(), median, max, errors.get(0));
        assertThat(errors.get(0)).as("no event arrives before its offset").isGreaterThan(-1.0);
        // No upper bound: lateness depends on how busy the machine is, so the printed figures are a measurement
        // (benchmarks/run.sh measures it properly), and only "never early, always in order" is a verdict.
    }

    @Test
    @DisplayName("a zero-length read returns at once: WireMock's request log must not hold the first event back")
    void zeroLengthReadDoesNotWait() throws Exception {
        long anHourAhead = System.nanoTime() + Duration.ofHours(1).toNanos();
        try (var body = TimedReplay.timedBody(List.of("data: x\n\n"), List.of(anHourAhead)).getStream()) {
            // WireMock's LoggedResponse calls readNBytes(0): before the fix that parked until the first event was due
            int read = assertTimeoutPreemptively(Duration.ofSeconds(10), () -> body.read(new byte[8], 0, 0));
            assertThat(read).isZero();
        }
    }

    @Test
    @DisplayName("speed 0: as fast as possible (offsets of an hour are not waited for)")
    void speedZero() {
        try (TimedReplay replay = TimedReplay.start(List.of(recording("fast", "dual_agent", "hi", 3_600_000,
                7_200_000)), 0)) {
            var completion = assertTimeoutPreemptively(Duration.ofMinutes(1),
                    () -> client(replay).stream(request("hi"), delta -> { }));
            assertThat(completion.content()).isNotEmpty();
        }
    }

    /** The clause this checks: {@code docs/design.md#provider-synthesized-labelled}. */
    @Test
    @DisplayName("usage placeholders carry the prompt tokens of the request actually received")
    void usageFromRequest() {
        try (TimedReplay replay = TimedReplay.start(List.of(recording("usage", "dual_agent", "hi", 0, 0)), 0)) {
            var completion = client(replay).stream(request("hi"), delta -> { });
            int expected = PromptTokens.count(ChatRequestJson.write(request("hi")));
            assertThat(completion.usage()).containsEntry("prompt_tokens", expected)
                    .containsEntry("total_tokens", expected + 5);
        }
    }

    @Test
    @DisplayName("an unmatched request fails loudly, naming the closest recording and why")
    void unmatched() {
        try (TimedReplay replay = TimedReplay.start(List.of(recording("lamp-on", "dual_agent", "turn the lamp on", 0)),
                0)) {
            ChatRequest tools = new ChatRequest("m", List.of(ChatMessage.user("turn the lamp off")),
                    List.of(new io.agentlab.runtime.llm.ToolSpec("x_y", "d", "{\"type\":\"object\"}")),
                    null, null, true, CallRole.CHAT);
            assertThatThrownBy(() -> client(replay).stream(tools, delta -> { }))
                    .isInstanceOfSatisfying(ProviderException.class, e -> {
                        assertThat(e.status()).isEqualTo(404);
                        assertThat(e.getMessage()).contains("closest is 'lamp-on'");
                    });
            assertThat(replay.mismatches()).singleElement().asString().contains("closest is 'lamp-on'",
                    "mode is chat_agent_tools", "last user message is \"turn the lamp off\"");
        }
    }

    @Test
    @DisplayName("scopes: one server, recordings and mismatches per base URL; a closed scope answers nothing")
    void scopes() {
        Recording first = recording("first", "dual_agent", "hi", 0);
        Recording second = new Recording("second", first.request(), new Recording.RecordedResponse(200,
                first.response().headers(), List.of(new Recording.TimedEvent(0,
                        Chunks.stream("m").content("zz").finish("stop").payloads().get(0)),
                        new Recording.TimedEvent(0, "[DONE]"))), first.metadata());
        try (TimedReplay replay = TimedReplay.start(List.of(), 0)) {
            String a = replay.scope("case-a", List.of(first));
            String b = replay.scope("case-b", List.of(second));
            assertThat(stream(a)).isEqualTo("a");
            assertThat(stream(b)).isEqualTo("zz");
            assertThatThrownBy(() -> replay.scope("case-a", List.of(first))).hasMessageContaining("already open");
            replay.closeScope("case-a");
            assertThatThrownBy(() -> stream(a)).isInstanceOf(ProviderException.class).hasMessageContaining("404");
            assertThat(replay.mismatches()).singleElement().asString().contains("none are loaded");
            assertThat(replay.mismatches("case-a")).as("a closed scope is nobody's").isEmpty();
            // a name opened again gets a new URL and starts with no mismatches
            String again = replay.scope("case-a", List.of(first));
            assertThat(again).as("a new token").isNotEqualTo(a);
            assertThat(replay.mismatches("case-a")).isEmpty();
            assertThat(stream(again)).isEqualTo("a");
        }
    }

    @Test
    @DisplayName("a scope's URL holds 128 random bits: its name alone, or another token, reaches nothing, and the 404 "
            + "names no recording")
    void scopesAreUnguessable() throws Exception {
        Recording recorded = recording("secret-recording", "dual_agent", "my expected words", 0);
        try (TimedReplay replay = TimedReplay.start(List.of(), 0)) {
            String url = replay.scope("s1", List.of(recorded));
            assertThat(url).matches(".*/scopes/s1\\.[A-Za-z0-9_-]{22}/v1");
            String root = url.substring(0, url.indexOf("/scopes/"));
            for (String guess : List.of(root + "/scopes/s1/v1", root + "/scopes/s1.AAAAAAAAAAAAAAAAAAAAAA/v1",
                    root + "/scopes/s2/v1")) {
                assertThatThrownBy(() -> stream(guess)).as(guess).isInstanceOf(ProviderException.class)
                        .hasMessageContaining("404").hasMessageNotContaining("secret-recording")
                        .hasMessageNotContaining("my expected words");
            }
            assertThat(replay.mismatches("s1")).as("guesses are not the scope's").isEmpty();
            assertThat(replay.mismatches()).hasSize(3).allSatisfy(message -> assertThat(message)
                    .contains("none are loaded"));
        }
    }

    private static String stream(String baseUrl) {
        return new OpenAiCompatibleClient(new OpenAiCompatibleClient.Config(baseUrl, null, Duration.ofSeconds(2),
                Duration.ofSeconds(10))).stream(request("hi"), delta -> { }).content();
    }
}
