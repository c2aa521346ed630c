package io.agentlab.examples.sse;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.agentlab.runtime.Conversation;
import io.agentlab.runtime.TurnResult;
import io.agentlab.runtime.TurnRuntime;
import io.agentlab.runtime.VisibleSink;
import io.agentlab.agui.AguiEvent;
import io.agentlab.agui.AguiSseCodec;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.ZoneId;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A service team's AG-UI endpoint, as small as it gets: {@code POST /turns?session=S&text=T} runs a turn on the
 * runtime and answers with its run id; {@code GET /runs/{runId}/events} streams that run's AG-UI 1.0 events as SSE
 * frames with ids, resuming after {@code Last-Event-ID}.
 */
public final class RunEventsService implements AutoCloseable {

    private final HttpServer server;
    private final TurnRuntime runtime;
    private final Map<String, Conversation> sessions = new ConcurrentHashMap<>();
    private final Map<String, List<AguiEvent>> runs = new ConcurrentHashMap<>();

    private RunEventsService(TurnRuntime runtime, int port) throws IOException {
        this.runtime = runtime;
        this.server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 0);
        server.createContext("/turns", this::turn);
        server.createContext("/runs/", this::events);
        server.start();
    }

    /** Starts the service on {@code port} (0: any free port). */
    public static RunEventsService start(TurnRuntime runtime, int port) throws IOException {
        return new RunEventsService(runtime, port);
    }

    /** The service's root URL. */
    public String baseUrl() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    private void turn(HttpExchange exchange) throws IOException {
        Map<String, String> query = query(exchange.getRequestURI().getRawQuery());
        String session = query.getOrDefault("session", "default");
        Conversation conversation = sessions.computeIfAbsent(session,
                id -> new Conversation(id, ZoneId.of("UTC"), Locale.ENGLISH));
        TurnResult result = runtime.runTurn(conversation, query.getOrDefault("text", ""), VisibleSink.discard());
        runs.put(result.turnId(), result.audit());
        send(exchange, 200, "text/plain", result.turnId());
    }

    private void events(HttpExchange exchange) throws IOException {
        String[] parts = exchange.getRequestURI().getPath().split("/");
        List<AguiEvent> events = parts.length == 4 && parts[3].equals("events") ? runs.get(parts[2]) : null;
        if (events == null) {
            send(exchange, 404, "text/plain", "no such run");
            return;
        }
        String body;
        try {
            body = AguiSseCodec.resume(events, exchange.getRequestHeaders().getFirst("Last-Event-ID"));
        } catch (IllegalArgumentException e) {
            send(exchange, 400, "text/plain", e.getMessage());
            return;
        }
        send(exchange, 200, "text/event-stream", body);
    }

    private static void send(HttpExchange exchange, int status, String type, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", type);
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    private static Map<String, String> query(String raw) {
        Map<String, String> values = new ConcurrentHashMap<>();
        if (raw != null) {
            for (String pair : raw.split("&")) {
                int equals = pair.indexOf('=');
                if (equals > 0) {
                    values.put(pair.substring(0, equals), URLDecoder.decode(pair.substring(equals + 1),
                            StandardCharsets.UTF_8));
                }
            }
        }
        return values;
    }

    @Override
    public void close() {
        server.stop(0);
        runtime.close();
    }
}
