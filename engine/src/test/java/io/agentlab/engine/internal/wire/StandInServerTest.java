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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
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
}
