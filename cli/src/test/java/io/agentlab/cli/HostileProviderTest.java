package io.agentlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code agentlab run --provider live} in a JVM of its own with {@code -Xmx256m} against a loopback provider that sends
 * a gigabyte in one response and one endless SSE line in another (docs/limits-and-safety.md#response-size). Each gets
 * one verdict, {@code provider_response_too_large}; the run is not ended by an {@code OutOfMemoryError}; the case after
 * them runs and passes, and so does a vLLM-shaped answer whose usage details are null, and the report is written. Before the bound the gigabyte ended the run with an
 * {@code OutOfMemoryError} and no report, and the endless line was misreported as {@code provider_deadline} after
 * 120 s.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class HostileProviderTest {

    private static final long GIGABYTE = 1L << 30;

    @TempDir
    Path work;

    @Test
    @DisplayName("a 1 GB response and an endless line under -Xmx256m: one clear verdict each, the next case runs")
    void survivesUnderASmallHeap() throws Exception {
        AtomicLong sent = new AtomicLong();
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        ExecutorService threads = Executors.newCachedThreadPool();
        server.setExecutor(threads);
        server.createContext("/v1/chat/completions", exchange -> serve(exchange, sent));
        server.start();
        try {
            Path report = work.resolve("report");
            // the launcher's options (C1 only, the serial collector), the heap capped
            List<String> command = Run.javaCommand(List.of("-Xmx256m"), AgentLab.class);
            command.addAll(List.of("run", "--provider", "live", "--live-base-url",
                    "http://127.0.0.1:" + server.getAddress().getPort() + "/v1", "--modes", "dual_agent",
                    "--suites", Run.suites("hostile"), "--report", report.toString(), "--no-gates",
                    "--progress", "plain"));
            Process process = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(work.resolve("out.txt").toFile()).start();
            assertThat(process.waitFor(4, TimeUnit.MINUTES)).as("the run ends by itself").isTrue();
            String out = Files.readString(work.resolve("out.txt"));
            assertThat(process.exitValue()).as(out).isEqualTo(1);
            assertThat(out).doesNotContain("OutOfMemoryError").doesNotContain("provider_deadline");
            String results = Files.readString(report.resolve("results.json"));
            assertThat(results).contains("a-gigabyte").contains("an-endless-line").contains("vllm-null-usage-details")
                    .contains("an-ordinary-answer");
            assertThat(out).contains("provider_response_too_large");
            assertThat(out.split("provider_response_too_large", -1).length - 1).as(out).isGreaterThanOrEqualTo(2);
            assertThat(results.replaceAll("\\s", "")).as(results).contains("\"passed\":2");
            assertThat(out).doesNotContain("NullPointerException");
            assertThat(sent.get()).as("the provider was stopped long before it sent its gigabytes")
                    .isLessThan(GIGABYTE);
        } finally {
            server.stop(0);
            threads.shutdownNow();
        }
    }

    private static void serve(HttpExchange exchange, AtomicLong sent) throws IOException {
        String request = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "text/event-stream");
        exchange.sendResponseHeaders(200, 0);
        try (OutputStream out = exchange.getResponseBody()) {
            if (request.contains("send a gigabyte")) {
                byte[] chunk = ("data: " + chunk("x".repeat(1000)) + "\n\n").getBytes(StandardCharsets.UTF_8);
                for (long written = 0; written < GIGABYTE; written += chunk.length) {
                    out.write(chunk);
                    sent.addAndGet(chunk.length);
                }
            } else if (request.contains("send an endless line")) {
                out.write("data: {\"id\":\"".getBytes(StandardCharsets.UTF_8));
                byte[] block = "a".repeat(64 * 1024).getBytes(StandardCharsets.UTF_8);
                for (long written = 0; written < GIGABYTE; written += block.length) {
                    out.write(block);
                    sent.addAndGet(block.length);
                }
            } else if (request.contains("answer like vllm")) {
                out.write(("data: " + chunk("Hello there.") + "\n\ndata: " + finish() + "\n\ndata: "
                        + "{\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"m\","
                        + "\"choices\":[],\"usage\":{\"prompt_tokens\":12,\"completion_tokens\":3,\"total_tokens\":15,"
                        + "\"prompt_tokens_details\":null,\"completion_tokens_details\":null}}\n\ndata: [DONE]\n\n")
                        .getBytes(StandardCharsets.UTF_8));
            } else {
                out.write(("data: " + chunk("Hello there.") + "\n\ndata: " + finish() + "\n\ndata: [DONE]\n\n")
                        .getBytes(StandardCharsets.UTF_8));
            }
        } catch (IOException clientLeft) {
            // the client stopped reading at its bound: what a hostile provider sees
        }
    }

    private static String chunk(String content) {
        return "{\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"m\",\"choices\":[{\"index\":0,"
                + "\"delta\":{\"content\":\"" + content + "\"},\"finish_reason\":null}]}";
    }

    private static String finish() {
        return "{\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"m\",\"choices\":[{\"index\":0,"
                + "\"delta\":{},\"finish_reason\":\"stop\"}]}";
    }
}
