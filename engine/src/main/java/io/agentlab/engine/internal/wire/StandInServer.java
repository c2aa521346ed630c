package io.agentlab.engine.internal.wire;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The port stand-ins' HTTP/1.1 server (docs/wire.md#ports): loopback only, one request per connection, and it tells
 * the handler when the caller has dropped the connection. That is what the JDK's {@code HttpServer} cannot: a runtime
 * that gives up on a hung port call (its event timeout) closes the call's connection, and that moment bounds when its
 * handler returned, so a batch order judged on the stand-ins' counter stays sound for a call that is never answered
 * (docs/wire.md#batch-orders).
 *
 * <p>Two paths notice a drop. A watcher thread selects over every held call's connection, so a dropped call ends soon
 * even when nothing else arrives. And before a new call reaches its handler, the arriving thread itself reads every
 * held connection without blocking and waits until each one found dropped has returned: a runtime closes a call it
 * gave up on before it sends the next one, so the next call's start is never recorded before the dropped call's
 * return, however busy the machine (the watcher alone lost that race under load).
 */
final class StandInServer implements AutoCloseable {

    /** The largest request head and body the stand-ins read (a port call is a small JSON object). */
    static final int MAX_HEAD = 64 * 1024;
    static final int MAX_BODY = 1024 * 1024;

    /**
     * The longest a new call waits for a dropped call's handler to return after its interruption; an interrupted
     * stand-in returns at once, so this bounds only a handler that ignores interrupts.
     */
    static final Duration SETTLE_BOUND = Duration.ofSeconds(2);

    /** The longest an answer waits for the caller to take its bytes. */
    private static final Duration WRITE_BOUND = Duration.ofSeconds(10);

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

    /** A call whose handler runs: its connection, whether the caller dropped it, and whether the handler returned. */
    private static final class Held {
        final SocketChannel channel;
        final CompletableFuture<Void> gone = new CompletableFuture<>();
        final CompletableFuture<Void> returned = new CompletableFuture<>();

        Held(SocketChannel channel) {
            this.channel = channel;
        }

        /**
         * Reads the connection without blocking; its end (or a reset) completes {@link #gone}. The caller sends nothing
         * after its request, so a byte read is discarded: a pipelined byte is not a goodbye.
         */
        boolean dropped() {
            if (!gone.isDone()) {
                ByteBuffer sink = ByteBuffer.allocate(512);
                try {
                    int read;
                    do {
                        sink.clear();
                        read = channel.read(sink);
                    } while (read > 0);
                    if (read < 0) {
                        gone.complete(null);
                    }
                } catch (IOException e) {
                    gone.complete(null); // reset: the call is over
                }
            }
            return gone.isDone();
        }
    }

    private final ServerSocketChannel socket;
    private final Handler handler;
    private final Selector watcher;
    private final Set<Held> held = ConcurrentHashMap.newKeySet();
    private final Queue<Held> toWatch = new ConcurrentLinkedQueue<>();
    private final ExecutorService threads = Executors.newCachedThreadPool(runnable -> {
        Thread thread = new Thread(runnable, "agentlab-port-stand-in");
        thread.setDaemon(true);
        return thread;
    });

    private StandInServer(ServerSocketChannel socket, Handler handler, boolean watching) throws IOException {
        this.socket = socket;
        this.handler = handler;
        this.watcher = Selector.open();
        threads.execute(this::accept);
        if (watching) {
            threads.execute(this::watch);
        }
    }

    /** Listens on loopback {@code port} ({@code 0}: a free one). */
    static StandInServer start(int port, Handler handler) throws IOException {
        return start(port, handler, true);
    }

    /**
     * As {@link #start(int, Handler)}; without the watcher thread when {@code watching} is false, so a test can show
     * that the arrival path alone settles a dropped call.
     */
    static StandInServer start(int port, Handler handler, boolean watching) throws IOException {
        ServerSocketChannel socket = ServerSocketChannel.open();
        try {
            socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 50);
            return new StandInServer(socket, handler, watching);
        } catch (IOException | RuntimeException e) {
            socket.close();
            throw e;
        }
    }

    int port() {
        return socket.socket().getLocalPort();
    }

    private void accept() {
        while (socket.isOpen()) {
            try {
                SocketChannel connection = socket.accept();
                threads.execute(() -> serve(connection));
            } catch (IOException e) {
                return; // closed
            }
        }
    }

    /** Notices drops while nothing else arrives: each held connection that becomes readable is read. */
    private void watch() {
        while (watcher.isOpen()) {
            try {
                watcher.select();
                for (Held call = toWatch.poll(); call != null; call = toWatch.poll()) {
                    try {
                        call.channel.register(watcher, SelectionKey.OP_READ, call);
                    } catch (ClosedChannelException | java.nio.channels.CancelledKeyException e) {
                        // answered and closed before it was watched
                    }
                }
                for (SelectionKey key : watcher.selectedKeys()) {
                    if (key.isValid() && ((Held) key.attachment()).dropped()) {
                        key.cancel();
                    }
                }
                watcher.selectedKeys().clear();
            } catch (IOException | java.nio.channels.ClosedSelectorException e) {
                return; // closed
            }
        }
    }

    /** Before a new call starts: every held call whose connection has ended returns first (see the class comment). */
    private void settleDropped() {
        for (Held call : held) {
            if (call.dropped()) {
                try {
                    call.returned.get(SETTLE_BOUND.toMillis(), TimeUnit.MILLISECONDS);
                } catch (TimeoutException | ExecutionException e) {
                    // a handler that ignores its interruption: the new call goes on, and the order reads as it came
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    private void serve(SocketChannel connection) {
        try (connection) {
            InputStream in = new BufferedInputStream(connection.socket().getInputStream());
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
            connection.configureBlocking(false);
            if (reply == null) {
                settleDropped();
                Held call = new Held(connection);
                held.add(call);
                toWatch.add(call);
                watcher.wakeup();
                try {
                    reply = handler.handle(path, body, call.gone);
                } catch (Exception e) {
                    reply = error(500, path + ": " + e);
                } finally {
                    held.remove(call);
                    call.returned.complete(null);
                }
            }
            write(connection, reply);
        } catch (IOException e) {
            // the caller went away before its reply: nothing to answer
        } finally {
            SelectionKey key = connection.keyFor(watcher);
            if (key != null) {
                key.cancel();
                watcher.wakeup(); // the closed channel is let go of at the watcher's next select: now
            }
        }
    }

    /** Writes the answer to the (non-blocking) connection; a caller slow to take it is waited for on a selector. */
    private static void write(SocketChannel connection, Reply reply) throws IOException {
        byte[] head = ("HTTP/1.1 " + reply.status() + " " + (reply.status() == 200 ? "OK" : "Error")
                + "\r\nContent-Type: application/json\r\nContent-Length: " + reply.body().length
                + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1);
        ByteBuffer[] answer = {ByteBuffer.wrap(head), ByteBuffer.wrap(reply.body())};
        connection.write(answer);
        if (answer[0].hasRemaining() || answer[1].hasRemaining()) {
            try (Selector writable = Selector.open()) {
                connection.register(writable, SelectionKey.OP_WRITE);
                while (answer[0].hasRemaining() || answer[1].hasRemaining()) {
                    if (writable.select(WRITE_BOUND.toMillis()) == 0) {
                        throw new IOException("the caller took no bytes for " + WRITE_BOUND.toSeconds() + " s");
                    }
                    writable.selectedKeys().clear();
                    connection.write(answer);
                }
            }
        }
        connection.shutdownOutput(); // the end now, not when the watcher lets go of the channel
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
        try {
            watcher.close();
        } catch (IOException e) {
            // closing anyway
        }
        threads.shutdownNow();
    }
}
