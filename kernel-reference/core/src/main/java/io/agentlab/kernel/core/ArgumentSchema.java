package io.agentlab.kernel.core;

import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import io.agentlab.kernel.api.ArgumentViolation;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * A definition's argument schema, parsed, checked against the draft 2020-12 meta-schema and compiled once at
 * registration (networknt). Validation splits {@code required} failures (missing fields, which the fallback or a
 * clarification may fill) from every other failure (invalid values, which are rejected).
 */
public final class ArgumentSchema {

    private static final SchemaRegistry REGISTRY = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12);
    private static final Schema META_SCHEMA =
            REGISTRY.getSchema(SchemaLocation.of("https://json-schema.org/draft/2020-12/schema"));
    private static final ObjectMapper MAPPER = JsonMapper.builder().build();

    private final JsonNode node;
    private final Schema schema;

    private ArgumentSchema(JsonNode node, Schema schema) {
        this.node = node;
        this.schema = schema;
    }

    /**
     * Parses and checks a schema.
     *
     * @throws RegistrationException naming the event and what is wrong (not JSON, not an object schema, or the
     *                               meta-schema violations with their locations)
     */
    public static ArgumentSchema compile(String eventName, String schemaJson) {
        JsonNode node;
        try {
            node = MAPPER.readTree(schemaJson);
        } catch (JacksonException e) {
            throw new RegistrationException(eventName + ": argumentsSchema is not valid JSON: " + e.getOriginalMessage()
                    + " at line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr(), e);
        }
        if (node == null || !node.isObject()) {
            throw new RegistrationException(eventName + ": argumentsSchema must be a JSON object");
        }
        if (!"object".equals(node.path("type").asString(""))) {
            throw new RegistrationException(eventName
                    + ": argumentsSchema must declare \"type\": \"object\" (provider tool parameters are objects)");
        }
        List<Error> metaErrors = META_SCHEMA.validate(node);
        if (!metaErrors.isEmpty()) {
            throw new RegistrationException(eventName + ": argumentsSchema is not a valid draft 2020-12 schema: "
                    + metaErrors.stream().map(SchemaMessages::describe).toList());
        }
        return new ArgumentSchema(node, REGISTRY.getSchema(node));
    }

    /** The parsed schema (read-only by convention; used to build provider tool schemas). */
    public JsonNode node() {
        return node;
    }

    /** Validates JSON-shaped arguments. Never throws for any JSON-shaped input. */
    public Check check(Map<String, Object> arguments) {
        JsonNode instance = MAPPER.valueToTree(arguments);
        Set<String> missing = new LinkedHashSet<>();
        List<ArgumentViolation> violations = new ArrayList<>();
        for (Error error : schema.validate(instance)) {
            if ("required".equals(error.getKeyword()) && error.getProperty() != null
                    && error.getInstanceLocation().getNameCount() == 0) {
                missing.add(error.getProperty());
            } else {
                violations.add(new ArgumentViolation(error.getInstanceLocation().toString(), SchemaMessages.message(error)));
            }
        }
        return new Check(missing, violations);
    }

    /**
     * The outcome of a schema check.
     *
     * @param missing    top-level required properties that are absent
     * @param violations every other failure, with its instance location
     */
    public record Check(Set<String> missing, List<ArgumentViolation> violations) {
        /** Copies the collections. */
        public Check {
            missing = Set.copyOf(missing);
            violations = List.copyOf(violations);
        }
    }
}
