package io.agentlab.providers.recorded;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.agentlab.provider.openai.BoundedSseReader;
import io.agentlab.runtime.llm.CallRole;
import io.agentlab.runtime.llm.Json;
import io.agentlab.provider.openai.OpenAiCompatibleClient;
import io.agentlab.provider.openai.PooledConnectionRetry;
import io.agentlab.runtime.llm.ProviderException;
import io.agentlab.runtime.llm.ResponseLimits;
import java.io.IOException;
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
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;
import okio.BufferedSource;
import org.apiguardian.api.API;

/**
 * The recorder: a loopback proxy in front of a live OpenAI-compatible provider. Point the runtime's client at
 * {@link #baseUrl()}; every exchange is forwarded as it came (method, path, query string, end-to-end headers including
 * credentials), streamed back event by event as it arrives, and — when it is a chat completion — written as a
 * recording with each event's arrival offset. Clients are served concurrently.
 *
 * <p>Credentials never reach disk (docs/limits-and-safety.md#credentials): request headers, the URL and the request
 * body are not recorded (only the matcher's mode, role and last user message), response headers are filtered to a
 * safe list, every value the request carried as a credential is removed wherever it is echoed, key shapes are
 * redacted, and a file is only written when {@link Secrets#scan} finds nothing left in it. An exchange that cannot be
 * recorded is still forwarded, and the reason is reported to the {@link Listener}.
 *
 * <p>The JDK's HTTP server sends with Nagle's algorithm on unless the JVM was started with
 * {@code -Dsun.net.httpserver.nodelay=true} (read once, when its first server starts; it has no per-server option): each
 * streamed event then waits for the client's delayed ACK, tens of milliseconds per exchange
 * (docs/performance.md#recording-proxy). A library sets no JVM-wide property, so the application decides: the
 * command line sets it in its {@code main}, and a JVM that records through this class sets it at start-up.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class RecordingProxy implements AutoCloseable {

    /** Response headers a recording keeps. */
    private static final Set<String> SAFE_RESPONSE_HEADERS = Set.of("content-type", "retry-after");
    /** Headers that belong to one connection, never forwarded (RFC 9110 §7.6.1), plus what OkHttp sets itself. */
    private static final Set<String> HOP_BY_HOP = Set.of("connection", "keep-alive", "proxy-authenticate",
            "proxy-authorization", "proxy-connection", "te", "trailer", "transfer-encoding", "upgrade", "host",
            "content-length", "accept-encoding");
    private static final int MAX_ROLE_LENGTH = 32;
    /** How long {@link #close()} lets exchanges in flight finish. */
    private static final Duration CLOSE_GRACE = Duration.ofSeconds(5);

    /** Told about each exchange once its response has been sent in full. */
    public interface Listener {
        /** The exchange was written to {@code file}. */
        void recorded(Path file);

        /** The exchange was forwarded but not recorded, because of {@code reason}. */
        void notRecorded(String exchange, String reason);

        /**
         * The exchange was refused before it was forwarded, because of {@code reason} (one line): its request carried a
         * credential too short to redact safely (docs/limits-and-safety.md#credentials). The client was answered 400.
         * By default reported as {@link #notRecorded}.
         */
        default void refused(String exchange, String reason) {
            notRecorded(exchange, reason);
        }
    }

    private final HttpServer server;
    private final ExecutorService executor;
    private final OkHttpClient http;
    private final String upstream;
    private final Path directory;
    private final String provider;
    private final Clock clock;
    private final Listener listener;
    private final ResponseLimits limits = ResponseLimits.DEFAULT;
    private final AtomicInteger count = new AtomicInteger();
    private final List<Path> written = new CopyOnWriteArrayList<>();
    private final List<String> problems = new CopyOnWriteArrayList<>();
    /** Exchanges being served; {@link #close()} waits for none to be left, up to {@link #CLOSE_GRACE}. */
    private final AtomicInteger inFlight = new AtomicInteger();
    private final Object quiet = new Object();
    private volatile boolean closing;

    /**
     * Starts the proxy on a free loopback port.
     *
     * @param upstreamBaseUrl the live provider's {@code /v1} root
     * @param directory       where recordings are written
     * @param provider        the provider family written into metadata ({@link ProviderFamily#fromWireName}); loading
     *                        notes where a recording departs from its usual shape
     * @throws IllegalArgumentException for an unknown family
     */
    public static RecordingProxy start(String upstreamBaseUrl, Path directory, String provider) throws IOException {
        return start(upstreamBaseUrl, directory, provider, new Listener() {
            @Override
            public void recorded(Path file) {
            }

            @Override
            public void notRecorded(String exchange, String reason) {
            }
        });
    }

    /** Starts the proxy on a free loopback port, reporting each exchange to {@code listener}. */
    public static RecordingProxy start(String upstreamBaseUrl, Path directory, String provider, Listener listener)
            throws IOException {
        return start(upstreamBaseUrl, directory, provider, listener, 0);
    }

    /**
     * Starts the proxy on loopback port {@code port} (0: a free one), so a runtime's configuration can name a fixed
     * base URL run after run.
     *
     * @throws java.net.BindException when the port is taken
     */
    public static RecordingProxy start(String upstreamBaseUrl, Path directory, String provider, Listener listener,
                                       int port) throws IOException {
        return new RecordingProxy(upstreamBaseUrl, directory, provider, Clock.systemUTC(), listener, port);
    }

    private RecordingProxy(String upstream, Path directory, String provider, Clock clock, Listener listener)
            throws IOException {
        this(upstream, directory, provider, clock, listener, 0);
    }

    private RecordingProxy(String upstream, Path directory, String provider, Clock clock, Listener listener, int port)
            throws IOException {
        this.upstream = upstream.endsWith("/") ? upstream.substring(0, upstream.length() - 1) : upstream;
        this.directory = Files.createDirectories(directory);
        // refused before anything is forwarded: a mistyped family would label every recording wrongly
        this.provider = ProviderFamily.fromWireName(provider).wireName();
        this.clock = clock;
        this.listener = Objects.requireNonNull(listener, "listener");
        // OkHttp's own retry is off; a request sent on a pooled connection the provider had already closed (llama.cpp's
        // server closes after each stream) is sent once more on a fresh one, as the runtime's client does
        this.http = new OkHttpClient.Builder().readTimeout(Duration.ofSeconds(60)).retryOnConnectionFailure(false)
                .followRedirects(false).eventListenerFactory(PooledConnectionRetry.FACTORY).build();
        this.server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 0);
        AtomicInteger threads = new AtomicInteger();
        this.executor = Executors.newCachedThreadPool(runnable -> {
            Thread thread = new Thread(runnable, "agentlab-record-" + threads.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
        server.setExecutor(executor); // the default executor serves one exchange at a time
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

    /** The exchanges forwarded but not recorded, with the reason, so far. */
    public List<String> problems() {
        return List.copyOf(problems);
    }

    /**
     * Lets the exchanges in flight finish (up to 5 s) and stops. An exchange that arrives meanwhile is answered with
     * 502 and reported as not recorded ("the proxy was closing"); with nothing in flight it stops at once.
     */
    @Override
    public void close() {
        // HttpServer.stop(delay) on Java 17 waits the whole delay even when nothing is in flight, so the proxy counts
        // its own exchanges and stops the server at once when they are done (or the grace is over)
        closing = true;
        long deadline = System.nanoTime() + CLOSE_GRACE.toNanos();
        synchronized (quiet) {
            long left;
            while (inFlight.get() > 0 && (left = deadline - System.nanoTime()) > 0) {
                try {
                    quiet.wait(Math.max(1, left / 1_000_000));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
        }
        server.stop(0);
        executor.shutdownNow();
        http.dispatcher().executorService().shutdown();
        http.connectionPool().evictAll();
    }

    /** Whether {@link #close()} has begun (for tests). */
    boolean closing() {
        return closing;
    }

    private void forward(HttpExchange exchange) throws IOException {
        String label = exchange.getRequestMethod() + " " + exchange.getRequestURI().getRawPath();
        List<String> secrets = new ArrayList<>();
        inFlight.incrementAndGet();
        try {
            if (closing) {
                throw new IOException("the proxy was closing");
            }
            exchange(exchange, label, secrets);
        } catch (ShortCredentialException e) {
            // refused before anything is forwarded or written (docs/limits-and-safety.md#credentials)
            problems.add(label + ": " + e.getMessage());
            listener.refused(label, e.getMessage());
            byte[] message = Json.write(Map.of("error", Map.of("message", "recording proxy: " + e.getMessage(),
                    "type", "agentlab_proxy_short_credential"))).getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(400, message.length);
            exchange.getResponseBody().write(message);
        } catch (IOException | RuntimeException | Error e) {
            // whatever broke, the client gets an answer and the reason is reported, not lost in a server thread
            String reason = "the exchange failed: " + e.getClass().getSimpleName() + ": " + e.getMessage();
            if (!(e instanceof Reported)) {
                notRecorded(label, Secrets.redactMessage(reason, secrets));
            }
            if (exchange.getResponseCode() < 0) {
                byte[] message = Json.write(Map.of("error", Map.of("message", Secrets.redactMessage("recording proxy: "
                        + reason, secrets), "type", "agentlab_proxy_error"))).getBytes(StandardCharsets.UTF_8);
                exchange.getResponseHeaders().set("Content-Type", "application/json");
                exchange.sendResponseHeaders(502, message.length);
                exchange.getResponseBody().write(message);
            }
            if (e instanceof Error error) {
                throw error;
            }
        } finally {
            exchange.close();
            if (inFlight.decrementAndGet() == 0) {
                synchronized (quiet) {
                    quiet.notifyAll();
                }
            }
        }
    }

    private void exchange(HttpExchange exchange, String label, List<String> secrets) throws IOException {
        long start = System.nanoTime();
        String method = exchange.getRequestMethod();
        byte[] bytes = exchange.getRequestBody().readAllBytes();
        String body = new String(bytes, StandardCharsets.UTF_8);
        String rawQuery = exchange.getRequestURI().getRawQuery();
        String target = upstream + exchange.getRequestURI().getRawPath().substring("/v1".length())
                + (rawQuery == null ? "" : "?" + rawQuery);
        MediaType type = MediaType.parse(Objects.requireNonNullElse(
                exchange.getRequestHeaders().getFirst("Content-Type"), "application/json"));
        boolean bodiless = method.equals("GET") || method.equals("HEAD")
                || (bytes.length == 0 && !Set.of("POST", "PUT", "PATCH").contains(method));
        List<Secrets.Credential> credentials = new ArrayList<>();
        Request.Builder request = new Request.Builder().url(target).method(method,
                bodiless ? null : RequestBody.create(bytes, type));
        exchange.getRequestHeaders().forEach((name, values) -> {
            String lower = name.toLowerCase(Locale.ROOT);
            if (!HOP_BY_HOP.contains(lower)) {
                values.forEach(value -> request.addHeader(name, value)); // forwarded, never recorded
            }
            values.forEach(value -> credentials.addAll(Secrets.ofHeader(name, value)));
        });
        credentials.addAll(Secrets.ofQuery(rawQuery));
        credentials.addAll(Secrets.ofJsonBody(body));
        Secrets.requireRedactable(credentials); // a short one is refused before it is forwarded
        credentials.forEach(credential -> secrets.add(credential.value()));

        List<Recording.TimedEvent> events = new ArrayList<>();
        Map<String, String> headers = new LinkedHashMap<>();
        StringBuilder raw = new StringBuilder();
        try (Response response = PooledConnectionRetry.execute(http, request.build())) {
            int status = response.code();
            String contentType = Objects.requireNonNullElse(response.header("Content-Type"), "");
            response.headers().forEach(header -> {
                String lower = header.getFirst().toLowerCase(Locale.ROOT);
                if (!HOP_BY_HOP.contains(lower)) {
                    exchange.getResponseHeaders().add(header.getFirst(), header.getSecond());
                }
                if (SAFE_RESPONSE_HEADERS.contains(lower)) {
                    headers.put(header.getFirst(), header.getSecond());
                }
            });
            exchange.sendResponseHeaders(status, 0);
            try (OutputStream out = exchange.getResponseBody()) {
                BufferedSource source = response.body().source();
                BoundedSseReader reader = new BoundedSseReader(source, limits);
                try {
                    String line;
                    while ((line = reader.nextLine()) != null) {
                        out.write((line + "\n").getBytes(StandardCharsets.UTF_8));
                        out.flush();
                        raw.append(line).append('\n');
                        if (line.startsWith("data:")) {
                            long offset = Duration.ofNanos(System.nanoTime() - start).toMillis();
                            events.add(new Recording.TimedEvent(offset, line.substring(5).strip()));
                        }
                    }
                } catch (ProviderException tooLarge) {
                    // past a bound nothing more is kept (docs/limits-and-safety.md#response-size); the client still
                    // gets the rest as it comes, and its own bounds judge it
                    events.clear();
                    raw.setLength(0);
                    notRecorded(label, "not recorded: " + tooLarge.getMessage().replaceFirst("^[A-Z_]+: ", ""));
                    relay(source, out);
                    return;
                } catch (IOException upstreamBroke) {
                    // said before the client's body ends, so a client that saw the end finds the reason
                    notRecorded(label, "the provider's response broke off after " + events.size() + " events: "
                            + upstreamBroke.getClass().getSimpleName() + ": " + upstreamBroke.getMessage());
                    throw new Reported(upstreamBroke);
                }
                // Written before the response ends, so a client that saw the end of the stream finds the file.
                record(exchange, label, method, body, status, contentType, headers, events, raw.toString(), secrets);
            }
        }
    }

    /** Copies what is left of an over-limit response to the client as it comes, keeping none of it. */
    private static void relay(BufferedSource source, OutputStream out) throws IOException {
        byte[] block = new byte[64 * 1024];
        int read;
        while ((read = source.read(block)) > 0) {
            out.write(block, 0, read);
            out.flush();
        }
    }

    /** An exchange whose failure was reported already, as it happened. */
    private static final class Reported extends IOException {
        Reported(IOException cause) {
            super(cause.getMessage(), cause);
        }
    }

    private void record(HttpExchange exchange, String label, String method, String body, int status,
                        String contentType, Map<String, String> headers, List<Recording.TimedEvent> events,
                        String raw, List<String> secrets) {
        RequestMatcher.Received received;
        try {
            if (!"POST".equals(method) || !exchange.getRequestURI().getRawPath().endsWith("/chat/completions")) {
                notRecorded(label, "only chat completions are recorded");
                return;
            }
            received = RequestMatcher.Received.of(body, exchange.getRequestHeaders()
                    .getFirst(OpenAiCompatibleClient.ROLE_HEADER));
        } catch (RuntimeException e) {
            notRecorded(label, "the request body is not a chat completion request: " + e.getMessage());
            return;
        }
        String role = safeRole(received.role());
        String id = String.format(Locale.ROOT, "%s-%s-%03d", received.mode().replace('_', '-'),
                role.replace('_', '-'), count.incrementAndGet());
        String model = safeModel(body);
        boolean stream = contentType.startsWith("text/event-stream") && status < 300;
        List<Recording.TimedEvent> kept = new ArrayList<>();
        String errorBody;
        String lastUserMessage;
        try {
            if (stream) {
                events.forEach(event -> kept.add(new Recording.TimedEvent(event.offsetMs(),
                        Secrets.redact(event.data(), secrets))));
            }
            errorBody = stream ? null : Secrets.redact(raw.strip(), secrets);
            lastUserMessage = Secrets.redact(received.lastUserMessage(), secrets);
            // a key echoed a few characters per chunk is in no single event (docs/limits-and-safety.md#credentials)
            List<Secrets.Finding> split = Secrets.scanStream(kept.stream().map(Recording.TimedEvent::data).toList(),
                    secrets);
            if (!split.isEmpty()) {
                throw new UnredactableSecretException(split);
            }
        } catch (RedactionRefusedException e) {
            notRecorded(label, e.getMessage()); // a secret redaction cannot remove: nothing is written
            return;
        }
        Recording recording = new Recording(id,
                new RequestMatcher(received.mode(), role, lastUserMessage),
                new Recording.RecordedResponse(status, headers, kept, errorBody, null),
                new Recording.Metadata(provider, model, LocalDate.now(clock).toString(), false,
                        List.of("request headers, URL and body not recorded (only mode, role and last user message)",
                                "response headers other than Content-Type and Retry-After dropped",
                                "every credential value the request carried, and key-shaped strings, replaced by "
                                        + Secrets.REDACTED), "recorded"));
        String text = Recordings.write(recording);
        List<Secrets.Finding> left = Secrets.scan(text, secrets);
        if (!left.isEmpty()) {
            notRecorded(label, "a credential-like string survived redaction (" + left.get(0).kind() + " "
                    + left.get(0).masked() + "); nothing written");
            return;
        }
        Path file = directory.resolve(id + ".json"); // id is built from sanitised parts only
        try {
            Files.writeString(file, text);
        } catch (IOException e) {
            notRecorded(label, "cannot write " + file + ": " + e.getMessage());
            return;
        }
        written.add(file);
        listener.recorded(file);
    }

    private void notRecorded(String label, String reason) {
        problems.add(label + ": " + reason);
        listener.notRecorded(label, reason);
    }

    /** A role for the file name: a known call role, else {@code unknown} (the header is the client's to set). */
    private static String safeRole(String role) {
        if (role != null && role.length() <= MAX_ROLE_LENGTH) {
            for (CallRole known : CallRole.values()) {
                if (known.wireName().equals(role)) {
                    return role;
                }
            }
        }
        return "unknown";
    }

    private static String safeModel(String body) {
        String model = Json.tree(body).path("model").asString("unknown");
        return model.matches("[A-Za-z0-9._:/-]{1,128}") ? model : "unknown";
    }
}
