package io.agentlab.engine.internal.wire;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The stand-ins' server (docs/wire.md#batch-orders): it answers a port call as JSON, reads a chunked body, and tells the
 * handler when the caller dropped the call before its answer — what lets a hung call's return be recorded when the
 * runtime gave up on it.
 */
class StandInServerTest {

    @Test
    @DisplayName("a POST is answered with the handler's status and JSON body, from the JDK client as a runtime sends it")
    void answers() throws Exception {
        try (StandInServer server = StandInServer.start(0, (path, body, gone) -> new StandInServer.Reply(201,
                ("{\"path\":\"" + path + "\",\"got\":" + new String(body, StandardCharsets.UTF_8) + "}")
                        .getBytes(StandardCharsets.UTF_8)))) {
            HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + server.port() + "/ports/device/volume"))
                    .POST(HttpRequest.BodyPublishers.ofString("{\"level\":3}")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(response.statusCode()).isEqualTo(201);
            assertThat(response.body()).isEqualTo("{\"path\":\"/ports/device/volume\",\"got\":{\"level\":3}}");
        }
    }

    @Test
    @DisplayName("a chunked body is read whole")
    void chunked() throws Exception {
        CompletableFuture<String> seen = new CompletableFuture<>();
        try (StandInServer server = StandInServer.start(0, (path, body, gone) -> {
            seen.complete(new String(body, StandardCharsets.UTF_8));
            return new StandInServer.Reply(200, "{}".getBytes(StandardCharsets.UTF_8));
        }); Socket socket = new Socket(InetAddress.getLoopbackAddress(), server.port())) {
            OutputStream out = socket.getOutputStream();
            out.write(("POST /ports/search HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
                    + "5\r\n{\"q\":\r\n4\r\n\"a\"}\r\n0\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            assertThat(seen.get(10, TimeUnit.SECONDS)).isEqualTo("{\"q\":\"a\"}");
            assertThat(new String(socket.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1))
                    .startsWith("HTTP/1.1 200 OK\r\n").endsWith("\r\n\r\n{}");
        }
    }

    @Test
    @DisplayName("a call the caller drops before its answer completes the handler's 'gone' (red: the watch never ends)")
    void droppedCallIsNoticed() throws Exception {
        CompletableFuture<Void> held = new CompletableFuture<>();
        CompletableFuture<Void> noticed = new CompletableFuture<>();
        try (StandInServer server = StandInServer.start(0, (path, body, gone) -> {
            held.complete(null);
            gone.get(); // a hung port: only the caller's going ends it
            noticed.complete(null);
            return new StandInServer.Reply(503, "{}".getBytes(StandardCharsets.UTF_8));
        })) {
            try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), server.port())) {
                socket.getOutputStream().write(("POST /ports/probe/stuck HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n"
                        + "\r\n{}").getBytes(StandardCharsets.ISO_8859_1));
                socket.getOutputStream().flush();
                held.get(10, TimeUnit.SECONDS);
            } // the runtime's event timeout: it closes the call
            noticed.get(10, TimeUnit.SECONDS);
            assertThat(noticed).isDone();
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    @DisplayName("a call that arrives after the caller dropped another starts only once the dropped call returned, "
            + "even when the watcher has not seen the drop (red: the arrival does not settle dropped calls)")
    void dropIsSettledBeforeTheNextCallStarts() throws Exception {
        List<String> order = new CopyOnWriteArrayList<>();
        CompletableFuture<Void> held = new CompletableFuture<>();
        // without the watcher only the arrival path can notice the drop: the race it closes is made certain
        try (StandInServer server = StandInServer.start(0, (path, body, gone) -> {
            if (path.endsWith("/stuck")) {
                held.complete(null);
                try {
                    gone.get(10, TimeUnit.SECONDS); // a hung port: only the caller's going ends it
                    order.add("stuck returned");
                } catch (TimeoutException e) {
                    order.add("stuck never noticed its drop");
                }
            } else {
                order.add("next started");
            }
            return new StandInServer.Reply(200, "{}".getBytes(StandardCharsets.UTF_8));
        }, false)) {
            try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), server.port())) {
                post(socket, "/ports/probe/stuck");
                held.get(10, TimeUnit.SECONDS);
            } // the runtime's event timeout closes the call, then it sends the next one
            try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), server.port())) {
                post(socket, "/ports/probe/finish");
                assertThat(new String(socket.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1))
                        .startsWith("HTTP/1.1 200 OK\r\n");
            }
            assertThat(order).containsExactly("stuck returned", "next started");
        }
    }

    @Test
    @DisplayName("an empty answer is written whole and the connection ends after it")
    void emptyAnswer() throws Exception {
        try (StandInServer server = StandInServer.start(0, (path, body, gone) -> new StandInServer.Reply(204,
                new byte[0])); Socket socket = new Socket(InetAddress.getLoopbackAddress(), server.port())) {
            post(socket, "/ports/search");
            assertThat(new String(socket.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1))
                    .isEqualTo("HTTP/1.1 204 Error\r\nContent-Type: application/json\r\nContent-Length: 0\r\n"
                            + "Connection: close\r\n\r\n");
        }
    }

    private static void post(Socket socket, String path) throws IOException {
        socket.getOutputStream().write(("POST " + path + " HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}")
                .getBytes(StandardCharsets.ISO_8859_1));
        socket.getOutputStream().flush();
    }
}
