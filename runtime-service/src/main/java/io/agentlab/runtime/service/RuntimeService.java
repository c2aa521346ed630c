package io.agentlab.runtime.service;

import static org.apiguardian.api.API.Status.INTERNAL;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.agentlab.agui.AguiEvent;
import io.agentlab.agui.AguiSseCodec;
import io.agentlab.kernel.api.EventPlugin;
import io.agentlab.plugins.BuiltInPlugins;
import io.agentlab.provider.openai.OpenAiCompatibleClient;
import io.agentlab.runtime.TurnHandle;
import io.agentlab.runtime.TurnResult;
import io.agentlab.runtime.VisibleSink;
import io.agentlab.runtime.llm.Json;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import org.apiguardian.api.API;

/**
 * The kit's reference runtime — its own {@code TurnRuntime}, the reference kernel and the four built-in plugins — as a
 * standalone HTTP service that serves the wire contract {@code agentlab-wire/1} (docs/wire.md). Read it as the
 * reference implementation of that contract: what a service team's runtime, in any language, must do to be judged by
 * the suites over the wire.
 *
 * <ul>
 *   <li>{@code POST /agui}: an AG-UI 1.0 {@code RunAgentInput} in, the run's AG-UI events out as server-sent events,
 *       flushed as the turn emits them (docs/wire.md#endpoint);</li>
 *   <li>{@code GET /agentlab/capabilities}: the ready probe, naming the contract and the events offered
 *       (docs/wire.md#start-up);</li>
 *   <li>{@code POST /agentlab/interrupt}: the user stops the thread's running turn (docs/wire.md#start-up).</li>
 * </ul>
 *
 * <p>Configured by the environment the kit sets (docs/wire.md#configuration): {@code AGENTLAB_PROVIDER_BASE_URL}
 * (every model call; the client sends {@code X-Agentlab-Call-Role}), {@code AGENTLAB_PROVIDER_API_KEY},
 * {@code AGENTLAB_PORTS_URL} (every port call) and {@code AGENTLAB_RUNTIME_HOST}/{@code AGENTLAB_RUNTIME_PORT}
 * (where to listen: loopback only).
 */
@API(status = INTERNAL, since = "0.1")
public final class RuntimeService implements AutoCloseable {

    private final HttpServer server;
    private final OpenAiCompatibleClient.Config provider;
    private final HttpPorts ports;
    /** Each AG-UI thread the kit opened: its conversation and runtime (docs/wire.md#conventions). */
    private final Map<String, WireThread> threads = new ConcurrentHashMap<>();
    /** Each thread's running turn, for the interrupt route. */
    private final Map<String, TurnHandle> running = new ConcurrentHashMap<>();

    private RuntimeService(HttpServer server, OpenAiCompatibleClient.Config provider, HttpPorts ports) {
        this.server = server;
        this.provider = provider;
        this.ports = ports;
        server.createContext("/agui", exchange -> serve(exchange, this::run));
        server.createContext("/agentlab/capabilities", exchange -> serve(exchange, this::capabilities));
        server.createContext("/agentlab/interrupt", exchange -> serve(exchange, this::interrupt));
        server.setExecutor(Executors.newCachedThreadPool(runnable -> {
            Thread thread = new Thread(runnable, "agentlab-runtime-service");
            thread.setDaemon(true);
            return thread;
        }));
        server.start();
    }

    /**
     * Starts the service on {@code host:port} (0: a free port) calling the provider at {@code providerBaseUrl} and the
     * ports at {@code portsUrl}.
     *
     * @throws IllegalArgumentException when {@code host} is not a loopback address: the service serves this machine
     */
    public static RuntimeService start(String host, int port, String providerBaseUrl, String portsUrl)
            throws IOException {
        InetAddress address = InetAddress.getByName(host);
        if (!address.isLoopbackAddress()) {
            throw new IllegalArgumentException("AGENTLAB_RUNTIME_HOST " + host + " is not a loopback address");
        }
        // the key's variable is AGENTLAB_PROVIDER_API_KEY: a placeholder the kit's replay accepts (docs/wire.md#configuration)
        OpenAiCompatibleClient.Config provider = new OpenAiCompatibleClient.Config(providerBaseUrl,
                "AGENTLAB_PROVIDER_API_KEY", Duration.ofSeconds(5), Duration.ofSeconds(30));
        return new RuntimeService(HttpServer.create(new InetSocketAddress(address, port), 0), provider,
                new HttpPorts(portsUrl));
    }

