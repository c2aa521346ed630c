package io.agentlab.kernel.reference;

import static org.apiguardian.api.API.Status.INTERNAL;

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
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import org.apiguardian.api.API;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * A definition's argument schema, parsed, checked against the draft 2020-12 meta-schema and compiled once at
 * registration (networknt). Validation splits {@code required} failures (missing fields, which the fallback or a
 * clarification may fill) from every other failure (invalid values, which are rejected).
 *
 * <p>A compiled schema is immutable and depends only on its text, so the same text compiles once per process: a run
 * builds a runtime, and so a registry, for every case, and each compilation checked the schema against the
 * meta-schema again (docs/performance.md). Only schemas that passed are kept, so every invalid one is still refused
 * with its own event's name.
 */
@API(status = INTERNAL, since = "0.1")
public final class ArgumentSchema {

    private static final SchemaRegistry REGISTRY = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12);
    private static final Schema META_SCHEMA =
            REGISTRY.getSchema(SchemaLocation.of("https://json-schema.org/draft/2020-12/schema"));
    private static final ObjectMapper MAPPER = JsonMapper.builder().build();
    /** Schemas kept at most; past it the cache starts again, so a process that sees endless texts stays bounded. */
    static final int CACHED_SCHEMAS = 256;
    private static final ConcurrentMap<String, ArgumentSchema> COMPILED = new ConcurrentHashMap<>();

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
        ArgumentSchema compiled = schemaJson == null ? null : COMPILED.get(schemaJson);
        if (compiled != null) {
            return compiled;
        }
        compiled = parse(eventName, schemaJson);
        if (COMPILED.size() >= CACHED_SCHEMAS) {
            COMPILED.clear();
        }
        COMPILED.putIfAbsent(schemaJson, compiled);
        return compiled;
    }

    private static ArgumentSchema parse(String eventName, String schemaJson) {
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

    /** The parsed schema, a copy (one compiled schema may serve many registries). */
    public JsonNode node() {
        return node.deepCopy();
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
