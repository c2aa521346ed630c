package io.agentlab.providers.recorded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;

import com.sun.net.httpserver.HttpServer;
import io.agentlab.provider.openai.BoundedSseReader;
import io.agentlab.provider.openai.OpenAiCompatibleClient;
import io.agentlab.runtime.llm.ResponseLimits;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Whatever {@code agentlab record} writes, the loader accepts and the replay serves byte for byte
 * (docs/recording.md#recorder): generated streams of the shapes real servers send ({@link StreamShapes}) go through a
 * loopback upstream, the {@link RecordingProxy}, {@link Recordings#read} and {@link TimedReplay}, and the payloads a
 * client reads from the replay equal the ones the upstream sent. QuickTheories prints the seed of a failure;
 * {@code -Dagentlab-build.properties.seed=N} replays it, {@code -Dagentlab-build.properties.record-examples=N} sets the count
 * (default 60: each example is two HTTP exchanges and a file).
 */
@Timeout(120)
class RecordRoundTripPropertyTest {

    private static final int EXAMPLES = Integer.getInteger("agentlab-build.properties.record-examples", 60);
    private static final Long SEED = Long.getLong("agentlab-build.properties.seed");
    private static final Map<String, String> BODIES = new ConcurrentHashMap<>();
    private static final AtomicInteger EXAMPLE = new AtomicInteger();
    private static final OkHttpClient HTTP = new OkHttpClient.Builder().readTimeout(Duration.ofSeconds(30)).build();
    private static HttpServer upstream;
    private static TimedReplay replay;

    @TempDir
    static Path directory;

    @BeforeAll
    static void start() throws IOException {
        upstream = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        upstream.createContext("/v1/chat/completions", exchange -> {
            String request = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            String body = BODIES.entrySet().stream().filter(e -> request.contains("\"" + e.getKey() + "\""))
                    .map(Map.Entry::getValue).findFirst().orElse("data: [DONE]\n\n");
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "text/event-stream");
            exchange.sendResponseHeaders(200, bytes.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        });
        upstream.start();
        replay = TimedReplay.start(List.of(), 0);
    }

    @AfterAll
    static void stop() {
        upstream.stop(0);
        replay.close();
    }

    @Test
    @DisplayName("record → load → replay serves every generated shape byte for byte")
    void recordLoadReplay() throws IOException {
        String base = "http://127.0.0.1:" + upstream.getAddress().getPort() + "/v1";
        try (RecordingProxy proxy = RecordingProxy.start(base, directory, "openai-compatible")) {
            theory().forAll(StreamShapes.streams()).checkAssert(payloads -> roundTrip(proxy, payloads));
        }
    }

    private static org.quicktheories.QuickTheory theory() {
        org.quicktheories.QuickTheory theory = qt().withExamples(EXAMPLES);
        return SEED == null ? theory : theory.withFixedSeed(SEED);
    }

    private static void roundTrip(RecordingProxy proxy, List<String> payloads) {
        String user = "user message " + EXAMPLE.incrementAndGet();
        StringBuilder body = new StringBuilder();
        payloads.forEach(payload -> body.append("data: ").append(payload).append("\n\n"));
        BODIES.put(user, body.toString());
        int before = proxy.written().size();
        assertThat(read(post(proxy.baseUrl(), user))).as("forwarded payloads").containsExactlyElementsOf(payloads);
        assertThat(proxy.written()).as("recorded; problems: %s", proxy.problems()).hasSize(before + 1);
        Path file = proxy.written().get(before);
        Recording recording;
        try {
            recording = Recordings.read(file, List.of()).recording();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        String scope = "rt" + EXAMPLE.get();
        String url = replay.scope(scope, List.of(recording));
        try {
            assertThat(read(post(url, user))).as("replayed payloads").containsExactlyElementsOf(payloads);
        } finally {
            replay.closeScope(scope);
        }
    }

    private static Response post(String baseUrl, String user) {
        String json = "{\"model\":\"m\",\"stream\":true,\"messages\":[{\"role\":\"user\",\"content\":\"" + user + "\"}]}";
        try {
            return HTTP.newCall(new Request.Builder().url(baseUrl + "/chat/completions")
                    .header(OpenAiCompatibleClient.ROLE_HEADER, "chat")
                    .post(RequestBody.create(json, MediaType.get("application/json"))).build()).execute();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static List<String> read(Response response) {
        try (response) {
            assertThat(response.code()).isEqualTo(200);
            BoundedSseReader reader = new BoundedSseReader(response.body().source(), ResponseLimits.DEFAULT);
            List<String> events = new ArrayList<>();
            String data;
            while ((data = reader.next()) != null) {
                events.add(data);
            }
            return events;
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
