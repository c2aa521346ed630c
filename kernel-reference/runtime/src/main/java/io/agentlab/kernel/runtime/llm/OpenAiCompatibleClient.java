package io.agentlab.kernel.runtime.llm;

import java.io.IOException;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.LongSupplier;
import okhttp3.Dispatcher;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;
import okhttp3.sse.EventSource;
import okhttp3.sse.EventSourceListener;
import okhttp3.sse.EventSources;

/**
 * The real provider: {@code POST {baseUrl}/chat/completions} with {@code stream: true} over OkHttp + okhttp-sse.
 * The API key is read from the environment variable the configuration names, at call time; it is never logged,
 * stored in a field or written anywhere. SSE callbacks are queued and consumed on the calling thread, so listener
 * calls happen in stream order on the caller; interrupting the caller cancels the stream.
 *
 * <p>Every client shares one connection pool and one dispatcher whose threads are daemons (OkHttp's advice: one
 * client per process), so a run of thousands of turns keeps a handful of threads and a process never waits for idle
 * HTTP threads to exit. Time is bounded twice (docs/limits-and-safety.md): the idle timeout bounds silence, and the
 * call deadline bounds the whole call, so a provider dribbling a byte a second cannot hold a turn open.
 *
 * <p>A call is retried once, on a fresh connection, only when it failed on a pooled connection before any byte of the
 * response arrived: servers such as llama.cpp's close a kept-alive connection shortly after each stream, and a request
 * sent on that dead connection was never processed, so nothing was billed. A call that received anything is never
 * retried.
 */
public final class OpenAiCompatibleClient implements ChatProvider {

    private static final MediaType JSON = MediaType.get("application/json");
    /**
     * Names the call's role ({@code chat}, {@code event_agent}, {@code follow_up}) so recordings and replays can tell
     * the calls of a turn apart; providers ignore unknown headers.
     */
    public static final String ROLE_HEADER = "X-Agentlab-Call-Role";

    /** Default bound of a whole call, first byte to last. */
    public static final Duration DEFAULT_CALL_TIMEOUT = Duration.ofSeconds(120);
    /** Default wait for {@code [DONE]} or the end of the body once a finish reason arrived. */
    public static final Duration DEFAULT_FINISH_GRACE = Duration.ofSeconds(2);

    private static final OkHttpClient SHARED = sharedClient();

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
     */
    public record Config(String baseUrl, String apiKeyEnvironmentVariable, Duration connectTimeout,
                         Duration readTimeout, Duration callTimeout, Duration finishGrace) {
        /** Rejects nulls and non-positive durations, and strips a trailing slash. */
        public Config {
            Objects.requireNonNull(baseUrl, "baseUrl");
            baseUrl = baseUrl.endsWith("/") ? baseUrl.substring(0, baseUrl.length() - 1) : baseUrl;
            positive(connectTimeout, "connectTimeout");
            positive(readTimeout, "readTimeout");
            positive(callTimeout, "callTimeout");
            positive(finishGrace, "finishGrace");
        }

        /** Settings with the default call deadline and finish grace. */
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
            return new Config(baseUrl, apiKeyEnvironmentVariable, connectTimeout, readTimeout, timeout, finishGrace);
        }

        /** The same settings with another finish grace. */
        public Config withFinishGrace(Duration grace) {
            return new Config(baseUrl, apiKeyEnvironmentVariable, connectTimeout, readTimeout, callTimeout, grace);
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
        this.http = SHARED.newBuilder()
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
        BlockingQueue<Signal> signals = new LinkedBlockingQueue<>();
        EventSource source = open(http, request, body, attempt, signals);
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
                        signals = new LinkedBlockingQueue<>();
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

    private EventSource open(OkHttpClient client, ChatRequest request, String body, PooledConnectionRetry attempt,
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
        return EventSources.createFactory(client).newEventSource(http.build(), new EventSourceListener() {
            @Override
            public void onEvent(EventSource eventSource, String id, String type, String data) {
                signals.add(new Signal.Data(data));
            }

            @Override
            public void onClosed(EventSource eventSource) {
                signals.add(new Signal.Closed());
            }

            @Override
            public void onFailure(EventSource eventSource, Throwable failure, Response response) {
                signals.add(failure(failure, response));
            }
        });
    }

    private static Signal.Failed failure(Throwable failure, Response response) {
        if (response != null && !response.isSuccessful()) {
            String body = "";
            try {
                body = response.body().string();
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

    private sealed interface Signal {
        record Data(String payload) implements Signal {
        }

        record Closed() implements Signal {
        }

        record Failed(ProviderException exception, boolean responded) implements Signal {
        }
    }
}
