package io.agentlab.engine.internal.wire;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The port stand-ins' HTTP/1.1 server (docs/wire.md#ports): loopback only, one request per connection, and it tells
 * the handler when the caller has dropped the connection. That is what the JDK's {@code HttpServer} cannot: a runtime
 * that gives up on a hung port call (its event timeout) closes the call's connection, and that moment bounds when its
 * handler returned, so a batch order judged on the stand-ins' counter stays sound for a call that is never answered
 * (docs/wire.md#batch-orders).
 */
final class StandInServer implements AutoCloseable {

    /** The largest request head and body the stand-ins read (a port call is a small JSON object). */
    static final int MAX_HEAD = 64 * 1024;
    static final int MAX_BODY = 1024 * 1024;

    /** What a call is answered with. */
    record Reply(int status, byte[] body) {
    }

    /** Answers one call. */
    @FunctionalInterface
    interface Handler {
        /**
         * The reply to a {@code POST path} with {@code body}.
         *
         * @param gone completes when the caller drops the connection before the reply
         */
        Reply handle(String path, byte[] body, CompletableFuture<Void> gone) throws Exception;
    }

    private final ServerSocket socket;
    private final Handler handler;
    private final ExecutorService threads = Executors.newCachedThreadPool(runnable -> {
        Thread thread = new Thread(runnable, "agentlab-port-stand-in");
        thread.setDaemon(true);
        return thread;
    });

    private StandInServer(ServerSocket socket, Handler handler) {
        this.socket = socket;
        this.handler = handler;
        threads.execute(this::accept);
    }

    /** Listens on loopback {@code port} ({@code 0}: a free one). */
    static StandInServer start(int port, Handler handler) throws IOException {
        return new StandInServer(new ServerSocket(port, 50, InetAddress.getLoopbackAddress()), handler);
    }

    int port() {
        return socket.getLocalPort();
    }

    private void accept() {
        while (!socket.isClosed()) {
            try {
                Socket connection = socket.accept();
                threads.execute(() -> serve(connection));
            } catch (IOException e) {
                return; // closed
            }
        }
    }

    private void serve(Socket connection) {
        try (connection) {
            InputStream in = new BufferedInputStream(connection.getInputStream());
            Reply reply;
            String path = "";
            byte[] body = null;
            try {
                String[] request = line(in).split(" ");
                int length = -1;
                boolean chunked = false;
                for (String header = line(in); !header.isEmpty(); header = line(in)) {
                    int colon = header.indexOf(':');
                    String name = colon < 0 ? header : header.substring(0, colon).strip().toLowerCase(Locale.ROOT);
                    String value = colon < 0 ? "" : header.substring(colon + 1).strip();
                    if (name.equals("content-length")) {
                        length = Integer.parseInt(value);
                    } else if (name.equals("transfer-encoding") && value.toLowerCase(Locale.ROOT).contains("chunked")) {
                        chunked = true;
                    }
                }
                if (request.length < 2 || !request[0].equals("POST")) {
                    reply = error(405, "a port call is a POST with a JSON body");
                } else {
                    path = request[1];
                    body = chunked ? chunked(in) : exactly(in, Math.max(length, 0));
                    reply = null;
                }
            } catch (IOException | RuntimeException e) {
                reply = error(400, "unreadable request: " + e.getMessage());
            }
            if (reply == null) {
                CompletableFuture<Void> gone = new CompletableFuture<>();
                // the caller sends nothing more: a read that ends means it dropped the call
                threads.execute(() -> watch(in, gone));
                try {
                    reply = handler.handle(path, body, gone);
                } catch (Exception e) {
                    reply = error(500, path + ": " + e);
                }
            }
            OutputStream out = connection.getOutputStream();
            out.write(("HTTP/1.1 " + reply.status() + " " + (reply.status() == 200 ? "OK" : "Error")
                    + "\r\nContent-Type: application/json\r\nContent-Length: " + reply.body().length
                    + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
            out.write(reply.body());
            out.flush();
        } catch (IOException e) {
            // the caller went away before its reply: nothing to answer
        }
    }

    private static void watch(InputStream in, CompletableFuture<Void> gone) {
        try {
            while (in.read() >= 0) {
                // a pipelined byte is not a goodbye; keep reading until the connection ends
            }
        } catch (IOException e) {
            // reset, or closed by the reply: either way the call is over
        }
        gone.complete(null);
    }

    private static Reply error(int status, String message) {
        return new Reply(status, ("{\"error\":{\"code\":\"bad_request\",\"message\":\"" + message.replace("\\", "\\\\")
                .replace("\"", "\\\"") + "\",\"transient\":false}}").getBytes(StandardCharsets.UTF_8));
    }

    /** One CRLF-ended line of the head, bounded. */
    private static String line(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        for (int c = in.read(); c != '\n'; c = in.read()) {
            if (c < 0) {
                throw new SocketException("the connection ended inside the request head");
            }
            if (c != '\r') {
                line.write(c);
            }
            if (line.size() > MAX_HEAD) {
                throw new IOException("request head over " + MAX_HEAD + " bytes");
            }
        }
        return line.toString(StandardCharsets.ISO_8859_1);
    }

    private static byte[] exactly(InputStream in, int length) throws IOException {
        if (length > MAX_BODY) {
            throw new IOException("request body over " + MAX_BODY + " bytes");
        }
        byte[] body = in.readNBytes(length);
        if (body.length < length) {
            throw new SocketException("the connection ended inside the request body");
        }
        return body;
    }

    private static byte[] chunked(InputStream in) throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        for (int size = Integer.parseInt(line(in).split(";")[0].strip(), 16); size > 0;
             size = Integer.parseInt(line(in).split(";")[0].strip(), 16)) {
            if (body.size() + size > MAX_BODY) {
                throw new IOException("request body over " + MAX_BODY + " bytes");
            }
            body.write(exactly(in, size));
            line(in);
        }
        for (String trailer = line(in); !trailer.isEmpty(); trailer = line(in)) {
            // trailers carry nothing a port call needs
        }
        return body.toByteArray();
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException e) {
            // closing anyway
        }
        threads.shutdownNow();
    }
}
