package io.agentlab.plugins;

import java.util.Map;
import tools.jackson.databind.json.JsonMapper;

/** JSON text to JSON-shaped Java values for test tables. */
final class Json {

    private static final JsonMapper MAPPER = JsonMapper.builder().build();

    private Json() {
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> parse(String json) {
        return MAPPER.readValue(json, Map.class);
    }
}
