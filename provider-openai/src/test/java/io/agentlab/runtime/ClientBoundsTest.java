package io.agentlab.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.agentlab.runtime.llm.CallRole;
import io.agentlab.runtime.llm.ChatCompletion;
import io.agentlab.runtime.llm.ChatMessage;
import io.agentlab.runtime.llm.ChatRequest;
import io.agentlab.runtime.llm.Chunks;
import io.agentlab.provider.openai.OpenAiCompatibleClient;
import io.agentlab.runtime.llm.ProviderException;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The streaming client against providers that misbehave the way real ones do (docs/limits-and-safety.md#provider):
 * a dribbling stream, a finish without {@code [DONE]}, a connection closed after the answer or before the response,
 * and a run of many calls. Each would hang, fail or leak without the bound it tests.
 */
@Timeout(60)
class ClientBoundsTest {

    private static final String ANSWER = Chunks.stream("m").content("Hel", "lo").finish("stop").sseBody();
    private final ScheduledExecutorService dribbler = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "dribbler");
        thread.setDaemon(true);
        return thread;
    });
    private final CountDownLatch never = new CountDownLatch(1);
    private RawHttpServer server;

    @AfterEach
    void stop() throws IOException {
        never.countDown();
        dribbler.shutdownNow();
        if (server != null) {
            server.close();
        }
    }

    private static ChatRequest request() {
        return new ChatRequest("m", List.of(ChatMessage.user("hello")), List.of(), null, null, true, CallRole.CHAT);
    }

    private OpenAiCompatibleClient client(Duration callTimeout, Duration finishGrace) {
        return new OpenAiCompatibleClient(new OpenAiCompatibleClient.Config(server.baseUrl(), null,
                Duration.ofSeconds(5), Duration.ofSeconds(30), callTimeout, finishGrace));
    }

    @Test
    @DisplayName("a provider dribbling bytes forever is stopped by the call deadline, not kept open by them")
    void deadlineBoundsADribblingProvider() throws Exception {
        server = new RawHttpServer((connection, index, socket) -> {
            RawHttpServer.sseStart(socket, ": working\n");
            dribbler.scheduleAtFixedRate(() -> {
                try {
                    RawHttpServer.chunk(socket, ": still working\n"); // never silent, never an answer
                } catch (IOException closed) {
                    throw new IllegalStateException(closed); // ends this schedule
                }
            }, 20, 20, TimeUnit.MILLISECONDS);
            never.await();
            return false;
        });
        assertThatThrownBy(() -> client(Duration.ofMillis(500), Duration.ofSeconds(2)).stream(request(), d -> { }))
                .isInstanceOfSatisfying(ProviderException.class, e -> {
                    assertThat(e.kind()).isEqualTo(ProviderException.Kind.DEADLINE);
                    assertThat(e.code()).isEqualTo("provider_deadline");
                    assertThat(e.getMessage()).contains("deadline of 500 ms");
                });
    }

    @Test
    @DisplayName("a stream that delivered its finish reason completes after the grace, without [DONE] or an end")
    void finishWithoutDoneCompletesAfterGrace() throws Exception {
        server = new RawHttpServer((connection, index, socket) -> {
            RawHttpServer.sseStart(socket, ANSWER); // then neither [DONE] nor the end of the body
            never.await();
            return false;
        });
        ChatCompletion completion = client(Duration.ofSeconds(30), Duration.ofMillis(200)).stream(request(), d -> { });

        assertThat(completion.content()).isEqualTo("Hello");
        assertThat(completion.finishReason()).isEqualTo("stop");
    }

    @Test
    @DisplayName("a JSON answer to a streaming request is provider_not_streaming, saying so and quoting its start")
    void jsonInsteadOfAStream() throws Exception {
        String json = "{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion\",\"choices\":[{\"index\":0,"
                + "\"message\":{\"role\":\"assistant\",\"content\":\"Hello\"},\"finish_reason\":\"stop\"}]}";
        server = new RawHttpServer((connection, index, socket) -> {
            byte[] bytes = json.getBytes(java.nio.charset.StandardCharsets.UTF_8);
            socket.getOutputStream().write(("HTTP/1.1 200 OK\r\nContent-Type: application/json; charset=utf-8\r\n"
                    + "Content-Length: " + bytes.length + "\r\n\r\n").getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
            socket.getOutputStream().write(bytes);
            socket.getOutputStream().flush();
            return true;
        });

        assertThatThrownBy(() -> client(Duration.ofSeconds(30), Duration.ofSeconds(2)).stream(request(), d -> { }))
                .isInstanceOfSatisfying(ProviderException.class, e -> assertThat(e.code())
                        .isEqualTo("provider_not_streaming"))
                .hasMessageStartingWith("NOT_STREAMING: HTTP 200 with application/json, not an SSE stream (text/event-stream): the "
                        + "server ignored \"stream\": true; it began: {\"id\":\"chatcmpl-1\"");
    }

    @Test
    @DisplayName("a connection closed right after the finish reason keeps the answer")
    void finishThenCloseKeepsTheAnswer() throws Exception {
        server = new RawHttpServer((connection, index, socket) -> {
            RawHttpServer.sseStart(socket, ANSWER);
            socket.close(); // no terminating chunk: the client sees an unexpected end of stream
            return false;
        });
        ChatCompletion completion = client(Duration.ofSeconds(30), Duration.ofSeconds(2)).stream(request(), d -> { });

        assertThat(completion.content()).isEqualTo("Hello");
    }

    @Test
    @DisplayName("a pooled connection the server closed before answering is retried once on a fresh connection")
    void deadPooledConnectionRetriedOnce() throws Exception {
        server = new RawHttpServer((connection, index, socket) -> {
            if (index == 1) {
                RawHttpServer.sse(socket, ANSWER + "data: [DONE]\n\n"); // kept alive, as the server advertises
                return true;
            }
            socket.close(); // like llama.cpp's server: the kept-alive connection is closed as the next call arrives
            return false;
        });
        OpenAiCompatibleClient client = client(Duration.ofSeconds(30), Duration.ofSeconds(2));
        ChatCompletion first = client.stream(request(), d -> { });
        ChatCompletion second = client.stream(request(), d -> { });

        assertThat(first.content()).isEqualTo("Hello");
        assertThat(second.content()).isEqualTo("Hello");
        assertThat(server.connections()).as("the retry used a new connection").isEqualTo(2);
        assertThat(server.requests).hasSize(3);
    }

    @Test
    @DisplayName("a call that received part of its response is never retried")
    void noRetryAfterBytes() throws Exception {
        server = new RawHttpServer((connection, index, socket) -> {
            RawHttpServer.sseStart(socket, Chunks.stream("m").content("Hel").sseBody());
            socket.close(); // mid-answer
            return false;
        });
        assertThatThrownBy(() -> client(Duration.ofSeconds(30), Duration.ofSeconds(2)).stream(request(), d -> { }))
                .isInstanceOfSatisfying(ProviderException.class,
                        e -> assertThat(e.kind()).isEqualTo(ProviderException.Kind.CONNECTION));
        assertThat(server.requests).as("sent once, never again").hasSize(1);
    }

    @Test
    @DisplayName("a fresh connection closed before any answer is not retried: only a dead pooled one is")
    void freshConnectionFailureNotRetried() throws Exception {
        server = new RawHttpServer((connection, index, socket) -> {
            socket.close();
            return false;
        });
        assertThatThrownBy(() -> client(Duration.ofSeconds(30), Duration.ofSeconds(2)).stream(request(), d -> { }))
                .isInstanceOf(ProviderException.class);
        assertThat(server.requests).hasSize(1);
    }

    @Test
    @DisplayName("many clients share one pool and one dispatcher of daemon threads")
    void clientsShareDaemonThreads() throws Exception {
        server = new RawHttpServer((connection, index, socket) -> {
            RawHttpServer.sse(socket, ANSWER + "data: [DONE]\n\n");
            return true;
        });
        long okHttpDispatchersBefore = threads("OkHttp Dispatcher");
        long oursBefore = threads("agentlab-http-");
        for (int i = 0; i < 50; i++) {
            assertThat(client(Duration.ofSeconds(30), Duration.ofSeconds(2)).stream(request(), d -> { }).content())
                    .isEqualTo("Hello"); // a new client per call, as the engine makes one per turn
        }
        assertThat(threads("OkHttp Dispatcher") - okHttpDispatchersBefore).as("dispatchers of their own").isZero();
        assertThat(server.connections()).as("the pooled connection was reused").isEqualTo(1);
        assertThat(threads("agentlab-http-") - oursBefore).as("threads added by 50 sequential calls")
                .isLessThanOrEqualTo(4);
        assertThat(Thread.getAllStackTraces().keySet()).filteredOn(t -> t.getName().startsWith("agentlab-http-"))
                .isNotEmpty().allSatisfy(thread -> assertThat(thread.isDaemon()).isTrue());
    }

    private static long threads(String prefix) {
        return Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().startsWith(prefix)).count();
    }
}
