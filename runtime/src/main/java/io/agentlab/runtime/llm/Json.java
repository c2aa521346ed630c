package io.agentlab.runtime.llm;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.util.Map;
import org.apiguardian.api.API;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/** The one JSON mapper of the runtime, and conversions between trees and JSON-shaped Java values. */
@API(status = INTERNAL, since = "0.1")
public final class Json {

    /** Shared, thread-safe mapper. */
    public static final ObjectMapper MAPPER = JsonMapper.builder().build();

    private Json() {
    }

    /** Parses JSON text. */
    public static JsonNode tree(String text) throws JacksonException {
        return MAPPER.readTree(text);
    }

    /** A tree as JSON-shaped Java values ({@code Map}, {@code List}, ...). */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> object(JsonNode node) {
        return node == null || !node.isObject() ? Map.of() : MAPPER.convertValue(node, Map.class);
    }

    /** Any value as compact JSON text. */
    public static String write(Object value) {
        return MAPPER.writeValueAsString(value);
    }
}
