package io.agentlab.contracts;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.agentlab.contracts.AguiEndpointContract.Checked;
import io.agentlab.contracts.AguiEndpointContract.Report;
import io.agentlab.contracts.AguiEndpointContract.Settings;
import io.agentlab.agui.AguiProfile;
import io.agentlab.agui.AguiRules;
import io.agentlab.agui.AguiStreamChecker.Violation;
import io.agentlab.kernel.api.rule.Rule;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every rule of the catalogue, broken once, through the same path {@code agentlab check-stream} takes (SSE bytes from
 * a file or over HTTP): the report names the rule, and for an event's rule the event's position and type, and the
 * field where one is at fault.
 */
class AguiRuleCatalogueTest {

    /** A valid AG-UI 1.0 run; line n is event n. */
    static final List<String> GOOD = List.of(
            "{'type':'RUN_STARTED','threadId':'s1','runId':'s1-t1'}",
            "{'type':'TEXT_MESSAGE_START','messageId':'s1-t1-m1','role':'assistant'}",
            "{'type':'TEXT_MESSAGE_CONTENT','messageId':'s1-t1-m1','delta':'Volume 30.'}",
            "{'type':'TEXT_MESSAGE_END','messageId':'s1-t1-m1'}",
            "{'type':'TOOL_CALL_START','toolCallId':'s1-t1-e1','toolCallName':'device.volume.adjust',"
                    + "'parentMessageId':'s1-t1-m1'}",
            "{'type':'TOOL_CALL_ARGS','toolCallId':'s1-t1-e1','delta':'{}'}",
            "{'type':'TOOL_CALL_END','toolCallId':'s1-t1-e1'}",
            "{'type':'TOOL_CALL_RESULT','messageId':'s1-t1-e1-result','toolCallId':'s1-t1-e1','content':'ok',"
                    + "'role':'tool'}",
            "{'type':'RUN_FINISHED','threadId':'s1','runId':'s1-t1'}");

    @TempDir
    static Path temp;
    private static HttpServer server;
    private static int files;

