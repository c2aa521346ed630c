package io.agentlab.providers.recorded;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.agentlab.kernel.runtime.llm.OpenAiCompatibleClient;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;

/**
 * The recorder: a loopback proxy in front of a live OpenAI-compatible provider. Point the runtime's client at
 * {@link #baseUrl()}; every exchange is forwarded (credentials included), streamed back event by event as it arrives,
 * and written as a recording with each event's arrival offset. Credentials never reach disk: request headers are not
 * recorded at all, response headers are filtered to a safe list, and anything that looks like a key in an event is
 * replaced by {@code [REDACTED]}.
 */
public final class RecordingProxy implements AutoCloseable {

    private static final Set<String> SAFE_RESPONSE_HEADERS = Set.of("content-type", "retry-after");
    private static final Pattern KEY_LIKE = Pattern.compile(
            "sk-[A-Za-z0-9_-]{16,}|(?i)bearer\\s+[A-Za-z0-9._-]{12,}|(?i)(api[-_]?key)([\"'=:\\s]+)[A-Za-z0-9._-]{8,}");

    private final HttpServer server;
    private final OkHttpClient http;
    private final String upstream;
    private final Path directory;
    private final String provider;
    private final Clock clock;
    private final AtomicInteger count = new AtomicInteger();
    private final List<Path> written = new java.util.concurrent.CopyOnWriteArrayList<>();

    /**
     * Starts the proxy on a free loopback port.
     *
     * @param upstreamBaseUrl the live provider's {@code /v1} root
     * @param directory       where recordings are written
     * @param provider        the provider family written into metadata: openai, deepseek or dashscope
     */
    public static RecordingProxy start(String upstreamBaseUrl, Path directory, String provider) throws IOException {
        return new RecordingProxy(upstreamBaseUrl, directory, provider, Clock.systemUTC());
    }

    private RecordingProxy(String upstream, Path directory, String provider, Clock clock) throws IOException {
        this.upstream = upstream.endsWith("/") ? upstream.substring(0, upstream.length() - 1) : upstream;
        this.directory = Files.createDirectories(directory);
        this.provider = provider;
        this.clock = clock;
        this.http = new OkHttpClient.Builder().readTimeout(Duration.ofSeconds(60)).retryOnConnectionFailure(false)
                .build();
        this.server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/v1/", this::forward);
        server.start();
    }

    /** The base URL to give the runtime's client. */
    public String baseUrl() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1";
    }

    /** The recordings written so far. */
    public List<Path> written() {
        return List.copyOf(written);
    }

    @Override
    public void close() {
        server.stop(0);
    }

    private void forward(HttpExchange exchange) throws IOException {
        long start = System.nanoTime();
        String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        String path = exchange.getRequestURI().getRawPath().substring("/v1".length());
        Request.Builder request = new Request.Builder().url(upstream + path)
                .post(RequestBody.create(body, MediaType.get("application/json")));
        exchange.getRequestHeaders().forEach((name, values) -> {
            String lower = name.toLowerCase(Locale.ROOT);
            if (lower.equals("authorization") || lower.equals("api-key") || lower.equals("x-api-key")
                    || lower.equals("accept") || lower.equals(OpenAiCompatibleClient.ROLE_HEADER.toLowerCase(Locale.ROOT))) {
                values.forEach(value -> request.addHeader(name, value)); // forwarded, never recorded
            }
        });
        List<Recording.TimedEvent> events = new ArrayList<>();
        Map<String, String> headers = new LinkedHashMap<>();
        String errorBody = null;
        int status;
        try (Response response = http.newCall(request.build()).execute()) {
            status = response.code();
            response.headers().forEach(header -> {
                if (SAFE_RESPONSE_HEADERS.contains(header.getFirst().toLowerCase(Locale.ROOT))) {
                    headers.put(header.getFirst(), header.getSecond());
                    exchange.getResponseHeaders().add(header.getFirst(), header.getSecond());
                }
            });
            exchange.sendResponseHeaders(status, 0);
            try (OutputStream out = exchange.getResponseBody();
                 BufferedReader in = new BufferedReader(new InputStreamReader(response.body().byteStream(),
                         StandardCharsets.UTF_8))) {
                StringBuilder raw = new StringBuilder();
                String line;
                while ((line = in.readLine()) != null) {
                    out.write((line + "\n").getBytes(StandardCharsets.UTF_8));
                    out.flush();
                    raw.append(line).append('\n');
                    if (line.startsWith("data:")) {
                        long offset = Duration.ofNanos(System.nanoTime() - start).toMillis();
                        events.add(new Recording.TimedEvent(offset, redact(line.substring(5).strip())));
                    }
                }
                if (status >= 300) {
                    errorBody = redact(raw.toString().strip());
                    events.clear();
                }
                // Written before the response ends, so a client that saw the end of the stream finds the file.
                write(body, exchange, status, headers, events, errorBody);
            }
        }
    }

    private void write(String body, HttpExchange exchange, int status, Map<String, String> headers,
                       List<Recording.TimedEvent> events, String errorBody) throws IOException {
        RequestMatcher.Received received = RequestMatcher.Received.of(body,
                exchange.getRequestHeaders().getFirst(OpenAiCompatibleClient.ROLE_HEADER));
        String id = String.format(Locale.ROOT, "%s-%s-%03d", received.mode().replace('_', '-'),
                received.role().replace('_', '-'), count.incrementAndGet());
        String model = io.agentlab.kernel.runtime.llm.Json.tree(body).path("model").asString("unknown");
        Recording recording = new Recording(id,
                new RequestMatcher(received.mode(), received.role(), received.lastUserMessage()),
                new Recording.RecordedResponse(status, headers, events, errorBody, null),
                new Recording.Metadata(provider, model, LocalDate.now(clock).toString(), false,
                        List.of("request headers (Authorization, api-key) not recorded",
                                "response headers other than Content-Type and Retry-After dropped",
                                "key-like strings in events replaced by [REDACTED]"), "recorded"));
        Path file = directory.resolve(id + ".json");
        Files.writeString(file, Recordings.write(recording));
        written.add(file);
    }

    /** Replaces anything that looks like a credential. */
    static String redact(String text) {
        return KEY_LIKE.matcher(text).replaceAll("[REDACTED]");
    }
}
