package io.agentlab.runtime;

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
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A loopback HTTP/1.1 server at the socket level, for behaviour a real provider shows and a well-behaved stub cannot:
 * closing a kept-alive connection when the next request arrives (as llama.cpp's server does), dribbling bytes,
 * resetting after part of a body, never ending a body. Each request is handed to the {@link Behaviour} with its
 * connection number and its position on that connection; every request line is kept.
 */
final class RawHttpServer implements AutoCloseable {

    /** What the server does with one request; it may write a response, keep the socket open, or close it. */
    @FunctionalInterface
    interface Behaviour {
        /**
         * Handles a request.
         *
         * @return true to keep reading requests on this connection
         */
        boolean handle(int connection, int requestOnConnection, Socket socket) throws Exception;
    }

    private final ServerSocket server;
    private final ExecutorService threads = Executors.newCachedThreadPool(runnable -> {
        Thread thread = new Thread(runnable, "raw-http-server");
        thread.setDaemon(true);
        return thread;
    });
    private final AtomicInteger connections = new AtomicInteger();
    final List<String> requests = new CopyOnWriteArrayList<>();
    private final java.util.Map<String, String> bodies = new java.util.concurrent.ConcurrentHashMap<>();

    RawHttpServer(Behaviour behaviour) throws IOException {
        server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        threads.execute(() -> {
            while (!server.isClosed()) {
                try {
                    Socket socket = server.accept();
                    int connection = connections.incrementAndGet();
                    threads.execute(() -> serve(behaviour, connection, socket));
                } catch (IOException closed) {
                    return;
                }
            }
        });
    }

    String baseUrl() {
        return "http://127.0.0.1:" + server.getLocalPort() + "/v1";
    }

    /** The body of the {@code index}th request on {@code connection}. */
    String body(int connection, int index) {
        return bodies.get(connection + ":" + index);
    }

    int connections() {
        return connections.get();
    }

    private void serve(Behaviour behaviour, int connection, Socket socket) {
        try (socket) {
            InputStream in = socket.getInputStream();
            for (int index = 1; ; index++) {
                String head = readHead(in);
                if (head == null) {
                    return;
                }
                requests.add(connection + ":" + head.lines().findFirst().orElse(""));
                int length = head.lines().filter(line -> line.toLowerCase(Locale.ROOT).startsWith("content-length:"))
                        .mapToInt(line -> Integer.parseInt(line.substring(15).strip())).findFirst().orElse(0);
                bodies.put(connection + ":" + index, new String(in.readNBytes(length), StandardCharsets.UTF_8));
                if (!behaviour.handle(connection, index, socket)) {
                    return;
                }
            }
        } catch (Exception ignored) {
            // the client went away, or the behaviour closed the socket
        }
    }

    private static String readHead(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int matched = 0;
        int b;
        while ((b = in.read()) >= 0) {
            head.write(b);
            matched = (b == '\r' || b == '\n') ? matched + 1 : 0;
            String text = head.toString(StandardCharsets.ISO_8859_1);
            if (matched >= 4 && text.endsWith("\r\n\r\n")) {
                return text;
            }
        }
        return null;
    }

    /** Writes a complete SSE response with a content length, keeping the connection open. */
    static void sse(Socket socket, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        OutputStream out = socket.getOutputStream();
        out.write(("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nContent-Length: " + bytes.length
                + "\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
        out.write(bytes);
        out.flush();
    }

    /** Writes SSE headers for a body of unknown length (chunked), then the given frames as one chunk. */
    static void sseStart(Socket socket, String firstFrames) throws IOException {
        OutputStream out = socket.getOutputStream();
        out.write("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n"
                .getBytes(StandardCharsets.ISO_8859_1));
        chunk(socket, firstFrames);
    }

    /** Writes one HTTP chunk. */
    static void chunk(Socket socket, String text) throws IOException {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        if (bytes.length == 0) {
            return;
        }
        OutputStream out = socket.getOutputStream();
        out.write((Integer.toHexString(bytes.length) + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
        out.write(bytes);
        out.write("\r\n".getBytes(StandardCharsets.ISO_8859_1));
        out.flush();
    }

    @Override
    public void close() throws IOException {
        server.close();
        threads.shutdownNow();
    }
}
