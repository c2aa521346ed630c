package io.agentlab.providers.recorded;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.apiguardian.api.API;

/**
 * A loopback OpenAI-compatible provider at the socket level, answering {@code POST .../chat/completions} from a
 * {@link Responder}: a stand-in with a known policy, over the real wire, for tests of what a live run does with a
 * model (no weights needed). It can keep connections alive, or behave as llama.cpp's server does: advertise a
 * kept-alive connection, and close it without answering when a further request arrives on it (the window in which a
 * client's pooled connection is dead but not yet known to be). It binds to loopback only.
 *
 * <pre>{@code
 * try (StandInProvider provider = StandInProvider.start(StandInProvider.Connections.CLOSE_AFTER_EACH_STREAM,
 *         (body, role, call) -> ProviderFamily.LLAMACPP.stream("local-model", "c" + call, day)
 *                 .content("Hi!").finish("stop", ProviderStream.Usage.of(40, 2)).done().payloads())) {
 *     new OpenAiCompatibleClient(OpenAiCompatibleClient.Config.of(provider.baseUrl()));
 * }
 * }</pre>
 */
@API(status = INTERNAL, since = "0.1")
public final class StandInProvider implements AutoCloseable {

    /** How the stand-in treats a connection after a stream. */
    public enum Connections {
        /** Serve every request on a kept-alive connection. */
        KEEP_ALIVE,
        /**
         * As llama.cpp's server: the response says nothing about closing, but a further request on the connection is
         * never answered; the connection is closed instead.
         */
        CLOSE_AFTER_EACH_STREAM
    }

    /** What the stand-in answers one chat completion with. */
    @FunctionalInterface
    public interface Responder {
        /**
         * The SSE {@code data:} payloads of the answer, in order ({@code [DONE]} included if wanted).
         *
         * @param body the request body as received
         * @param role the call role header's value, or null
         * @param call the call's number on this stand-in, from 1 (answered calls only)
         */
        List<String> answer(String body, String role, int call);
    }

    private static final int MAX_HEAD = 64 * 1024;
    private static final int MAX_BODY = 8 * 1024 * 1024;

    private final ServerSocket server;
    private final Responder responder;
    private final Connections connections;
    private final ExecutorService threads;
    private final AtomicInteger opened = new AtomicInteger();
    private final AtomicInteger received = new AtomicInteger();
    private final AtomicInteger answered = new AtomicInteger();
    private final AtomicInteger dropped = new AtomicInteger();

    private StandInProvider(Connections connections, Responder responder) throws IOException {
        this.connections = Objects.requireNonNull(connections, "connections");
        this.responder = Objects.requireNonNull(responder, "responder");
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        AtomicInteger names = new AtomicInteger();
        this.threads = Executors.newCachedThreadPool(runnable -> {
            Thread thread = new Thread(runnable, "agentlab-stand-in-" + names.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
        threads.execute(this::accept);
    }

    /** Starts a stand-in on a free loopback port. */
    public static StandInProvider start(Connections connections, Responder responder) throws IOException {
        return new StandInProvider(connections, responder);
    }

    /** The {@code /v1} base URL to give a client. */
    public String baseUrl() {
        return "http://127.0.0.1:" + server.getLocalPort() + "/v1";
    }

    /** Connections accepted so far. */
    public int connections() {
        return opened.get();
    }

    /** Requests received so far, answered or not. */
    public int requests() {
        return received.get();
    }

    /** Requests answered so far. */
    public int answered() {
        return answered.get();
    }

    /** Requests that arrived on a connection the stand-in had finished with, and were closed without an answer. */
    public int dropped() {
        return dropped.get();
    }

    @Override
    public void close() throws IOException {
        server.close();
        threads.shutdownNow();
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket socket = server.accept();
                socket.setTcpNoDelay(true);
                opened.incrementAndGet();
                threads.execute(() -> serve(socket));
            } catch (IOException closed) {
                return;
            }
        }
    }

    private void serve(Socket socket) {
        try (socket) {
            InputStream in = socket.getInputStream();
            for (int index = 1; ; index++) {
                String head = readHead(in);
                if (head == null) {
                    return;
                }
                received.incrementAndGet();
                if (index > 1 && connections == Connections.CLOSE_AFTER_EACH_STREAM) {
                    dropped.incrementAndGet();
                    return; // closed without a word, as llama.cpp's server does after a stream
                }
                int length = (int) Math.min(MAX_BODY, header(head, "content-length").map(Long::parseLong).orElse(0L));
                String body = new String(in.readNBytes(length), StandardCharsets.UTF_8);
                String role = header(head, "x-agentlab-call-role").orElse(null);
                List<String> payloads = responder.answer(body, role, answered.incrementAndGet());
                StringBuilder sse = new StringBuilder();
                payloads.forEach(payload -> sse.append("data: ").append(payload).append("\n\n"));
                byte[] bytes = sse.toString().getBytes(StandardCharsets.UTF_8);
                OutputStream out = socket.getOutputStream();
                out.write(("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nContent-Length: " + bytes.length
                        + "\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
                out.write(bytes);
                out.flush();
            }
        } catch (IOException | RuntimeException e) {
            // the client went away; a responder's failure leaves the client an unanswered request, as a crash would
        }
    }

    private static java.util.Optional<String> header(String head, String name) {
        return head.lines().filter(line -> line.toLowerCase(Locale.ROOT).startsWith(name + ":"))
                .map(line -> line.substring(name.length() + 1).strip()).findFirst();
    }

    private static String readHead(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int last = 0; // the last four bytes read
        int b;
        while ((b = in.read()) >= 0) {
            head.write(b);
            if (head.size() > MAX_HEAD) {
                throw new IOException("request head longer than " + MAX_HEAD + " bytes");
            }
            last = (last << 8) | b;
            if (last == 0x0d0a0d0a) {
                return head.toString(StandardCharsets.ISO_8859_1);
            }
        }
        return null;
    }
}