    /** The service's base URL. */
    public String baseUrl() {
        return "http://" + server.getAddress().getHostString() + ":" + server.getAddress().getPort();
    }

    /** Runs the service from the environment until the process is stopped. */
    public static void main(String[] args) throws IOException {
        String host = Optional.ofNullable(System.getenv("AGENTLAB_RUNTIME_HOST")).orElse("127.0.0.1");
        int port = Integer.parseInt(Optional.ofNullable(System.getenv("AGENTLAB_RUNTIME_PORT")).orElse("0"));
        RuntimeService service = start(host, port, required("AGENTLAB_PROVIDER_BASE_URL"),
                required("AGENTLAB_PORTS_URL"));
        Runtime.getRuntime().addShutdownHook(new Thread(service::close, "agentlab-runtime-service-stop"));
        System.out.println("agentlab runtime service (" + WireSettings.CONTRACT + ") listening on " + service.baseUrl());
    }

    private static String required(String variable) {
        String value = System.getenv(variable);
        if (value == null || value.isBlank()) {
            System.err.println("agentlab runtime service: " + variable + " is not set (docs/wire.md#configuration)");
            System.exit(2);
        }
        return value;
    }

    /** One route's work; a bad request is answered 400 with one line, anything else 500 with one line. */
    private interface Route {
        void handle(HttpExchange exchange) throws IOException;
    }

    private static void serve(HttpExchange exchange, Route route) throws IOException {
        try (exchange) {
            route.handle(exchange);
        } catch (IllegalArgumentException | tools.jackson.core.JacksonException e) {
            text(exchange, 400, e.getMessage());
        } catch (RuntimeException e) {
            text(exchange, 500, e.toString());
        }
    }

    /** {@code GET /agentlab/capabilities}: the ready probe, and the events this runtime offers. */
    private void capabilities(HttpExchange exchange) throws IOException {
        List<Map<String, Object>> events = BuiltInPlugins.withInMemoryPorts().stream().map(EventPlugin::definition)
                .map(definition -> {
                    Map<String, Object> event = new LinkedHashMap<>();
                    event.put("name", definition.name());
                    event.put("description", definition.description());
                    event.put("schema", Json.object(Json.tree(definition.argumentsSchema())));
                    return event;
                }).toList();
        json(exchange, 200, Map.of("contract", WireSettings.CONTRACT, "events", events, "probes", true));
    }