    @BeforeAll
    static void serve() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/plain", exchange -> {
            byte[] body = sse(GOOD, true).getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "text/plain");
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        server.createContext("/no-resume", exchange -> {
            byte[] body = sse(GOOD, true).getBytes(StandardCharsets.UTF_8); // ignores Last-Event-ID
            exchange.getResponseHeaders().add("Content-Type", "text/event-stream");
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        server.start();
    }

    @AfterAll
    static void stop() {
        server.stop(0);
    }

    /** SSE frames of JSON lines ({@code '} stands for {@code "}), with ids 1..n when asked. */
    static String sse(List<String> lines, boolean ids) {
        StringBuilder body = new StringBuilder();
        for (int i = 0; i < lines.size(); i++) {
            body.append(ids ? "id: " + (i + 1) + "\n" : "").append("data: ").append(lines.get(i).replace('\'', '"'))
                    .append("\n\n");
        }
        return body.toString();
    }

    private static List<String> edit(java.util.function.Consumer<List<String>> change) {
        List<String> lines = new ArrayList<>(GOOD);
        change.accept(lines);
        return lines;
    }

    /** Checks SSE bodies as the files of one thread; the report of the last. */
    private static Report files(AguiProfile profile, String runId, String... bodies) {
        List<Path> paths = new ArrayList<>();
        try {
            for (String body : bodies) {
                Path file = temp.resolve("stream-" + (++files) + ".sse");
                Files.writeString(file, body);
                paths.add(file);
            }
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        List<Report> reports = AguiEndpointContract.checkFiles(paths, Settings.defaults().withProfile(profile)
                .withRunId(runId));
        return reports.get(reports.size() - 1);
    }

    private static Report v1(List<String> lines) {
        return files(AguiProfile.AGUI_1_0, null, sse(lines, true));
    }

    private static Report social(List<String> lines, String runId) {
        List<String> dialect = new ArrayList<>();
        for (String line : lines) {
            dialect.add(line.replace("{'type':'", "{'threadId':'s1','runId':'s1-t1','type':'"));
        }
        StringBuilder body = new StringBuilder();
        for (String line : dialect) {
            String json = line.replace('\'', '"');
            String type = json.replaceAll(".*\"type\":\"([A-Z_]+)\".*", "$1");
            body.append("event: ").append(type).append("\ndata: ").append(json).append("\n\n");
        }
        return files(AguiProfile.SOCIAL_DIALECT, runId, body.toString());
    }

    private static final List<String> SOCIAL_GOOD = List.of(
            "{'type':'RUN_STARTED'}",
            "{'type':'TEXT_MESSAGE_START','messageId':'m1'}",
            "{'type':'TEXT_MESSAGE_END','messageId':'m1'}",
            "{'type':'TOOL_CALL_START','toolCallId':'e1'}",
            "{'type':'TOOL_CALL_ARGS','toolCallId':'e1','args':{}}",
            "{'type':'TOOL_CALL_END','toolCallId':'e1'}",
            "{'type':'TOOL_CALL_RESULT','tool_call_id':'e1','tool_call_args':{},'status':'success'}",
            "{'type':'RUN_FINISHED'}");

    private static List<String> socialEdit(java.util.function.Consumer<List<String>> change) {
        List<String> lines = new ArrayList<>(SOCIAL_GOOD);
        change.accept(lines);
        return lines;
    }

    /** One broken example per rule. */
    static Map<String, Supplier<Report>> examples() {
        Map<String, Supplier<Report>> examples = new LinkedHashMap<>();
        examples.put("AGUI1-01", () -> files(AguiProfile.AGUI_1_0, null, sse(GOOD.subList(0, 1), false)
                + "data: [1, 2]\n\n" + sse(GOOD.subList(1, GOOD.size()), false)));
        examples.put("AGUI1-02", () -> v1(edit(l -> l.add(1, "{'type':'THINKING_START'}"))));
        examples.put("AGUI1-03", () -> v1(edit(l -> l.set(5, "{'type':'TOOL_CALL_ARGS','toolCallId':'s1-t1-e1'}"))));
        examples.put("AGUI1-04", () -> v1(edit(l -> l.set(0, "{'type':'RUN_STARTED','threadId':'s1','runId':'s1-t1',"
                + "'stage':'chat'}"))));
        examples.put("AGUI1-05", () -> v1(GOOD.subList(1, GOOD.size())));
        examples.put("AGUI1-06", () -> v1(edit(l -> l.add("{'type':'STEP_STARTED','stepName':'late'}"))));
        examples.put("AGUI1-07", () -> v1(GOOD.subList(0, GOOD.size() - 1)));
        examples.put("AGUI1-08", () -> v1(edit(l -> l.set(2, "{'type':'TEXT_MESSAGE_CONTENT','messageId':'m9',"
                + "'delta':'x'}"))));
        examples.put("AGUI1-09", () -> v1(edit(l -> {
            String args = l.get(5);
            l.set(5, l.get(6));
            l.set(6, args);
        })));
        examples.put("AGUI1-10", () -> v1(edit(l -> l.add(1, "{'type':'STEP_FINISHED','stepName':'ghost'}"))));
        examples.put("AGUI1-11", () -> v1(edit(l -> l.add(1, "{'type':'REASONING_MESSAGE_CONTENT','messageId':'r1',"
                + "'delta':'hm'}"))));
        examples.put("AGUI1-12", () -> v1(edit(l -> l.add(1, "{'type':'SUBAGENT_FINISHED','subagentRunId':'sa'}"))));
        examples.put("AGUI1-13", () -> v1(edit(l -> l.add(1, "{'type':'STEP_STARTED','stepName':'chat'}"))));
        examples.put("AGUI1-14", () -> {
            List<String> second = new ArrayList<>();
            GOOD.forEach(line -> second.add(line.replace("s1-t1-m1", "s1-t2-m1").replace("s1-t1-e1-result",
                    "s1-t2-r").replace("'runId':'s1-t1'", "'runId':'s1-t2'")));
            return files(AguiProfile.AGUI_1_0, null, sse(GOOD, true), sse(second, true));
        });
        examples.put("AGUI1-15", () -> v1(edit(l -> l.set(7, l.get(7).replace("s1-t1-e1-result", "s1-t1-m1")))));
        examples.put("AGUI1-16", () -> v1(edit(l -> {
            l.add(8, "{'type':'TOOL_CALL_START','toolCallId':'s1-t1-e2','toolCallName':'x',"
                    + "'parentMessageId':'s1-t1-e1-result'}");
            l.add(9, "{'type':'TOOL_CALL_END','toolCallId':'s1-t1-e2'}");
        })));
        examples.put("AGUI1-17", () -> v1(edit(l -> l.set(0, "{'type':'RUN_STARTED','threadId':'s1','runId':'s1-t1',"
                + "'protocolVersion':'2.0'}"))));
        examples.put("AGUI1-18", () -> files(AguiProfile.AGUI_1_0, null, sse(GOOD, true).replace("\n", "\r\n")));
        examples.put("AGUI1-19", () -> v1(edit(l -> l.set(2, "{'type':'TEXT_MESSAGE_CONTENT','messageId':'s1-t1-m1',"
                + "'delta':'hi','subagentRunId':'helper'}"))));
        examples.put("SOCIAL-01", () -> social(SOCIAL_GOOD.subList(1, SOCIAL_GOOD.size()), null));
        examples.put("SOCIAL-02", () -> social(socialEdit(l -> l.set(6, l.get(6).replace("success", "ok"))), null));
        examples.put("SOCIAL-03", () -> social(socialEdit(l -> l.remove(2)), null));
        examples.put("SOCIAL-04", () -> social(socialEdit(l -> l.add("{'type':'RUN_ERROR','message':'x'}")), null));
        examples.put("SOCIAL-05", () -> files(AguiProfile.SOCIAL_DIALECT, null, "event: RUN_FINISHED\ndata: "
                + "{\"threadId\":\"s1\",\"runId\":\"s1-t1\",\"type\":\"RUN_STARTED\"}\n\n"));
        examples.put("SOCIAL-06", () -> files(AguiProfile.SOCIAL_DIALECT, null,
                "event: RUN_STARTED\ndata: {\"threadId\":\"s1\",\"runId\":\"s1-t1\",\"type\":\"RUN_STARTED\"}\n\n"
                        + "event: RUN_FINISHED\ndata: {\"type\":\"RUN_FINISHED\"}\n\n"));
        examples.put("SOCIAL-07", () -> social(socialEdit(l -> l.set(2, "{'type':'TEXT_MESSAGE_END','messageId':'m1',"
                + "'cost':0.01}")), null));
        examples.put("ENDPOINT-01", () -> AguiEndpointContract.check(url("/plain"), Settings.defaults()));
        examples.put("ENDPOINT-02", () -> files(AguiProfile.AGUI_1_0, null, sse(GOOD, true).stripTrailing()));
        examples.put("ENDPOINT-03", () -> files(AguiProfile.AGUI_1_0, "s1-t9", sse(GOOD, true)));
        examples.put("ENDPOINT-04", () -> files(AguiProfile.AGUI_1_0, null, sse(GOOD, true).replace("id: 2\n",
                "id: 1\n")));
        examples.put("ENDPOINT-05", () -> AguiEndpointContract.check(url("/no-resume"), Settings.defaults()));
        return examples;
    }

    private static String url(String path) {
        return "http://127.0.0.1:" + server.getAddress().getPort() + path;
    }

    @Test
    @DisplayName("the examples cover the whole catalogue, and each profile's list is its own rules plus the endpoint's")
    void coverage() {
        assertThat(examples().keySet()).containsExactlyElementsOf(AguiRules.catalogue().stream().map(Rule::id)
                .toList());
        assertThat(AguiProfile.AGUI_1_0.rules()).extracting(Rule::id)
                .allMatch(id -> id.startsWith("AGUI1-") || id.startsWith("ENDPOINT-"));
        assertThat(AguiProfile.SOCIAL_DIALECT.rules()).extracting(Rule::id)
                .allMatch(id -> id.startsWith("SOCIAL-") || id.startsWith("ENDPOINT-"));
    }

    @TestFactory
    @DisplayName("each rule, broken once, is reported by its id, with the event and field where it has them")
    Stream<DynamicTest> eachRule() {
        return examples().entrySet().stream().map(entry -> DynamicTest.dynamicTest(entry.getKey(), () -> {
            Report report = entry.getValue().get();
            assertThat(report).as("%s: %s", entry.getKey(), report).isInstanceOf(Checked.class);
            assertThat(report.violations()).as("%s: %s", entry.getKey(), report.violations())
                    .filteredOn(v -> v.rule().equals(entry.getKey())).isNotEmpty()
                    .allSatisfy(v -> assertThat(v.toString()).startsWith(entry.getKey()));
        }));
    }

    @Test
    @DisplayName("an event's rule names the event's position, its type and the field")
    void namesEventAndField() {
        Violation violation = examples().get("AGUI1-03").get().violations().get(0);
        assertThat(violation.toString()).isEqualTo("AGUI1-03 at event 6 TOOL_CALL_ARGS, field /delta: is missing; "
                + "TOOL_CALL_ARGS requires it (a string)");
    }

    @Test
    @DisplayName("AGUI1-19: an empty subagentRunId names a subagent, not the parent that opened the message")
    void emptySubagentIsNotTheParent() {
        // the official client compares the field as given: '' is not absent (found by the oracle's random variants)
        Report empty = v1(edit(l -> l.set(2, "{'type':'TEXT_MESSAGE_CONTENT','messageId':'s1-t1-m1','delta':'hi',"
                + "'subagentRunId':''}")));
        assertThat(empty.violations()).extracting(Violation::toString)
                .anySatisfy(v -> assertThat(v).startsWith("AGUI1-19").contains("the parent agent opened it"));
        Report absent = v1(edit(l -> l.set(2, "{'type':'TEXT_MESSAGE_CONTENT','messageId':'s1-t1-m1','delta':'hi'}")));
        assertThat(absent.violations()).isEmpty();
    }

    @Test
    @DisplayName("the good run passes, from a file and over HTTP")
    void good() {
        assertThat(v1(GOOD).violations()).isEmpty();
        assertThat(social(SOCIAL_GOOD, "s1-t1").violations()).isEmpty();
    }
}
