package io.agentlab.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.agentlab.provider.openai.BoundedSseReader;
import io.agentlab.runtime.llm.CallRole;
import io.agentlab.runtime.llm.ChatCompletion;
import io.agentlab.runtime.llm.ChatMessage;
import io.agentlab.runtime.llm.ChatRequest;
import io.agentlab.runtime.llm.Chunks;
import io.agentlab.provider.openai.OpenAiCompatibleClient;
import io.agentlab.runtime.llm.ProviderException;
import io.agentlab.runtime.llm.ResponseLimits;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import okio.Buffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The response-size bounds (docs/limits-and-safety.md#response-size): a stream of a gigabyte, one endless line and too
 * many events each end the call with {@code provider_response_too_large} after reading about the bound, not the body;
 * and the SSE framing the reader accepts. Without the bound the gigabyte is read in full (the old client held it all)
 * and the endless line grows one string until the heap ends.
 */
@Timeout(60)
class ResponseLimitsTest {

    private static final long GIGABYTE = 1L << 30;
    private RawHttpServer server;

    @AfterEach
    void stop() throws IOException {
        if (server != null) {
            server.close();
        }
    }

    private static ChatRequest request() {
        return new ChatRequest("m", List.of(ChatMessage.user("hello")), List.of(), null, null, true, CallRole.CHAT);
    }

    private OpenAiCompatibleClient client(ResponseLimits limits) {
        return new OpenAiCompatibleClient(OpenAiCompatibleClient.Config.of(server.baseUrl()).withLimits(limits));
    }

    /** Serves {@code total} bytes of {@code pattern} repeated, chunked, counting what the socket accepted. */
    private RawHttpServer serving(byte[] head, byte[] pattern, long total, AtomicLong written) throws IOException {
        return new RawHttpServer((connection, index, socket) -> {
            RawHttpServer.sseStart(socket, new String(head, StandardCharsets.UTF_8));
            OutputStream out = socket.getOutputStream();
            byte[] block = repeat(pattern, 64 * 1024);
            for (long sent = 0; sent < total; sent += block.length) {
                out.write((Integer.toHexString(block.length) + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
                out.write(block);
                out.write("\r\n".getBytes(StandardCharsets.ISO_8859_1));
                written.addAndGet(block.length);
            }
            return false;
        });
    }

    private static byte[] repeat(byte[] pattern, int size) {
        byte[] block = new byte[size - size % pattern.length];
        for (int i = 0; i < block.length; i++) {
            block[i] = pattern[i % pattern.length];
        }
        return block;
    }

    @Test
    @DisplayName("a gigabyte of content chunks ends at the byte bound with provider_response_too_large")
    void gigabyteStream() throws Exception {
        AtomicLong written = new AtomicLong();
        byte[] chunk = ("data: " + Chunks.stream("m").content("xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx").payloads()
                .get(0) + "\n\n").getBytes(StandardCharsets.UTF_8);
        server = serving(new byte[0], chunk, GIGABYTE, written);
        ResponseLimits limits = new ResponseLimits(4L << 20, 1 << 20, 1_000_000);
        assertThatThrownBy(() -> client(limits).stream(request(), delta -> { }))
                .isInstanceOfSatisfying(ProviderException.class, e -> {
                    assertThat(e.kind()).isEqualTo(ProviderException.Kind.RESPONSE_TOO_LARGE);
                    assertThat(e.code()).isEqualTo("provider_response_too_large");
                    assertThat(e.getMessage()).contains("the response passed 4194304 bytes");
                });
        // the provider wrote what the socket buffers took before the cancel, nowhere near the gigabyte
        assertThat(written.get()).isLessThan(GIGABYTE / 8);
    }

    @Test
    @DisplayName("one endless SSE line ends at the line bound, not at the heap's end or the call deadline")
    void endlessLine() throws Exception {
        AtomicLong written = new AtomicLong();
        server = serving("data: {\"id\":\"".getBytes(StandardCharsets.UTF_8), "a".getBytes(StandardCharsets.UTF_8),
                GIGABYTE, written);
        long start = System.nanoTime();
        assertThatThrownBy(() -> client(ResponseLimits.DEFAULT).stream(request(), delta -> { }))
                .isInstanceOfSatisfying(ProviderException.class, e -> {
                    assertThat(e.kind()).isEqualTo(ProviderException.Kind.RESPONSE_TOO_LARGE);
                    assertThat(e.getMessage()).contains("line 1 passed 1048576 bytes without ending");
                });
        assertThat(Duration.ofNanos(System.nanoTime() - start))
                .as("a verdict of its own, long before the 120 s deadline it used to be misreported as")
                .isLessThan(OpenAiCompatibleClient.DEFAULT_CALL_TIMEOUT);
    }

    @Test
    @DisplayName("more events than the bound end the call; a stream inside every bound completes")
    void eventBound() throws Exception {
        String body = Chunks.stream("m").content("a", "b", "c", "d", "e").finish("stop").sseBody();
        server = new RawHttpServer((connection, index, socket) -> {
            RawHttpServer.sse(socket, body);
            return true;
        });
        assertThatThrownBy(() -> client(new ResponseLimits(1 << 20, 1 << 16, 3)).stream(request(), d -> { }))
                .isInstanceOfSatisfying(ProviderException.class, e -> assertThat(e.getMessage())
                        .contains("the response passed 3 events at line 8"));
        ChatCompletion completion = client(ResponseLimits.DEFAULT).stream(request(), d -> { });
        assertThat(completion.content()).isEqualTo("abcde");
    }

    @Test
    @DisplayName("SSE framing: CRLF, bare CR, multi-line data, comments, event and id lines, no blank line before the end")
    void framing() throws IOException {
        Buffer body = new Buffer().writeUtf8(": comment\r\nevent: message\r\nid: 7\r\ndata: {\"a\":\r\ndata:1}\r\n\r\n"
                + "data:[DONE]\r\r" + "retry: 10\n" + "data: last");
        BoundedSseReader reader = new BoundedSseReader(body, ResponseLimits.DEFAULT);
        List<String> events = new ArrayList<>();
        String data;
        while ((data = reader.next()) != null) {
            events.add(data);
        }
        assertThat(events).containsExactly("{\"a\":\n1}", "[DONE]", "last");
        assertThat(reader.events()).isEqualTo(3);
        assertThat(reader.lines()).isEqualTo(10);
    }

    @Test
    @DisplayName("a line of exactly the bound is read; one byte more is refused")
    void lineBoundIsExact() throws IOException {
        char[] line = new char[100];
        Arrays.fill(line, 'x');
        ResponseLimits limits = new ResponseLimits(10_000, 100, 10);
        assertThat(new BoundedSseReader(new Buffer().writeUtf8(new String(line) + "\n"), limits).nextLine())
                .hasSize(100);
        assertThatThrownBy(() -> new BoundedSseReader(new Buffer().writeUtf8(new String(line) + "x\n"), limits)
                .nextLine()).hasMessageContaining("line 1 passed 100 bytes");
    }

    @Test
    @DisplayName("limits must be positive, and a line no longer than the response")
    void validation() {
        assertThatThrownBy(() -> new ResponseLimits(0, 1, 1)).hasMessageContaining("must be positive");
        assertThatThrownBy(() -> new ResponseLimits(10, 11, 1)).hasMessageContaining("cannot be longer");
    }

}
