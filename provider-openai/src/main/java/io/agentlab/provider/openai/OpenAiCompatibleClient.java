package io.agentlab.provider.openai;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.agentlab.runtime.llm.ChatCompletion;
import io.agentlab.runtime.llm.ChatProvider;
import io.agentlab.runtime.llm.ChatRequest;
import io.agentlab.runtime.llm.ChatRequestJson;
import io.agentlab.runtime.llm.ChatStreamListener;
import io.agentlab.runtime.llm.ProviderException;
import io.agentlab.runtime.llm.ResponseLimits;
import io.agentlab.runtime.llm.StreamAccumulator;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.regex.Pattern;
import okhttp3.Call;
import okhttp3.Callback;
import okhttp3.ConnectionSpec;
import okhttp3.Dispatcher;
import okhttp3.HttpUrl;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;
import okio.BufferedSource;
import org.apiguardian.api.API;

/**
 * The real provider: {@code POST {baseUrl}/chat/completions} with {@code stream: true} over OkHttp, the SSE body read
 * by a {@link BoundedSseReader}. The API key is read from the environment variable the configuration names, at call
 * time; it is never logged, stored in a field or written anywhere. Events are handed from the HTTP thread to the
 * calling thread through a small bounded queue, so listener calls happen in stream order on the caller, a fast
 * provider waits for a slow caller instead of filling the heap, and interrupting the caller cancels the stream.
 *
 * <p>Every client shares one connection pool and one dispatcher whose threads are daemons (OkHttp's advice: one
 * client per process), so a run of thousands of turns keeps a handful of threads and a process never waits for idle
 * HTTP threads to exit. Time is bounded twice (docs/limits-and-safety.md): the idle timeout bounds silence, and the
 * call deadline bounds the whole call, so a provider dribbling a byte a second cannot hold a turn open. Size is bounded
 * by {@link ResponseLimits}: past one, the call ends with {@link ProviderException.Kind#RESPONSE_TOO_LARGE} and what
 * arrived until then is dropped with it.
 *
 * <p>A call is retried once, on a fresh connection, only when it failed on a pooled connection before any byte of the
 * response arrived: servers such as llama.cpp's close a kept-alive connection shortly after each stream, and a request
 * sent on that dead connection was never processed, so nothing was billed. A call that received anything is never
 * retried.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class OpenAiCompatibleClient implements ChatProvider {

    private static final MediaType JSON = MediaType.get("application/json");
    /** A response type that is an answer, not a stream: compiled once, as every response is checked. */
    private static final Pattern JSON_SUBTYPE = Pattern.compile("json|.*\\+json");
    /**
     * Names the call's role ({@code chat}, {@code event_agent}, {@code follow_up}) so recordings and replays can tell
     * the calls of a turn apart; providers ignore unknown headers.
     */
    public static final String ROLE_HEADER = "X-Agentlab-Call-Role";

    /** Default bound of a whole call, first byte to last. */
    public static final Duration DEFAULT_CALL_TIMEOUT = Duration.ofSeconds(120);
    /** Default wait for {@code [DONE]} or the end of the body once a finish reason arrived. */
    public static final Duration DEFAULT_FINISH_GRACE = Duration.ofSeconds(2);

    /**
     * The one pool and dispatcher every client shares, made by the first client, for plain HTTP only: OkHttp sets up
     * TLS (the JDK's trust store read and parsed, about 0.25 s of CPU in a fresh JVM) for any client that may speak it,
     * and a run against the kit's own replay server on loopback never does (docs/performance.md#start-up). A redirect
     * from such a provider to {@code https} is not followed: it reaches the caller as the provider's HTTP status.
     */
    private static final class Shared {
        static final OkHttpClient CLIENT = sharedClient();
    }

    /** The shared client with TLS, set up once, when the first client of an {@code https} provider is made. */
    private static final class SharedTls {
        static final OkHttpClient CLIENT = Shared.CLIENT.newBuilder().followSslRedirects(true)
                .connectionSpecs(List.of(ConnectionSpec.MODERN_TLS, ConnectionSpec.CLEARTEXT)).build();
    }
    /**
     * Events in flight between the HTTP thread and the caller: enough to keep the caller busy, few enough that a fast
     * provider waits for a slow caller rather than filling the heap (docs/limits-and-safety.md#response-size).
     */
    private static final int QUEUE = 256;
    /** How often a full hand-off re-checks whether the caller cancelled the call. */
    private static final long HAND_OFF_CHECK_MS = 100;
    /** The most of an error body a failure quotes. */
    private static final long ERROR_BODY_BYTES = 4096;

    /**
     * Connection settings.
     *
     * @param baseUrl                   the provider's {@code /v1} root, e.g. {@code https://api.example.com/v1}
     * @param apiKeyEnvironmentVariable the environment variable holding the key (none sent when unset)
     * @param connectTimeout            TCP connect timeout
     * @param readTimeout               the longest silence allowed inside the stream (idle timeout)
     * @param callTimeout               the longest a whole call may take, request to last byte
     * @param finishGrace               how long to wait for {@code [DONE]} or the end of the body after a finish
     *                                  reason arrived; then the stream is complete with what it delivered
     * @param limits                    how much of a response is read (docs/limits-and-safety.md#response-size)
     */
    public record Config(String baseUrl, String apiKeyEnvironmentVariable, Duration connectTimeout,
                         Duration readTimeout, Duration callTimeout, Duration finishGrace, ResponseLimits limits) {
        /** Rejects nulls and non-positive durations, and strips a trailing slash. */
        public Config {
            Objects.requireNonNull(baseUrl, "baseUrl");
            Objects.requireNonNull(limits, "limits");
            baseUrl = baseUrl.endsWith("/") ? baseUrl.substring(0, baseUrl.length() - 1) : baseUrl;
            positive(connectTimeout, "connectTimeout");
            positive(readTimeout, "readTimeout");
            positive(callTimeout, "callTimeout");
            positive(finishGrace, "finishGrace");
        }

        /** Settings with the default response limits. */
        public Config(String baseUrl, String apiKeyEnvironmentVariable, Duration connectTimeout,
                      Duration readTimeout, Duration callTimeout, Duration finishGrace) {
            this(baseUrl, apiKeyEnvironmentVariable, connectTimeout, readTimeout, callTimeout, finishGrace,
                    ResponseLimits.DEFAULT);
        }

        /** Settings with the default call deadline, finish grace and response limits. */
        public Config(String baseUrl, String apiKeyEnvironmentVariable, Duration connectTimeout,
                      Duration readTimeout) {
            this(baseUrl, apiKeyEnvironmentVariable, connectTimeout, readTimeout, DEFAULT_CALL_TIMEOUT,
                    DEFAULT_FINISH_GRACE);
        }

        /** A config with 5 s connect, 30 s idle and 120 s call timeouts and the key in {@code AGENTLAB_API_KEY}. */
        public static Config of(String baseUrl) {
            return new Config(baseUrl, "AGENTLAB_API_KEY", Duration.ofSeconds(5), Duration.ofSeconds(30));
        }

        /** The same settings with another whole-call deadline. */
        public Config withCallTimeout(Duration timeout) {
            return new Config(baseUrl, apiKeyEnvironmentVariable, connectTimeout, readTimeout, timeout, finishGrace,
                    limits);
        }

        /** The same settings with another finish grace. */
        public Config withFinishGrace(Duration grace) {
            return new Config(baseUrl, apiKeyEnvironmentVariable, connectTimeout, readTimeout, callTimeout, grace,
                    limits);
        }

        /** The same settings with other response limits. */
        public Config withLimits(ResponseLimits other) {
            return new Config(baseUrl, apiKeyEnvironmentVariable, connectTimeout, readTimeout, callTimeout,
                    finishGrace, other);
        }

        private static void positive(Duration duration, String name) {
            Objects.requireNonNull(duration, name);
            if (duration.isZero() || duration.isNegative()) {
                throw new IllegalArgumentException(name + " must be positive, was " + duration);
            }
        }
    }

    private final Config config;
    private final OkHttpClient http;
    private final Function<String, String> environment;
    private final LongSupplier nanoTime;

    /** A client reading the key from the process environment and timing with {@link System#nanoTime()}. */
    public OpenAiCompatibleClient(Config config) {
        this(config, System::getenv, System::nanoTime);
    }

    /** A client with an injected environment (tests) and clock. */
    public OpenAiCompatibleClient(Config config, Function<String, String> environment, LongSupplier nanoTime) {
        this.config = Objects.requireNonNull(config, "config");
        this.environment = environment;
        this.nanoTime = nanoTime;
        // newBuilder() shares the pool and the dispatcher: a client per configuration costs no threads
        HttpUrl base = HttpUrl.parse(config.baseUrl()); // read as OkHttp reads it (case, surrounding spaces)
        boolean tls = base != null && base.isHttps();
        this.http = (tls ? SharedTls.CLIENT : Shared.CLIENT).newBuilder()
                .connectTimeout(config.connectTimeout())
                .readTimeout(config.readTimeout())
                .build();
    }

    private static OkHttpClient sharedClient() {
        AtomicInteger threads = new AtomicInteger();
        ExecutorService executor = new ThreadPoolExecutor(0, Integer.MAX_VALUE, 60, TimeUnit.SECONDS,
                new SynchronousQueue<>(), runnable -> {
            Thread thread = new Thread(runnable, "agentlab-http-" + threads.incrementAndGet());
            thread.setDaemon(true); // an idle HTTP thread must never keep a finished process alive
            return thread;
        });
        Dispatcher dispatcher = new Dispatcher(executor);
        dispatcher.setMaxRequests(256);
        dispatcher.setMaxRequestsPerHost(256);
        return new OkHttpClient.Builder()
                .dispatcher(dispatcher)
                .connectionSpecs(List.of(ConnectionSpec.CLEARTEXT))
                .followSslRedirects(false) // a redirect to https is the provider's answer, not a TLS set-up now
                .retryOnConnectionFailure(false) // retries are decided below, where billing is known to be safe
                .eventListenerFactory(PooledConnectionRetry.FACTORY)
                .build();
    }

    @Override
    public ChatCompletion stream(ChatRequest request, ChatStreamListener listener) {
        String body = ChatRequestJson.write(request);
        long start = nanoTime.getAsLong();
        long deadline = start + config.callTimeout().toNanos();
        StreamAccumulator accumulator = new StreamAccumulator();
        Long firstItem = null;
        Long firstContent = null;
        PooledConnectionRetry attempt = PooledConnectionRetry.first();
        BlockingQueue<Signal> signals = new ArrayBlockingQueue<>(QUEUE);
        Call source = open(http, request, body, attempt, signals);
        try {
            while (true) {
                long remaining = deadline - nanoTime.getAsLong();
                if (remaining <= 0) {
                    throw new ProviderException(ProviderException.Kind.DEADLINE, "the call took longer than its "
                            + "deadline of " + config.callTimeout().toMillis() + " ms (after "
                            + accumulator.contentSoFar().length() + " characters)");
                }
                long wait = accumulator.ended() ? Math.min(remaining, config.finishGrace().toNanos()) : remaining;
                Signal signal = signals.poll(wait, TimeUnit.NANOSECONDS);
                if (signal == null) {
                    if (accumulator.ended()) {
                        break; // a whole answer arrived; the provider just never closed the body
                    }
                    continue; // the deadline check above ends the call
                }
                if (signal instanceof Signal.Data data) {
                    long now = nanoTime.getAsLong();
                    firstItem = firstItem == null ? now : firstItem;
                    String delta = accumulator.accept(data.payload());
                    if (!delta.isEmpty()) {
                        firstContent = firstContent == null ? nanoTime.getAsLong() : firstContent;
                        listener.onContent(delta);
                    }
                } else if (signal instanceof Signal.Failed failed) {
                    if (accumulator.ended()) {
                        break; // closed without ending the body, after the answer was complete
                    }
                    if (firstItem == null && !failed.responded()
                            && attempt.retryable(failed.exception().getCause())) {
                        // the pooled connection was dead before the request reached the server: retry once, fresh
                        source.cancel();
                        attempt = attempt.again();
                        signals = new ArrayBlockingQueue<>(QUEUE);
                        source = open(PooledConnectionRetry.freshConnections(http), request, body, attempt, signals);
                        continue;
                    }
                    throw failed.exception();
                } else {
                    break;
                }
            }
        } catch (InterruptedException e) {
            source.cancel();
            Thread.currentThread().interrupt();
            throw new ProviderException(ProviderException.Kind.CANCELLED, "interrupted after "
                    + accumulator.contentSoFar().length() + " characters");
        } catch (RuntimeException e) {
            source.cancel();
            throw e;
        }
        source.cancel(); // a no-op after a clean end; releases a body the provider never closed
        long end = nanoTime.getAsLong();
        Long fi = firstItem;
        Long fc = firstContent;
        return accumulator.complete(Duration.ofNanos((fi == null ? end : fi) - start),
                Optional.ofNullable(fc).map(t -> Duration.ofNanos(t - start)), Duration.ofNanos(end - start));
    }

    private Call open(OkHttpClient client, ChatRequest request, String body, PooledConnectionRetry attempt,
                      BlockingQueue<Signal> signals) {
        Request.Builder http = new Request.Builder()
                .url(config.baseUrl() + "/chat/completions")
                .header("Accept", "text/event-stream")
                .header(ROLE_HEADER, request.role().wireName())
                .tag(PooledConnectionRetry.class, attempt)
                .post(RequestBody.create(body, JSON));
        String key = config.apiKeyEnvironmentVariable() == null ? null
                : environment.apply(config.apiKeyEnvironmentVariable());
        if (key != null && !key.isBlank()) {
            http.header("Authorization", "Bearer " + key);
        }
        Call call = client.newCall(http.build());
        call.enqueue(new Callback() {
            @Override
            public void onFailure(Call failed, IOException e) {
                hand(failed, signals, failure(e, null));
            }

            @Override
            public void onResponse(Call answered, Response response) {
                try (response) {
                    if (!response.isSuccessful()) {
                        hand(answered, signals, failure(null, response));
                        return;
                    }
                    MediaType type = response.body().contentType();
                    if (type != null && JSON_SUBTYPE.matcher(type.subtype().toLowerCase(Locale.ROOT)).matches()) {
                        // liberal in what we read: any type may carry SSE but JSON, which is an answer, not a stream
                        hand(answered, signals, notStreaming(type, response));
                        return;
                    }
                    BoundedSseReader reader = new BoundedSseReader(response.body().source(), config.limits());
                    String data;
                    try {
                        while ((data = reader.next()) != null) {
                            if (!hand(answered, signals, new Signal.Data(data))) {
                                return;
                            }
                        }
                    } catch (ProviderException e) {
                        // past a bound: say so first (a cancelled call hands nothing more), then stop the provider.
                        // Cancelled here, before the try closes the body: closing an unread body first lets OkHttp
                        // drain it for up to 100 ms to reuse the connection, reading on past the bound (over 100 MB
                        // on loopback), so the bound would depend on the machine's speed.
                        hand(answered, signals, new Signal.Failed(e, true));
                        answered.cancel();
                        return;
                    }
                    hand(answered, signals, new Signal.Closed());
                } catch (IOException | RuntimeException e) {
                    hand(answered, signals, failure(e, response));
                }
            }
        });
        return call;
    }

    /**
     * Hands a signal to the calling thread, waiting while the queue is full (the caller is slower than the provider);
     * false once the call was cancelled, when nobody reads the queue any more.
     */
    private static boolean hand(Call call, BlockingQueue<Signal> signals, Signal signal) {
        try {
            while (!call.isCanceled()) {
                if (signals.offer(signal, HAND_OFF_CHECK_MS, TimeUnit.MILLISECONDS)) {
                    return true;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return false;
    }

    private static Signal.Failed failure(Throwable failure, Response response) {
        if (response != null && !response.isSuccessful()) {
            String body = "";
            try {
                // an error body is shown, not kept: its first bytes say enough, and a hostile one cannot fill the heap
                BufferedSource source = response.body().source();
                source.request(ERROR_BODY_BYTES);
                long size = Math.min(source.getBuffer().size(), ERROR_BODY_BYTES);
                body = source.getBuffer().readUtf8(size);
            } catch (IOException | RuntimeException ignored) {
                // the status says enough
            }
            String retryAfter = response.header("Retry-After");
            Duration wait = null;
            if (retryAfter != null && retryAfter.trim().matches("\\d{1,6}")) {
                wait = Duration.ofSeconds(Long.parseLong(retryAfter.trim()));
            }
            return new Signal.Failed(new ProviderException(ProviderException.Kind.HTTP_STATUS, "HTTP "
                    + response.code() + (body.isBlank() ? "" : ": " + (body.length() > 500 ? body.substring(0, 500)
                    : body)), response.code(), wait, failure), response != null);
        }
        String message = failure == null ? "stream failed" : failure.getClass().getSimpleName() + ": "
                + failure.getMessage();
        return new Signal.Failed(new ProviderException(ProviderException.Kind.CONNECTION, message, 0, null, failure),
                response != null);
    }

    /** A JSON answer to a streaming request, with its first bytes (docs/runtime.md#provider-errors). */
    private static Signal notStreaming(MediaType type, Response response) {
        String head = "";
        try {
            BufferedSource source = response.body().source();
            source.request(ERROR_BODY_BYTES);
            head = source.getBuffer().readUtf8(Math.min(source.getBuffer().size(), ERROR_BODY_BYTES));
        } catch (IOException | RuntimeException ignored) {
            // the type says enough
        }
        return new Signal.Failed(new ProviderException(ProviderException.Kind.NOT_STREAMING, "HTTP 200 with "
                + type.type() + "/" + type.subtype() + ", not an SSE stream (text/event-stream): the server ignored "
                + "\"stream\": true" + (head.isBlank() ? "" : "; it began: " + (head.length() > 200
                ? head.substring(0, 200) + "…" : head)), 200, null, null), true);
    }

    private sealed interface Signal {
        record Data(String payload) implements Signal {
        }

        record Closed() implements Signal {
        }

        record Failed(ProviderException exception, boolean responded) implements Signal {
        }
    }
}
