package io.agentlab.agui;

import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * The module's JSON mapper. Its own, not the runtime's: this module depends on the kernel API and Jackson only, so
 * an endpoint checked over the wire needs no runtime on the classpath (docs/api.md#artifacts).
 */
final class AguiJson {

    static final ObjectMapper MAPPER = JsonMapper.builder().build();

    private AguiJson() {
    }

    static JsonNode tree(String text) throws JacksonException {
        return MAPPER.readTree(text);
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> object(JsonNode node) {
        return node == null || !node.isObject() ? Map.of() : MAPPER.convertValue(node, Map.class);
    }

    static String write(Object value) {
        return MAPPER.writeValueAsString(value);
    }
}
