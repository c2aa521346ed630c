package io.agentlab.suites;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentlab.runtime.llm.Json;
import io.agentlab.providers.recorded.ChunkProtocol;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Writes what the OpenAI SDK oracle ({@code oracles/openai-sdk}, {@code ChunkProtocolAgreementTest}) holds
 * {@link ChunkProtocol} to (docs/recording.md#protocol-and-notes): one full chunk, and every variant of it with one
 * field removed, set to null, or set to a value of each other JSON type, plus enum values nobody defined, each with the
 * kit's verdict. The oracle checks that the kit refuses exactly what the SDK cannot read. This test judges nothing.
 */
class ChunkProtocolProbeExportTest {

    /** Where the probes go (the oracle module reads them from there). */
    static final Path OUT = Path.of("target/chunk-protocol-probes/probes.json");

    /** A chunk that carries every field the protocol defines. */
    static final String FULL = "{\"id\":\"chatcmpl-probe\",\"object\":\"chat.completion.chunk\",\"created\":1796000000,"
            + "\"model\":\"m\",\"system_fingerprint\":\"fp_probe\",\"service_tier\":\"default\",\"choices\":[{\"index\":0,"
            + "\"delta\":{\"role\":\"assistant\",\"content\":\"hi\",\"refusal\":null,\"tool_calls\":[{\"index\":0,"
            + "\"id\":\"call_1\",\"type\":\"function\",\"function\":{\"name\":\"f\",\"arguments\":\"{}\"}}]},"
            + "\"logprobs\":null,\"finish_reason\":null}],\"usage\":{\"prompt_tokens\":1,\"completion_tokens\":2,"
            + "\"total_tokens\":3,\"prompt_tokens_details\":{\"cached_tokens\":0},\"completion_tokens_details\":"
            + "{\"reasoning_tokens\":0}}}";

    /** Every field of {@link #FULL}, as a path of object keys and array indexes. */
    static final List<String> PATHS = List.of("id", "object", "created", "model", "system_fingerprint", "service_tier",
            "choices", "usage", "choices/0", "choices/0/index", "choices/0/delta", "choices/0/logprobs",
            "choices/0/finish_reason", "choices/0/delta/role", "choices/0/delta/content", "choices/0/delta/refusal",
            "choices/0/delta/tool_calls", "choices/0/delta/tool_calls/0", "choices/0/delta/tool_calls/0/index",
            "choices/0/delta/tool_calls/0/id", "choices/0/delta/tool_calls/0/type",
            "choices/0/delta/tool_calls/0/function", "choices/0/delta/tool_calls/0/function/name",
            "choices/0/delta/tool_calls/0/function/arguments", "usage/prompt_tokens", "usage/completion_tokens",
            "usage/total_tokens", "usage/prompt_tokens_details", "usage/prompt_tokens_details/cached_tokens",
            "usage/completion_tokens_details", "usage/completion_tokens_details/reasoning_tokens");

    /** The values each field is set to besides being removed. */
    static final Map<String, String> VALUES = values();

    private static Map<String, String> values() {
        Map<String, String> values = new LinkedHashMap<>();
        values.put("null", "null");
        values.put("integer", "7");
        values.put("decimal", "1.5");
        values.put("string", "\"s\"");
        values.put("boolean", "true");
        values.put("object", "{}");
        values.put("array", "[]");
        return values;
    }

    @Test
    @DisplayName("export the protocol probes with the kit's verdict on each, for the OpenAI SDK oracle")
    void exportProbes() throws IOException {
        ArrayNode probes = Json.MAPPER.createArrayNode();
        add(probes, "the full chunk", FULL);
        for (String path : PATHS) {
            add(probes, path + " removed", change(path, null));
            VALUES.forEach((type, value) -> add(probes, path + " = " + type, change(path, value)));
        }
        add(probes, "object other", FULL.replace("\"chat.completion.chunk\"", "\"chat.completion\""));
        add(probes, "finish_reason unknown", FULL.replace("\"finish_reason\":null", "\"finish_reason\":\"eos\""));
        add(probes, "role unknown", FULL.replace("\"role\":\"assistant\"", "\"role\":\"bot\""));
        add(probes, "tool type unknown", FULL.replace("\"type\":\"function\"", "\"type\":\"custom\""));
        add(probes, "service_tier unknown", FULL.replace("\"service_tier\":\"default\"", "\"service_tier\":\"x\""));
        add(probes, "choices empty", FULL.replaceFirst("\"choices\":\\[.*\\],\"usage\"", "\"choices\":[],\"usage\""));
        add(probes, "unknown fields everywhere", FULL.replace("\"model\":\"m\"", "\"model\":\"m\",\"x\":{\"y\":[1]}")
                .replace("\"index\":0,\"delta\"", "\"index\":0,\"x\":1,\"delta\"").replace("\"content\":\"hi\"",
                        "\"content\":\"hi\",\"reasoning_content\":\"r\",\"x\":null"));
        Files.createDirectories(OUT.getParent());
        Files.writeString(OUT, Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(probes));
        System.out.println("[chunk-protocol-probes] " + probes.size() + " probes written to "
                + OUT.toAbsolutePath().normalize());
        assertThat(probes.size()).isGreaterThan(PATHS.size() * (VALUES.size() + 1));
    }

    private static void add(ArrayNode probes, String name, String payload) {
        List<String> violations = ChunkProtocol.violations(List.of(payload));
        ObjectNode probe = probes.addObject().put("name", name).put("payload", payload)
                .put("kitRefuses", !violations.isEmpty());
        violations.forEach(probe.putArray("violations")::add);
    }

    /** {@link #FULL} with the field at {@code path} removed ({@code value} null) or set to {@code value}. */
    private static String change(String path, String value) {
        ObjectNode root = (ObjectNode) Json.tree(FULL);
        String[] parts = path.split("/");
        JsonNode parent = root;
        for (int i = 0; i < parts.length - 1; i++) {
            parent = parent.isArray() ? parent.get(Integer.parseInt(parts[i])) : parent.get(parts[i]);
        }
        String last = parts[parts.length - 1];
        JsonNode replacement = value == null ? null : Json.tree(value);
        if (parent instanceof ArrayNode array) {
            int index = Integer.parseInt(last);
            if (replacement == null) {
                array.remove(index);
            } else {
                array.set(index, replacement);
            }
        } else if (replacement == null) {
            ((ObjectNode) parent).remove(last);
        } else {
            ((ObjectNode) parent).set(last, replacement);
        }
        return Json.write(root);
    }
}
