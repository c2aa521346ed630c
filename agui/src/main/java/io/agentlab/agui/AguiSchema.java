package io.agentlab.agui;

import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import com.networknt.schema.path.NodePath;
import com.networknt.schema.path.PathType;
import io.agentlab.kernel.reference.SchemaMessages;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A profile's event definitions as JSON Schema, compiled once and validated with networknt. For AG-UI 1.0 they are
 * {@code @ag-ui/core} 1.0.0's own ({@code EventSchemas}), converted from its zod definitions by
 * {@code oracles/agui/scripts/export-schemas.mjs} into {@code agui-core-1.0.0/events.schema.json}, a resource
 * next to this class, and checked against the npm package by the oracle build (docs/runtime.md#schemas).
 *
 * <p>Validation reports two kinds of finding, as the official client distinguishes them: a required field missing or a
 * field of the wrong type (the client's validator throws: rule AGUI1-03), and material the definition does not
 * describe (the client strips it with a warning: rule AGUI1-04). The definitions are zod {@code looseObject}s, open to
 * unknown fields; the client's enforcement stage strips every field an object's shape lacks, except in objects marked
 * {@code specOpen} (the JSON Patch operations, as RFC 6902 requires). So the checker compiles the schema with those
 * objects closed ({@code additionalProperties: false}) and reads that keyword's errors, and an unknown tag of a
 * discriminated union, as AGUI1-04. Positions the protocol leaves open (metadata, rawEvent, state, result, value, ...)
 * have no properties and stay open.
 */
final class AguiSchema {

    /** A finding: {@code undefined} true for material the definition lacks (AGUI1-04), false for AGUI1-03. */
    record Finding(String path, String message, boolean undefined) {
    }

    /** A definition's own location, {@code /$defs/Name}. */
    private static final Pattern DEFINITION = Pattern.compile("/\\$defs/[^/]+");
    /** The article before a definition's name, dropped in "an array of ContentPart". */
    private static final Pattern NAMED = Pattern.compile("^an? (?=[A-Z])");

    /** The resource holding the AG-UI 1.0 definitions, next to this class. */
    static final String AGUI_1_0_RESOURCE = "agui-core-1.0.0/events.schema.json";

    /** Compiled on first use; one per profile that has official definitions. */
    private static final class Official {
        static final AguiSchema AGUI_1_0 = load(AGUI_1_0_RESOURCE);
    }

    private final JsonNode bundle;
    /** Event type -> its compiled definition, in the definitions' own order. */
    private final Map<String, Schema> events;
    /** Definition name -> how messages name it (an event definition by its type). */
    private final Map<String, String> names;

    private AguiSchema(JsonNode bundle, Map<String, Schema> events, Map<String, String> names) {
        this.bundle = bundle;
        this.events = events;
        this.names = names;
    }

    /**
     * The definitions of {@code profile}'s events.
     *
     * @throws IllegalArgumentException for a profile no official schema defines (the social dialect: its rules are
     *                                  the checker's own, docs/runtime.md#schemas)
     */
    static AguiSchema of(AguiProfile profile) {
        if (profile != AguiProfile.AGUI_1_0) {
            throw new IllegalArgumentException("no event schema for profile " + profile);
        }
        return Official.AGUI_1_0;
    }

    /** The event types the definitions define, in their own order. */
    Set<String> types() {
        return events.keySet();
    }

    /** Checks one event's fields against its type's definition; the type must be one of {@link #types()}. */
    void check(Map<String, Object> event, List<Finding> findings) {
        JsonNode instance = AguiJson.MAPPER.valueToTree(event);
        List<Error> errors = events.get((String) event.get("type")).validate(instance);
        if (!errors.isEmpty()) {
            findings(errors, findings);
        }
    }

    // ---- loading ----

    static AguiSchema load(String resource) {
        JsonNode bundle;
        try (InputStream in = AguiSchema.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + resource + " next to " + AguiSchema.class);
            }
            bundle = AguiJson.tree(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        closeUnlessSpecOpen(bundle);
        // the document compiles once; each event's definition is a subschema of it (compiling 31 locations apart
        // took three times as long, and a turn's first check waits for it)
        Schema document = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12)
                .getSchema(SchemaLocation.of(bundle.path("$id").asString()), bundle);
        Map<String, Schema> events = new LinkedHashMap<>();
        Map<String, String> names = new HashMap<>();
        bundle.path("$defs").propertyNames().forEach(name -> names.put(name, name));
        // the root is the union of the events, an if/then per type: each branch names the event's definition
        for (JsonNode branch : bundle.path("allOf")) {
            String type = branch.path("if").path("properties").path("type").path("const").asString();
            String ref = branch.path("then").path("$ref").asString();
            String def = ref.substring(ref.lastIndexOf('/') + 1);
            events.put(type, document.getSubSchema(new NodePath(PathType.JSON_POINTER).append("$defs").append(def)));
            names.put(def, type);
        }
        if (events.isEmpty()) {
            throw new IllegalStateException(resource + " defines no event types");
        }
        return new AguiSchema(bundle, Collections.unmodifiableMap(events), Map.copyOf(names));
    }

    /**
     * Closes every object definition that lists its properties, except those marked {@code specOpen}: what
     * {@code @ag-ui/client} 1.0.0's enforcement stage strips (with a warning) is what the schema then rejects.
     */
    private static void closeUnlessSpecOpen(JsonNode node) {
        if (node instanceof ObjectNode object) {
            JsonNode additional = object.get("additionalProperties");
            if (object.has("properties") && additional != null && additional.isObject() && additional.isEmpty()
                    && !object.path("specOpen").asBoolean(false)) {
                object.put("additionalProperties", false);
            }
            object.values().forEach(AguiSchema::closeUnlessSpecOpen);
        } else if (node instanceof ArrayNode array) {
            array.values().forEach(AguiSchema::closeUnlessSpecOpen);
        }
    }

    // ---- findings: one clear line each, from networknt's errors ----

    private void findings(List<Error> errors, List<Finding> out) {
        // one finding per field and reason: a field can fail two keywords alike (type and const)
        Set<Finding> findings = new LinkedHashSet<>();
        // a plain union (a string or an array of content parts): keep the errors of the branch whose type the value
        // has, as a reader would; when no branch has the value's type, one finding for the union
        Map<String, Set<Integer>> wrongKind = new HashMap<>();
        Map<String, Integer> branches = new HashMap<>();
        for (Error error : errors) {
            Branch branch = Branch.of(error);
            if (branch != null) {
                branches.putIfAbsent(branch.key(), node(branch.union()).path("anyOf").size());
                if (branch.rest().equals("/type")) {
                    wrongKind.computeIfAbsent(branch.key(), k -> new HashSet<>()).add(branch.index());
                }
            }
        }
        Set<String> reported = new HashSet<>();
        for (Error error : errors) {
            Branch branch = Branch.of(error);
            if (branch != null && wrongKind.containsKey(branch.key())) {
                if (wrongKind.get(branch.key()).size() == branches.get(branch.key())) {
                    if (reported.add(branch.key())) {
                        findings.add(new Finding(pointer(error.getInstanceLocation()), "is "
                                + show(error.getInstanceNode()) + ", expected " + describeAt(branch.union()),
                                false));
                    }
                    continue;
                }
                if (wrongKind.get(branch.key()).contains(branch.index())) {
                    continue; // the branch of another kind
                }
            }
            findings.add(finding(error));
        }
        out.addAll(findings);
    }

    /** An error inside branch {@code index} of the anyOf at {@code union}, for the value at {@code at}. */
    private record Branch(String union, int index, String rest, String at) {
        static Branch of(Error error) {
            String location = fragment(error.getSchemaLocation());
            int anyOf = location.lastIndexOf("/anyOf/");
            if (anyOf < 0) {
                return null;
            }
            String tail = location.substring(anyOf + "/anyOf/".length());
            int slash = tail.indexOf('/');
            if (slash < 0) {
                return null;
            }
            return new Branch(location.substring(0, anyOf), Integer.parseInt(tail.substring(0, slash)),
                    tail.substring(slash), pointer(error.getInstanceLocation()));
        }

        String key() {
            return union + " " + at;
        }
    }

    private Finding finding(Error error) {
        String at = pointer(error.getInstanceLocation());
        String location = fragment(error.getSchemaLocation());
        String owner = location.substring(0, Math.max(0, location.lastIndexOf('/')));
        JsonNode value = error.getInstanceNode();
        switch (error.getKeyword()) {
            case "additionalProperties" -> {
                return new Finding(at + "/" + escape(error.getProperty()), "is not a field of " + name(owner), true);
            }
            case "required" -> {
                JsonNode field = node(owner).path("properties").path(error.getProperty());
                return new Finding(at + "/" + escape(error.getProperty()), "is missing; " + name(owner)
                        + " requires it (" + describe(field) + ")", false);
            }
            case "enum" -> {
                // the tag of a discriminated union (the export marks it with "discriminator"): the client drops
                // a message, part or operation of a kind it does not know
                String union = owner.endsWith("/properties/" + last(at)) ? owner.substring(0,
                        owner.length() - ("/properties/" + last(at)).length()) : null;
                if (union != null && node(union).path("discriminator").path("propertyName").asString("")
                        .equals(last(at))) {
                    return new Finding(at, "is " + show(value) + ", not a " + name(union) + " " + node(owner)
                            .path("enum").valueStream().map(JsonNode::asString).toList()
                            + "; the client drops what it does not recognise", true);
                }
                return new Finding(at, "is " + show(value) + ", expected " + describeAt(owner), false);
            }
            case "minItems" -> {
                return new Finding(at, "has " + value.size() + " item(s), at least "
                        + node(owner).path("minItems").asInt() + " required", false);
            }
            case "type", "const", "not" -> {
                if (value != null && value.isNull() && optional(owner, at)) {
                    return new Finding(at, "is null; an optional field is left out, never null", false);
                }
                return new Finding(at, "is " + show(value) + ", expected " + describeAt(owner), false);
            }
            case "pattern" -> {
                return new Finding(at, "is " + show(value) + ", expected " + describeAt(owner), false);
            }
            default -> {
                return new Finding(at, "is " + show(value) + ": " + SchemaMessages.message(error), false);
            }
        }
    }

    /** Whether the field at {@code at} is an optional one of the object around it. */
    private boolean optional(String owner, String at) {
        int properties = owner.lastIndexOf("/properties/");
        if (properties < 0 || at.isEmpty()) {
            return false;
        }
        JsonNode object = node(owner.substring(0, properties));
        String field = owner.substring(properties + "/properties/".length());
        if (field.contains("/") || !field.equals(last(at))) {
            return false;
        }
        for (JsonNode required : object.path("required")) {
            if (required.asString().equals(field)) {
                return false;
            }
        }
        return true;
    }

    /** How a message names the definition at {@code location}: an event by its type, a named one by its name. */
    private String name(String location) {
        int defs = location.lastIndexOf("/$defs/");
        if (defs < 0) {
            return "the event";
        }
        String def = location.substring(defs + "/$defs/".length());
        int slash = def.indexOf('/');
        return names.getOrDefault(slash < 0 ? def : def.substring(0, slash), def);
    }

    private JsonNode node(String fragment) {
        return bundle.at(fragment);
    }

    /** What the schema at {@code location} accepts, for messages: a named object definition by its name. */
    private String describeAt(String location) {
        JsonNode node = node(location);
        return DEFINITION.matcher(location).matches() && (node.has("properties") || node.has("allOf"))
                ? "a " + name(location) : describe(node);
    }

    /** A short description of what the schema at {@code node} accepts, for messages. */
    private String describe(JsonNode node) {
        if (node.has("$ref")) {
            String ref = node.path("$ref").asString();
            return describeAt(ref.substring(ref.indexOf('#') + 1));
        }
        if (node.has("const")) {
            return AguiJson.write(node.get("const"));
        }
        if (node.has("enum")) {
            return "one of " + node.get("enum").valueStream().map(JsonNode::asString).toList();
        }
        if (node.has("anyOf")) {
            List<String> options = new ArrayList<>();
            node.get("anyOf").forEach(option -> options.add(describe(option)));
            return String.join(" or ", new LinkedHashSet<>(options));
        }
        if (node.has("not") && node.get("not").path("type").asString("").equals("null")) {
            return "any JSON value but null";
        }
        return switch (node.path("type").asString("")) {
            case "string" -> node.has("pattern") ? "a string matching " + node.get("pattern").asString()
                    : "a string";
            case "integer" -> node.path("minimum").asLong(Long.MIN_VALUE) == 0 ? "a non-negative integer"
                    : "an integer";
            case "number" -> "a number";
            case "boolean" -> "true or false";
            case "array" -> "an array of " + NAMED.matcher(describe(node.path("items"))).replaceFirst("");
            case "object" -> node.has("properties") ? "an object" : "a JSON object";
            default -> "any JSON value";
        };
    }

    private static String fragment(SchemaLocation location) {
        String text = location.toString();
        int hash = text.indexOf('#');
        return hash < 0 ? "" : text.substring(hash + 1);
    }

    /** The instance location as a JSON Pointer ({@code ""} for the event itself). */
    private static String pointer(NodePath path) {
        StringBuilder pointer = new StringBuilder();
        for (int i = 0; i < path.getNameCount(); i++) {
            pointer.append('/').append(escape(String.valueOf(path.getElement(i))));
        }
        return pointer.toString();
    }

    private static String escape(String name) {
        return Objects.requireNonNullElse(name, "").replace("~", "~0").replace("/", "~1");
    }

    private static String last(String pointer) {
        return pointer.substring(pointer.lastIndexOf('/') + 1);
    }

    private static String show(JsonNode value) {
        if (value == null || value.isNull() || value.isMissingNode()) {
            return "null";
        }
        if (value.isString()) {
            String text = value.asString();
            return "the string \"" + (text.length() > 40 ? text.substring(0, 40) + "…" : text) + "\"";
        }
        if (value.isObject()) {
            return "an object";
        }
        if (value.isArray()) {
            return "an array";
        }
        return (value.isBoolean() ? "the boolean " : "the number ") + value;
    }
}