    /** {@code POST /agentlab/interrupt} with {@code {"threadId", "runId"}}: the user stops the thread's running turn. */
    private void interrupt(HttpExchange exchange) throws IOException {
        Map<String, Object> body = Json.object(Json.tree(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8)));
        TurnHandle handle = running.get(String.valueOf(body.get("threadId")));
        if (handle == null) {
            text(exchange, 404, "no turn of thread " + body.get("threadId") + " is running");
            return;
        }
        handle.interrupt(); // the stream ends as the design says: RUN_FINISHED with outcome cancelled
        json(exchange, 200, Map.of("interrupted", true));
    }

    /**
     * {@code POST /agui}: one run. The thread's settings are read on its first run; the last user message is the turn's
     * text (this runtime keeps its own history by {@code threadId}, docs/wire.md#endpoint); a {@code retransmitOf}
     * re-runs that turn under its id (docs/wire.md#conventions). Each AG-UI event is written and flushed as emitted.
     */
    @SuppressWarnings("unchecked")
    private void run(HttpExchange exchange) throws IOException {
        if (!"POST".equals(exchange.getRequestMethod())) {
            text(exchange, 405, "POST a RunAgentInput");
            return;
        }
        Map<String, Object> input = Json.object(Json.tree(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8)));
        String threadId = input.get("threadId") instanceof String id && !id.isBlank() ? id : null;
        if (threadId == null) {
            throw new IllegalArgumentException("RunAgentInput.threadId is missing");
        }
        Map<String, Object> forwarded = input.get("forwardedProps") instanceof Map<?, ?> map
                ? (Map<String, Object>) map : Map.of();
        Map<String, Object> agentlab = forwarded.get("agentlab") instanceof Map<?, ?> map
                ? (Map<String, Object>) map : Map.of();
        WireSettings settings = WireSettings.read(agentlab);
        String user = lastUserMessage(input);
        WireThread thread = threads.computeIfAbsent(threadId, id -> WireThread.open(id, settings, provider, ports));
        if (thread.conversation().ended()) {
            text(exchange, 409, "the session of thread " + threadId + " has ended");
            return;
        }
        exchange.getResponseHeaders().add("Content-Type", "text/event-stream");
        exchange.getResponseHeaders().add("Cache-Control", "no-cache");
        exchange.sendResponseHeaders(200, 0);
        OutputStream out = exchange.getResponseBody();
        SseSink sink = new SseSink(out);
        try {
            if (settings.retransmitOf().isPresent()) {
                thread.runtime().retransmit(thread.conversation(), settings.retransmitOf().get(), user, sink);
            } else {
                TurnHandle handle = thread.runtime().start(thread.conversation(), user, sink);
                running.put(threadId, handle);
                try {
                    awaited(handle);
                } finally {
                    running.remove(threadId, handle);
                }
            }
        } catch (RuntimeException e) {
            // the turn itself failed (not a model or port failure, which the run reports): say so before the end
            sink.onAguiEvent(new AguiEvent(AguiEvent.RUN_ERROR, Map.of("message", String.valueOf(e.getMessage()),
                    "code", "runtime_error")));
        }
    }

    private static TurnResult awaited(TurnHandle handle) {
        try {
            return handle.result().get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            handle.cancel();
            throw new IllegalStateException("the service stopped while the turn ran", e);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException cause ? cause : new IllegalStateException(e.getCause());
        }
    }

    @SuppressWarnings("unchecked")
    private static String lastUserMessage(Map<String, Object> input) {
        List<Object> messages = input.get("messages") instanceof List<?> list ? (List<Object>) list : List.of();
        for (int i = messages.size() - 1; i >= 0; i--) {
            if (messages.get(i) instanceof Map<?, ?> message && "user".equals(message.get("role"))
                    && message.get("content") instanceof String content) {
                return content;
            }
        }
        throw new IllegalArgumentException("RunAgentInput.messages has no user message");
    }

    /** Writes each AG-UI event of the turn as one SSE frame, flushed as it is emitted; visible deltas need nothing. */
    private static final class SseSink implements VisibleSink {
        private final OutputStream out;
        private long id;

        SseSink(OutputStream out) {
            this.out = out;
        }

        @Override
        public void onDelta(String messageId, String text) {
        }

        @Override
        public synchronized void onAguiEvent(AguiEvent event) {
            try {
                out.write(AguiSseCodec.encode(List.of(event), ++id).getBytes(StandardCharsets.UTF_8));
                out.flush();
            } catch (IOException e) {
                throw new UncheckedIOException("the client went away", e);
            }
        }
    }

    private static void json(HttpExchange exchange, int status, Object body) throws IOException {
        send(exchange, status, "application/json", Json.write(body));
    }

    private static void text(HttpExchange exchange, int status, String body) throws IOException {
        send(exchange, status, "text/plain; charset=utf-8", body + "\n");
    }

    private static void send(HttpExchange exchange, int status, String type, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", type);
        exchange.sendResponseHeaders(status, bytes.length);
        exchange.getResponseBody().write(bytes);
    }

    @Override
    public void close() {
        server.stop(0);
        threads.values().forEach(thread -> thread.runtime().close());
    }
}
