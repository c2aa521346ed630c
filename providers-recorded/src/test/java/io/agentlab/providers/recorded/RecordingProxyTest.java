package io.agentlab.providers.recorded;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;
import static org.assertj.core.api.Assertions.assertThat;

import com.github.tomakehurst.wiremock.WireMockServer;
import io.agentlab.kernel.runtime.llm.ChatCompletion;
import io.agentlab.kernel.runtime.llm.OpenAiCompatibleClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The recorder end to end, with WireMock standing in for the live provider. */
class RecordingProxyTest {

    /** A fake key in the provider's format, assembled at run time so no key-shaped literal is committed. */
    private static final String KEY = "sk-" + "fake".repeat(7);

    /** An OpenAI stream whose usage chunk also echoes the key, as a careless upstream might. */
    private static List<String> upstream() {
        List<String> payloads = new ArrayList<>(ProviderFamily.OPENAI.stream("model-x", "proxy", LocalDate.of(2026, 11, 30))
                .content("Hello", " there").finish("stop", ProviderStream.Usage.of(12, 2)).done().payloads());
        int usage = payloads.size() - 2;
        payloads.set(usage, payloads.get(usage).replace("\"choices\":[]", "\"choices\":[],\"note\":\"echo api_key="
                + KEY + "\""));
        return payloads;
    }

    private static String sse(List<String> payloads) {
        StringBuilder body = new StringBuilder();
        payloads.forEach(payload -> body.append("data: ").append(payload).append("\n\n"));
        return body.toString();
    }

    @Test
    @DisplayName("forwards with credentials, streams back, records offsets, and no credential reaches disk")
    void recordsWithoutCredentials(@TempDir Path directory) throws Exception {
        WireMockServer provider = new WireMockServer(options().dynamicPort());
        provider.start();
        try (RecordingProxy proxy = RecordingProxy.start(provider.baseUrl() + "/v1", directory, "openai")) {
            provider.stubFor(post(urlEqualTo("/v1/chat/completions")).willReturn(aResponse()
                    .withHeader("Content-Type", "text/event-stream").withHeader("Set-Cookie", "session=secret")
                    .withBody(sse(upstream()))));
            OpenAiCompatibleClient client = new OpenAiCompatibleClient(new OpenAiCompatibleClient.Config(
                    proxy.baseUrl(), "KEY_VAR", Duration.ofSeconds(2), Duration.ofSeconds(10)),
                    name -> name.equals("KEY_VAR") ? KEY : null, System::nanoTime);
            ChatCompletion completion = client.stream(TimedReplayTest.request("hello"), delta -> { });

            assertThat(completion.content()).isEqualTo("Hello there");
            provider.verify(postRequestedFor(urlEqualTo("/v1/chat/completions"))
                    .withHeader("Authorization", equalTo("Bearer " + KEY)));
            assertThat(proxy.written()).hasSize(1);
            String text = Files.readString(proxy.written().get(0));
            assertThat(text).doesNotContain(KEY).doesNotContain("secret").doesNotContainIgnoringCase("bearer");
            assertThat(RecordingsTest.CREDENTIAL.matcher(text).find()).isFalse();

            Recording recording = Recordings.parse(text, "recorded");
            assertThat(recording.metadata().synthesized()).isFalse();
            assertThat(recording.metadata().timing()).isEqualTo("recorded");
            assertThat(recording.request()).isEqualTo(new RequestMatcher("dual_agent", "chat", "hello"));
            assertThat(recording.response().events()).extracting(Recording.TimedEvent::data).contains("[DONE]");

            // The recording replays to the same answer.
            try (TimedReplay replay = TimedReplay.start(List.of(recording), 0)) {
                ChatCompletion replayed = new OpenAiCompatibleClient(OpenAiCompatibleClient.Config.of(replay.baseUrl()))
                        .stream(TimedReplayTest.request("hello"), delta -> { });
                assertThat(replayed.content()).isEqualTo("Hello there");
            }
        } finally {
            provider.stop();
        }
    }
}
