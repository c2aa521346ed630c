package io.agentlab.engine.wire;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A runtime over the wire that misbehaves one way (docs/wire.md#bounds), on a JDK {@link HttpServer} bound to
 * 127.0.0.1: it answers the ready probe, and each {@code POST /agui} with
 * <ul>
 *   <li>{@code malformed}: a 200 SSE stream whose first frame is not JSON;</li>
 *   <li>{@code hang}: {@code RUN_STARTED}, then nothing until {@link #close()};</li>
 *   <li>{@code crash}: {@code RUN_STARTED}, then the process halts (exit code 7) mid-turn.</li>
 * </ul>
 * {@code exit} exits at once with code 3 (a command that crashes before it is ready). Run as a process by
 * {@link #main(String[])} (listening on {@code AGENTLAB_RUNTIME_PORT}, as the kit starts a runtime), or in the test's
 * JVM by {@link #start(String)}.
 */
final class StubRuntime implements AutoCloseable {

    /** The exit code of {@code exit}. */
    static final int EXIT_AT_ONCE = 3;
    /** The exit code of {@code crash}, mid-turn. */
    static final int CRASH = 7;
    private static final Pattern FIELD = Pattern.compile("\"(threadId|runId)\"\\s*:\\s*\"([^\"]*)\"");

    private final HttpServer server;
    private final ExecutorService executor = Executors.newCachedThreadPool();
    /** Released on close: what a hanging turn waits for. */
    private final CountDownLatch closed = new CountDownLatch(1);

    private StubRuntime(String behaviour, int port) throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 0);
        server.setExecutor(executor);
        server.createContext("/agentlab/capabilities", exchange -> answer(exchange, 200, "application/json",
                "{\"contract\": \"agentlab-wire/1\", \"events\": [], \"probes\": true}"));
        server.createContext("/agui", exchange -> turn(behaviour, exchange));
        server.start();
    }

    /** A stub in this JVM on a free loopback port. */
    static StubRuntime start(String behaviour) throws IOException {
        return new StubRuntime(behaviour, 0);
    }

    /** Its base URL. */
    String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    private void turn(String behaviour, HttpExchange exchange) throws IOException {
        String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "text/event-stream");
        exchange.sendResponseHeaders(200, 0);
        OutputStream out = exchange.getResponseBody();
        if (behaviour.equals("malformed")) {
            out.write("data: {this is not json\n\n".getBytes(StandardCharsets.UTF_8));
            out.close();
            return;
        }
        String threadId = "";
        String runId = "";
        Matcher fields = FIELD.matcher(body);
        while (fields.find()) {
            if (fields.group(1).equals("threadId") && threadId.isEmpty()) {
                threadId = fields.group(2);
            } else if (fields.group(1).equals("runId") && runId.isEmpty()) {
                runId = fields.group(2);
            }
        }
        out.write(("data: {\"type\": \"RUN_STARTED\", \"threadId\": \"" + threadId + "\", \"runId\": \"" + runId
                + "\"}\n\n").getBytes(StandardCharsets.UTF_8));
        out.flush();
        if (behaviour.equals("crash")) {
            Runtime.getRuntime().halt(CRASH);
        }
        if (behaviour.equals("no-provider") || behaviour.equals("own-error")) {
            // no model call: a runtime whose calls go elsewhere ends each turn with the connection error; one failing
            // before any call, with an error of its own
            String code = behaviour.equals("no-provider") ? "provider_connection" : "runtime_error";
            out.write(("data: {\"type\": \"RUN_ERROR\", \"message\": \"no answer\", \"code\": \"" + code
                    + "\"}\n\n").getBytes(StandardCharsets.UTF_8));
            out.close();
            return;
        }
        try {
            closed.await(); // hang: nothing more until the test ends
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        exchange.close();
    }

    private static void answer(HttpExchange exchange, int status, String type, String text) throws IOException {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", type);
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    @Override
    public void close() {
        closed.countDown();
        server.stop(0);
        executor.shutdownNow();
    }

    /** {@code StubRuntime <behaviour>}: as the kit starts a runtime, on {@code AGENTLAB_RUNTIME_PORT}. */
    public static void main(String[] args) throws IOException {
        if (args[0].equals("exit")) {
            System.out.println("stub runtime: exiting at once");
            System.exit(EXIT_AT_ONCE);
        }
        new StubRuntime(args[0], Integer.parseInt(System.getenv("AGENTLAB_RUNTIME_PORT")));
        System.out.println("stub runtime (" + args[0] + ") listening");
    }
}
