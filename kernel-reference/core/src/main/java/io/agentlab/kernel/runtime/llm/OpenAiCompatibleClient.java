package io.agentlab.kernel.runtime.llm;

import java.io.IOException;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
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
 */
public final class OpenAiCompatibleClient implements ChatProvider, AutoCloseable {

    private static final MediaType JSON = MediaType.get("application/json");
    /**
     * Names the call's role ({@code chat}, {@code event_agent}, {@code follow_up}) so recordings and replays can tell
     * the calls of a turn apart; providers ignore unknown headers.
     */
    public static final String ROLE_HEADER = "X-Agentlab-Call-Role";

    /**
     * Connection settings.
     *
     * @param baseUrl                   the provider's {@code /v1} root, e.g. {@code https://api.example.com/v1}
     * @param apiKeyEnvironmentVariable the environment variable holding the key (none sent when unset)
     * @param connectTimeout            TCP connect timeout
     * @param readTimeout               the longest silence allowed inside the stream
     */
    public record Config(String baseUrl, String apiKeyEnvironmentVariable, Duration connectTimeout,
                         Duration readTimeout) {
        /** Rejects nulls and strips a trailing slash. */
        public Config {
            Objects.requireNonNull(baseUrl, "baseUrl");
            baseUrl = baseUrl.endsWith("/") ? baseUrl.substring(0, baseUrl.length() - 1) : baseUrl;
            Objects.requireNonNull(connectTimeout, "connectTimeout");
            Objects.requireNonNull(readTimeout, "readTimeout");
        }

        /** A config with 5 s connect and 30 s read timeouts and the key in {@code AGENTLAB_API_KEY}. */
        public static Config of(String baseUrl) {
            return new Config(baseUrl, "AGENTLAB_API_KEY", Duration.ofSeconds(5), Duration.ofSeconds(30));
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
        this.config = config;
        this.environment = environment;
        this.nanoTime = nanoTime;
        this.http = new OkHttpClient.Builder()
                // OkHttp's own dispatcher threads are not daemons and idle a minute before they end: a program that
                // is done would wait for them (the turn demo hung ~75 s). The caller waits on every call's result,
                // so these threads never need to keep a JVM alive.
                .dispatcher(new Dispatcher(Executors.newCachedThreadPool(runnable -> {
                    Thread thread = new Thread(runnable, "agentlab-llm-stream");
                    thread.setDaemon(true);
                    return thread;
                })))
                .connectTimeout(config.connectTimeout())
                .readTimeout(config.readTimeout())
                .retryOnConnectionFailure(false) // a retry here could duplicate a billed call
                .build();
    }

    /** Releases the client's threads and pooled connections; calls in flight are cancelled. */
    @Override
    public void close() {
        http.dispatcher().cancelAll();
        http.dispatcher().executorService().shutdown();
        http.connectionPool().evictAll();
    }

    @Override
    public ChatCompletion stream(ChatRequest request, ChatStreamListener listener) {
        Request.Builder http = new Request.Builder()
                .url(config.baseUrl() + "/chat/completions")
                .header("Accept", "text/event-stream")
                .header(ROLE_HEADER, request.role().wireName())
                .post(RequestBody.create(ChatRequestJson.write(request), JSON));
        String key = config.apiKeyEnvironmentVariable() == null ? null
                : environment.apply(config.apiKeyEnvironmentVariable());
        if (key != null && !key.isBlank()) {
            http.header("Authorization", "Bearer " + key);
        }
        BlockingQueue<Signal> signals = new LinkedBlockingQueue<>();
        long start = nanoTime.getAsLong();
        EventSource source = EventSources.createFactory(this.http).newEventSource(http.build(), new EventSourceListener() {
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
        StreamAccumulator accumulator = new StreamAccumulator();
        Long firstItem = null;
        Long firstContent = null;
        try {
            while (true) {
                Signal signal = signals.take();
                if (signal instanceof Signal.Data data) {
                    long now = nanoTime.getAsLong();
                    firstItem = firstItem == null ? now : firstItem;
                    String delta = accumulator.accept(data.payload());
                    if (!delta.isEmpty()) {
                        firstContent = firstContent == null ? nanoTime.getAsLong() : firstContent;
                        listener.onContent(delta);
                    }
                } else if (signal instanceof Signal.Failed failed) {
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
        long end = nanoTime.getAsLong();
        Long fi = firstItem;
        Long fc = firstContent;
        return accumulator.complete(Duration.ofNanos((fi == null ? end : fi) - start),
                Optional.ofNullable(fc).map(t -> Duration.ofNanos(t - start)), Duration.ofNanos(end - start));
    }

    private static Signal failure(Throwable failure, Response response) {
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
                    : body)), response.code(), wait, failure));
        }
        String message = failure == null ? "stream failed" : failure.getClass().getSimpleName() + ": "
                + failure.getMessage();
        return new Signal.Failed(new ProviderException(ProviderException.Kind.CONNECTION, message, 0, null, failure));
    }

    private sealed interface Signal {
        record Data(String payload) implements Signal {
        }

        record Closed() implements Signal {
        }

        record Failed(ProviderException exception) implements Signal {
        }
    }
}
