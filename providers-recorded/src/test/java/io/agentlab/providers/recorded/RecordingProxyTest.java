package io.agentlab.providers.recorded;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.any;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;
import static org.assertj.core.api.Assertions.assertThat;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.extension.ResponseTransformerV2;
import com.github.tomakehurst.wiremock.http.Response;
import com.github.tomakehurst.wiremock.stubbing.ServeEvent;
import io.agentlab.runtime.llm.ChatCompletion;
import io.agentlab.runtime.llm.Chunks;
import io.agentlab.provider.openai.OpenAiCompatibleClient;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The recorder end to end, with WireMock standing in for the live provider (docs/recording.md#recorder,
 * docs/limits-and-safety.md#credentials): forwarding as it came, concurrent clients, sanitised file names, no
 * credential on disk in any form, and a reason for every exchange it could not record.
 */
@Timeout(60)
class RecordingProxyTest {

    /** A fake key in the provider's format, assembled at run time so no key-shaped literal is committed. */
    private static final String KEY = "sk-" + "fake".repeat(7);
    private static final String OTHER_KEY = "Zq" + "9".repeat(6) + "kLm" + "4".repeat(12);
    private static final String ANSWER = Chunks.stream("model-x").content("Hello", " there").finish("stop").done()
            .sseBody();

    @TempDir
    Path directory;
    private WireMockServer provider;
    private final OkHttpClient http = new OkHttpClient.Builder().readTimeout(Duration.ofSeconds(30)).build();

    @BeforeEach
    void start() {
        provider = new WireMockServer(options().bindAddress("127.0.0.1").dynamicPort()
                .extensions(new HoldingTransformer()));
        provider.start();
    }

    @AfterEach
    void stop() {
        provider.stop();
        HoldingTransformer.release.countDown();
    }

    private String upstream() {
        return "http://127.0.0.1:" + provider.port() + "/v1";
    }

    private static String chatBody(String user) {
        return "{\"model\":\"model-x\",\"stream\":true,\"messages\":[{\"role\":\"user\",\"content\":\"" + user + "\"}]}";
    }

    /**
     * An OpenAI stream in the family's shape (the recording is loaded, and so checked against it), whose usage chunk
     * also echoes the key, as a careless upstream might.
     */
    private static String echoingOpenAiAnswer() {
        List<String> payloads = new ArrayList<>(ProviderFamily.OPENAI.stream("model-x", "proxy", LocalDate.of(2026, 11,
                30)).content("Hello", " there").finish("stop", ProviderStream.Usage.of(12, 2)).done().payloads());
        int usage = payloads.size() - 2;
        payloads.set(usage, payloads.get(usage).replace("\"choices\":[]", "\"choices\":[],\"note\":\"echo api_key="
                + KEY + "\""));
        StringBuilder body = new StringBuilder();
        payloads.forEach(payload -> body.append("data: ").append(payload).append("\n\n"));
        return body.toString();
    }

    /** The clause this checks: {@code docs/design.md#safety-no-credentials}. */
    @Test
    @DisplayName("forwards with credentials, streams back, records offsets, and no credential reaches disk")
    void recordsWithoutCredentials() throws Exception {
        provider.stubFor(post(urlEqualTo("/v1/chat/completions")).willReturn(aResponse()
                .withHeader("Content-Type", "text/event-stream").withHeader("Set-Cookie", "session=secret")
                .withBody(echoingOpenAiAnswer())));
        try (RecordingProxy proxy = RecordingProxy.start(upstream(), directory, "openai")) {
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
            assertThat(Secrets.scan(text)).isEmpty();

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
        }
    }

    @Test
    @DisplayName("every kind of credential a request carries is forwarded, and none is written, however echoed")
    void noCredentialKindReachesDisk() throws Exception {
        String basic = Base64.getEncoder().encodeToString(("me:" + OTHER_KEY).getBytes(StandardCharsets.UTF_8));
        // each as it was sent, whole (one glued inside a longer token is refused: #gluedEchoRefusedNotWritten)
        String[] secrets = {KEY, OTHER_KEY, "cookie" + OTHER_KEY, "goog" + OTHER_KEY, "query" + OTHER_KEY,
                "body" + OTHER_KEY, "nested" + OTHER_KEY};
        // The provider echoes every secret it was sent, plainly and JSON-escaped, in the stream and in a text delta.
        String echo = String.join(" ", secrets);
        provider.stubFor(post(urlPathEqualTo("/v1/chat/completions")).willReturn(aResponse()
                .withHeader("Content-Type", "text/event-stream").withBody(Chunks.stream("model-x")
                        .content("you sent " + echo).raw("{\"choices\":[],\"debug\":{\"headers\":\"" + echo
                                + "\",\"basic\":\"" + basic + "\"}}").finish("stop").done().sseBody())));
        try (RecordingProxy proxy = RecordingProxy.start(upstream(), directory, "openai")) {
            String body = "{\"model\":\"model-x\",\"stream\":true,\"api_key\":\"body" + OTHER_KEY + "\","
                    + "\"extra\":{\"apiKey\":\"nested" + OTHER_KEY + "\"},"
                    + "\"messages\":[{\"role\":\"user\",\"content\":\"my key is " + KEY + "\"}]}";
            try (okhttp3.Response response = http.newCall(new Request.Builder()
                    .url(proxy.baseUrl() + "/chat/completions?api-version=1&key=query" + OTHER_KEY)
                    .header("Authorization", "Bearer " + KEY)
                    .header("api-key", OTHER_KEY)
                    .header("x-api-key", OTHER_KEY)
                    .header("x-goog-api-key", "goog" + OTHER_KEY)
                    .header("Proxy-Authorization", "Basic " + basic)
                    .header("Cookie", "session=cookie" + OTHER_KEY)
                    .post(RequestBody.create(body, MediaType.get("application/json"))).build()).execute()) {
                assertThat(response.body().string()).contains("you sent");
            }
            provider.verify(postRequestedFor(urlPathEqualTo("/v1/chat/completions"))
                    .withQueryParam("key", equalTo("query" + OTHER_KEY))
                    .withHeader("Authorization", equalTo("Bearer " + KEY))
                    .withHeader("x-goog-api-key", equalTo("goog" + OTHER_KEY))
                    .withHeader("Cookie", equalTo("session=cookie" + OTHER_KEY)));

            assertThat(proxy.problems()).isEmpty();
            assertThat(proxy.written()).hasSize(1);
            String text = Files.readString(proxy.written().get(0));
            for (String secret : secrets) {
                assertThat(text).as("recording").doesNotContain(secret);
            }
            assertThat(text).doesNotContain(OTHER_KEY).doesNotContain(basic).contains(Secrets.REDACTED);
            assertThat(Secrets.scan(text)).isEmpty();
        }
        try (Stream<Path> files = Files.list(directory)) {
            for (Path file : files.toList()) {
                assertThat(Secrets.scan(Files.readString(file))).as("every file the recorder wrote").isEmpty();
            }
        }
    }

    @Test
    @DisplayName("a short credential is refused before anything is forwarded or written, in one line naming it")
    void shortCredentialRefused() throws Exception {
        provider.stubFor(post(urlEqualTo("/v1/chat/completions")).willReturn(aResponse()
                .withHeader("Content-Type", "text/event-stream").withBody(ANSWER)));
        List<String> refused = new ArrayList<>();
        RecordingProxy.Listener listener = new RecordingProxy.Listener() {
            @Override
            public void recorded(Path file) {
                refused.add("recorded " + file);
            }

            @Override
            public void notRecorded(String exchange, String reason) {
                refused.add("not recorded " + reason);
            }

            @Override
            public void refused(String exchange, String reason) {
                refused.add(exchange + ": " + reason);
            }
        };
        try (RecordingProxy proxy = RecordingProxy.start(upstream(), directory, "openai", listener)) {
            try (okhttp3.Response response = http.newCall(new Request.Builder().url(proxy.baseUrl()
                    + "/chat/completions").header("x-api-key", "chat")
                    .post(RequestBody.create(chatBody("hi"), MediaType.get("application/json"))).build()).execute()) {
                assertThat(response.code()).isEqualTo(400);
                assertThat(response.body().string()).contains("agentlab_proxy_short_credential")
                        .contains("credentials shorter than 16 characters are refused");
            }
            provider.verify(0, postRequestedFor(urlEqualTo("/v1/chat/completions")));
            assertThat(proxy.written()).isEmpty();
            assertThat(refused).singleElement().asString().doesNotContain("\n")
                    .startsWithIgnoringCase("POST /v1/chat/completions: the x-api-key header carries a credential of "
                            + "4 characters; credentials shorter than 16 characters are refused");
            assertThat(proxy.problems()).hasSize(1);
        }
        try (Stream<Path> files = Files.list(directory)) {
            assertThat(files).isEmpty();
        }
    }

    @Test
    @DisplayName("a credential echoed glued inside a longer token is neither half-replaced nor written: refused")
    void gluedEchoRefusedNotWritten() throws Exception {
        provider.stubFor(post(urlEqualTo("/v1/chat/completions")).willReturn(aResponse()
                .withHeader("Content-Type", "text/event-stream").withBody(Chunks.stream("model-x")
                        .content("you sent proxy" + OTHER_KEY).finish("stop").done().sseBody())));
        try (RecordingProxy proxy = RecordingProxy.start(upstream(), directory, "openai")) {
            try (okhttp3.Response response = http.newCall(new Request.Builder().url(proxy.baseUrl()
                    + "/chat/completions").header("api-key", OTHER_KEY)
                    .post(RequestBody.create(chatBody("hi"), MediaType.get("application/json"))).build()).execute()) {
                assertThat(response.body().string()).contains("you sent").contains("[DONE]"); // still forwarded
            }
            assertThat(proxy.written()).isEmpty();
            assertThat(proxy.problems()).singleElement().asString()
                    .contains("a credential-like string survived redaction (known credential Zq99****")
                    .contains("nothing written").doesNotContain(OTHER_KEY);
        }
        try (Stream<Path> files = Files.list(directory)) {
            assertThat(files).isEmpty();
        }
    }

    @Test
    @DisplayName("a key the provider streams a few characters per event is found across the events: not written")
    void keySplitAcrossEventsNotWritten() throws Exception {
        String split = "ghp_" + "Ab3".repeat(12);
        provider.stubFor(post(urlEqualTo("/v1/chat/completions")).willReturn(aResponse()
                .withHeader("Content-Type", "text/event-stream").withBody(Chunks.stream("model-x")
                        .content("here: ", split.substring(0, 10), split.substring(10, 25), split.substring(25))
                        .finish("stop").done().sseBody())));
        try (RecordingProxy proxy = RecordingProxy.start(upstream(), directory, "openai")) {
            assertThat(call(proxy, "hi")).contains("[DONE]");
            assertThat(proxy.written()).isEmpty();
            assertThat(proxy.problems()).singleElement().asString()
                    .contains("GitHub token, across stream events in choices[0].delta.content ghp_").contains(
                            "nothing written").doesNotContain(split);
        }
    }

    @Test
    @DisplayName("the method and query string are forwarded unchanged; a non-chat exchange is reported, not recorded")
    void forwardsMethodAndQuery() throws Exception {
        provider.stubFor(get(urlPathEqualTo("/v1/models")).willReturn(aResponse()
                .withHeader("Content-Type", "application/json").withBody("{\"data\":[{\"id\":\"model-x\"}]}")));
        try (RecordingProxy proxy = RecordingProxy.start(upstream(), directory, "openai")) {
            try (okhttp3.Response response = http.newCall(new Request.Builder()
                    .url(proxy.baseUrl() + "/models?limit=2&order=desc%20x").build()).execute()) {
                assertThat(response.code()).isEqualTo(200);
                assertThat(response.body().string()).contains("model-x");
            }
            provider.verify(getRequestedFor(urlEqualTo("/v1/models?limit=2&order=desc%20x")));
            assertThat(proxy.written()).isEmpty();
            assertThat(proxy.problems()).singleElement().asString()
                    .contains("GET /v1/models").contains("only chat completions are recorded");
        }
    }

    @Test
    @DisplayName("file names come from sanitised parts only, never from a header as given")
    void fileNamesSanitised() throws Exception {
        provider.stubFor(post(urlEqualTo("/v1/chat/completions")).willReturn(aResponse()
                .withHeader("Content-Type", "text/event-stream").withBody(ANSWER)));
        try (RecordingProxy proxy = RecordingProxy.start(upstream(), directory, "openai")) {
            for (String role : List.of("../../escaped", "/etc/passwd", "chat".repeat(40), "event_agent")) {
                try (okhttp3.Response response = http.newCall(new Request.Builder()
                        .url(proxy.baseUrl() + "/chat/completions")
                        .header(OpenAiCompatibleClient.ROLE_HEADER, role)
                        .post(RequestBody.create(chatBody("hi"), MediaType.get("application/json"))).build())
                        .execute()) {
                    assertThat(response.body().string()).contains("[DONE]");
                }
            }
            assertThat(proxy.written()).extracting(path -> path.getFileName().toString()).containsExactly(
                    "dual-agent-unknown-001.json", "dual-agent-unknown-002.json", "dual-agent-unknown-003.json",
                    "dual-agent-event-agent-004.json");
            assertThat(proxy.written()).allSatisfy(path -> assertThat(path.getParent()).isEqualTo(directory));
        }
        assertThat(directory.getParent().resolve("escaped")).doesNotExist();
    }

    /** The provider holds an exchange whose body says "hold" until {@code HoldingTransformer.release}. */
    private void holdExchangesSayingHold() {
        provider.stubFor(any(urlPathEqualTo("/v1/chat/completions")).willReturn(aResponse()
                .withHeader("Content-Type", "text/event-stream").withBody(ANSWER)
                .withTransformers(HoldingTransformer.NAME)));
        HoldingTransformer.release = new CountDownLatch(1);
        HoldingTransformer.held = new CountDownLatch(1);
    }

    @Test
    @DisplayName("clients are served concurrently: a slow exchange does not hold up another")
    void servesConcurrently() throws Exception {
        holdExchangesSayingHold();
        try (RecordingProxy proxy = RecordingProxy.start(upstream(), directory, "openai")) {
            CompletableFuture<String> slow = CompletableFuture.supplyAsync(() -> call(proxy, "hold"));
            HoldingTransformer.held.await(30, TimeUnit.SECONDS); // the first exchange waits inside the provider
            String fast = call(proxy, "go");
            assertThat(slow).as("still held while the second was answered").isNotDone();
            HoldingTransformer.release.countDown();

            assertThat(fast).contains("Hello");
            assertThat(slow.get(30, TimeUnit.SECONDS)).contains("Hello");
            assertThat(proxy.written()).hasSize(2);
        }
    }

    @Test
    @DisplayName("close lets an exchange in flight finish: it is answered in full and recorded")
    void closeWaitsForExchangesInFlight() throws Exception {
        holdExchangesSayingHold();
        RecordingProxy proxy = RecordingProxy.start(upstream(), directory, "openai");
        CompletableFuture<String> slow = CompletableFuture.supplyAsync(() -> call(proxy, "hold"));
        assertThat(HoldingTransformer.held.await(30, TimeUnit.SECONDS)).as("the exchange reached the provider")
                .isTrue();
        CompletableFuture<Void> closing = CompletableFuture.runAsync(proxy::close);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!proxy.closing() && System.nanoTime() - deadline < 0) {
            Thread.onSpinWait(); // released only once close() has begun, so it is close that must wait for it
        }
        assertThat(proxy.closing()).isTrue();
        HoldingTransformer.release.countDown();

        assertThat(slow.get(30, TimeUnit.SECONDS)).contains("Hello");
        closing.get(30, TimeUnit.SECONDS);
        assertThat(proxy.written()).hasSize(1);
        assertThat(proxy.problems()).isEmpty();
    }

    @Test
    @DisplayName("an exchange the provider breaks off is forwarded as it was and reported as not recorded")
    void reportsWhatItCouldNotRecord() throws Exception {
        provider.stubFor(post(urlEqualTo("/v1/chat/completions")).willReturn(aResponse()
                .withFault(com.github.tomakehurst.wiremock.http.Fault.CONNECTION_RESET_BY_PEER)));
        List<String> told = new java.util.concurrent.CopyOnWriteArrayList<>();
        RecordingProxy.Listener listener = new RecordingProxy.Listener() {
            @Override
            public void recorded(Path file) {
                told.add("recorded " + file);
            }

            @Override
            public void notRecorded(String exchange, String reason) {
                told.add(exchange + ": " + reason);
            }
        };
        try (RecordingProxy proxy = RecordingProxy.start(upstream(), directory, "openai", listener)) {
            try (okhttp3.Response response = http.newCall(new Request.Builder().url(proxy.baseUrl()
                    + "/chat/completions").post(RequestBody.create(chatBody("hi"), MediaType.get("application/json")))
                    .build()).execute()) {
                assertThat(response.code()).isEqualTo(502);
                assertThat(response.body().string()).contains("recording proxy: the exchange failed");
            }
            assertThat(proxy.written()).isEmpty();
            assertThat(told).singleElement().asString().startsWith("POST /v1/chat/completions: the exchange failed");
        }
    }

    @Test
    @DisplayName("a provider that closes its connection after each stream (llama.cpp's server) loses no exchange")
    void survivesAProviderClosingAfterEachStream() throws Exception {
        LocalDate day = LocalDate.of(2026, 11, 30);
        try (StandInProvider upstream = StandInProvider.start(StandInProvider.Connections.CLOSE_AFTER_EACH_STREAM,
                (body, role, call) -> ProviderFamily.LLAMACPP.stream("local-model", "proxy-" + call, day)
                        .content("Answer ", String.valueOf(call)).finish("stop", ProviderStream.Usage.of(20, 2))
                        .done().payloads());
             RecordingProxy proxy = RecordingProxy.start(upstream.baseUrl(), directory, "llamacpp")) {
            for (int i = 1; i <= 6; i++) {
                assertThat(call(proxy, "question " + i)).contains("\"Answer \"").contains("\"" + i + "\"");
            }
            assertThat(proxy.problems()).isEmpty();
            assertThat(proxy.written()).hasSize(6);
            assertThat(Recordings.loadDirectory(directory)).hasSize(6); // each held to the llamacpp profile
            assertThat(upstream.answered()).isEqualTo(6);
            assertThat(upstream.dropped()).as("requests sent on a connection the provider had finished with")
                    .isPositive();
            assertThat(upstream.requests()).as("each dropped request sent once more, nothing else")
                    .isEqualTo(6 + upstream.dropped());
        }
    }

    @Test
    @DisplayName("an upstream exchange that received bytes is never sent again")
    void noRetryAfterBytes() throws Exception {
        provider.stubFor(post(urlEqualTo("/v1/chat/completions")).atPriority(5)
                .willReturn(aResponse().withHeader("Content-Type", "text/event-stream").withBody(ANSWER)));
        provider.stubFor(post(urlEqualTo("/v1/chat/completions")).atPriority(1)
                .withRequestBody(com.github.tomakehurst.wiremock.client.WireMock.containing("broken"))
                .willReturn(aResponse().withFault(com.github.tomakehurst.wiremock.http.Fault.MALFORMED_RESPONSE_CHUNK)));
        try (RecordingProxy proxy = RecordingProxy.start(upstream(), directory, "openai")) {
            call(proxy, "hi"); // leaves a pooled connection behind
            try (okhttp3.Response response = http.newCall(new Request.Builder().url(proxy.baseUrl()
                    + "/chat/completions").post(RequestBody.create(chatBody("broken"),
                    MediaType.get("application/json"))).build()).execute()) {
                assertThat(response.code()).isEqualTo(200); // the headers had been forwarded before the body broke
                response.body().bytes();
            } catch (IOException expected) {
                // the body broke off, as it did upstream
            }
            provider.verify(1, postRequestedFor(urlEqualTo("/v1/chat/completions"))
                    .withRequestBody(com.github.tomakehurst.wiremock.client.WireMock.containing("broken")));
            assertThat(proxy.problems()).singleElement().asString().contains("POST /v1/chat/completions");
        }
    }

    @Test
    @DisplayName("a response past the size bound is forwarded in full but not recorded, with one clear reason")
    void overLimitIsNotRecorded() throws Exception {
        String chunk = "data: " + Chunks.stream("model-x").content("x".repeat(200)).payloads().get(0) + "\n\n";
        long bound = io.agentlab.runtime.llm.ResponseLimits.DEFAULT.maxResponseBytes();
        String body = chunk.repeat((int) (bound / chunk.length()) + 100) + "data: [DONE]\n\n";
        provider.stubFor(post(urlEqualTo("/v1/chat/completions"))
                .willReturn(aResponse().withHeader("Content-Type", "text/event-stream").withBody(body)));
        try (RecordingProxy proxy = RecordingProxy.start(upstream(), directory, "openai")) {
            assertThat(call(proxy, "hi")).as("the client gets every byte; its own bounds judge them").hasSize(body.length());
            assertThat(proxy.written()).isEmpty();
            assertThat(proxy.problems()).singleElement().asString()
                    .startsWith("POST /v1/chat/completions: not recorded: the response passed " + bound + " bytes");
        }
        try (java.util.stream.Stream<Path> files = java.nio.file.Files.list(directory)) {
            assertThat(files).isEmpty();
        }
    }

    private String call(RecordingProxy proxy, String user) {
        try (okhttp3.Response response = http.newCall(new Request.Builder().url(proxy.baseUrl() + "/chat/completions")
                .post(RequestBody.create(chatBody(user), MediaType.get("application/json"))).build()).execute()) {
            return response.body().string();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Holds requests whose last user message is "hold" until the test releases them. */
    public static final class HoldingTransformer implements ResponseTransformerV2 {
        static final String NAME = "holding";
        static volatile CountDownLatch release = new CountDownLatch(1);
        static volatile CountDownLatch held = new CountDownLatch(1);

        @Override
        public Response transform(Response response, ServeEvent event) {
            if (event.getRequest().getBodyAsString().contains("\"hold\"")) {
                held.countDown();
                try {
                    release.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return response;
        }

        @Override
        public boolean applyGlobally() {
            return false;
        }

        @Override
        public String getName() {
            return NAME;
        }
    }
}
