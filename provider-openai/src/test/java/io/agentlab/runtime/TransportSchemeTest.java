package io.agentlab.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.agentlab.provider.openai.OpenAiCompatibleClient;
import io.agentlab.runtime.llm.CallRole;
import io.agentlab.runtime.llm.ChatMessage;
import io.agentlab.runtime.llm.ChatRequest;
import io.agentlab.runtime.llm.ProviderException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The client speaks what its base URL names: TLS for {@code https}, plain HTTP otherwise. The shared client is
 * plain-HTTP only, so a run on loopback never sets TLS up (docs/performance.md#start-up); a provider named with
 * {@code https} must still get a TLS handshake, never plain text or a refusal before connecting.
 */
@Timeout(30)
class TransportSchemeTest {

    private static ChatRequest request() {
        return new ChatRequest("m", List.of(ChatMessage.user("hello")), List.of(), null, null, true, CallRole.CHAT);
    }

    /** The first bytes the client sends on a loopback socket, when it calls {@code scheme://127.0.0.1:port/v1}. */
    private static byte[] firstBytes(String scheme) throws Exception {
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            CompletableFuture<byte[]> received = CompletableFuture.supplyAsync(() -> {
                try (Socket socket = server.accept(); InputStream in = socket.getInputStream()) {
                    return in.readNBytes(4); // then closed: the call fails, which is not what this test is about
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            assertThatThrownBy(() -> client(scheme, server).stream(request(), delta -> { }))
                    .isInstanceOf(ProviderException.class);
            return received.get(10, TimeUnit.SECONDS);
        }
    }

    /** A client of {@code scheme://<the server's loopback address>/v1}. */
    private static OpenAiCompatibleClient client(String scheme, ServerSocket server) {
        String host = server.getInetAddress().getHostAddress();
        return new OpenAiCompatibleClient(new OpenAiCompatibleClient.Config(scheme + "://"
                + (host.contains(":") ? "[" + host + "]" : host) + ":" + server.getLocalPort() + "/v1", null,
                Duration.ofSeconds(5), Duration.ofSeconds(5), Duration.ofSeconds(10), Duration.ofSeconds(1)));
    }

    @Test
    @DisplayName("an https provider gets a TLS handshake record (red when every client is plain-HTTP only)")
    void httpsSpeaksTls() throws Exception {
        byte[] first = firstBytes("https");
        assertThat(first).hasSizeGreaterThanOrEqualTo(3);
        assertThat(first[0]).as("TLS record type: handshake").isEqualTo((byte) 0x16);
        assertThat(first[1]).as("TLS major version").isEqualTo((byte) 0x03);
    }

    @Test
    @DisplayName("an http provider redirecting to https: its status, as the provider's answer (no TLS set up for it)")
    void redirectToHttpsIsTheProvidersAnswer() throws Exception {
        try (RawHttpServer server = new RawHttpServer((connection, request, socket) -> {
            socket.getOutputStream().write(("HTTP/1.1 307 Temporary Redirect\r\nLocation: https://127.0.0.1:1/v1"
                    + "/chat/completions\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            return false;
        })) {
            OpenAiCompatibleClient client = new OpenAiCompatibleClient(new OpenAiCompatibleClient.Config(
                    server.baseUrl(), null, Duration.ofSeconds(5), Duration.ofSeconds(5), Duration.ofSeconds(10),
                    Duration.ofSeconds(1)));
            assertThatThrownBy(() -> client.stream(request(), delta -> { }))
                    .isInstanceOfSatisfying(ProviderException.class, e -> {
                        assertThat(e.kind()).isEqualTo(ProviderException.Kind.HTTP_STATUS);
                        assertThat(e.getMessage()).contains("HTTP 307");
                    });
        }
    }

    @Test
    @DisplayName("an http provider gets a plain HTTP request line")
    void httpSpeaksPlainText() throws Exception {
        assertThat(new String(firstBytes("http"), StandardCharsets.US_ASCII)).isEqualTo("POST");
    }
}
