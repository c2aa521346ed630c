package io.agentlab.engine.internal.suite;

import static org.apiguardian.api.API.Status.INTERNAL;

import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import io.agentlab.engine.internal.yaml.Position;
import io.agentlab.engine.internal.yaml.SuiteProblem;
import io.agentlab.engine.internal.yaml.YamlNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apiguardian.api.API;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The suite format's JSON Schema ({@code docs/suite.schema.json}, shipped as
 * {@code io/agentlab/engine/suite.schema.json}), applied with networknt; each error is placed on the node it concerns.
 */
@API(status = INTERNAL, since = "0.1")
public final class SuiteSchema {

    /** The schema's classpath resource. */
    public static final String RESOURCE = "io/agentlab/engine/suite.schema.json";

    /** The mapper whose trees the schema validates (package-private: the tree test's oracle is its valueToTree). */
    static final JsonMapper MAPPER = JsonMapper.builder().build();
    private static final Schema SCHEMA = load();
    /**
     * How many documents this thread validated: what tells a test that a remembered text was not validated again,
     * whatever other threads (a warm-up's discovery) validate meanwhile.
     */
    private static final ThreadLocal<long[]> VALIDATIONS = ThreadLocal.withInitial(() -> new long[1]);

    private SuiteSchema() {
    }

    /** The schema text. */
    public static String text() {
        try (InputStream in = SuiteSchema.class.getClassLoader().getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " is missing from the engine jar");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Schema load() {
        return SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12).getSchema(text());
    }

    /**
     * The document as the tree the schema validates: the tree {@code valueToTree} makes of {@link YamlNode#plain()},
     * built directly. Going through the plain maps and Jackson's serializers was an eighth of discovering a large
     * suite (docs/performance.md#discovery-tree); numbers, rare in a suite, still take that path, so each keeps
     * exactly the node type it had.
     */
    static JsonNode tree(YamlNode node) {
        if (node instanceof YamlNode.Mapping mapping) {
            ObjectNode object = MAPPER.createObjectNode();
            mapping.entries().forEach((key, entry) -> object.set(key, tree(entry.value())));
            return object;
        }
        if (node instanceof YamlNode.Sequence sequence) {
            ArrayNode array = MAPPER.createArrayNode();
            sequence.items().forEach(item -> array.add(tree(item)));
            return array;
        }
        Object value = ((YamlNode.Scalar) node).value();
        if (value == null) {
            return MAPPER.getNodeFactory().nullNode();
        }
        if (value instanceof String text) {
            return MAPPER.getNodeFactory().stringNode(text);
        }
        if (value instanceof Boolean flag) {
            return MAPPER.getNodeFactory().booleanNode(flag);
        }
        return MAPPER.valueToTree(value);
    }

    /**
     * How many documents {@link #validate} checked on this thread so far: what a test counts to see that a file read
     * twice was validated once (docs/performance.md#schema-passes).
     */
    public static long validationsOnThisThread() {
        return VALIDATIONS.get()[0];
    }

    /** Validates a document; problems name the file, the position and the key. */
    public static List<SuiteProblem> validate(String file, YamlNode document) {
        VALIDATIONS.get()[0]++;
        JsonNode instance = tree(document);
        List<SuiteProblem> problems = new ArrayList<>();
        for (SchemaAlternatives.Reported reported : SchemaAlternatives.fold(SCHEMA.validate(instance))) {
            YamlNode node = document;
            StringBuilder key = new StringBuilder();
            var location = reported.location();
            for (int i = 0; i < location.getNameCount(); i++) {
                Object element = location.getElement(i);
                if (element instanceof Integer index) {
                    key.append('[').append(index).append(']');
                    node = node instanceof YamlNode.Sequence sequence && index < sequence.items().size()
                            ? sequence.items().get(index) : node;
                } else {
                    key.append(key.isEmpty() ? "" : ".").append(element);
                    node = node instanceof YamlNode.Mapping mapping && mapping.get(element.toString()) != null
                            ? mapping.get(element.toString()) : node;
                }
            }
            Position at = node.at();
            String property = reported.property();
            if (property != null && node instanceof YamlNode.Mapping mapping && mapping.entries().containsKey(property)) {
                at = mapping.entries().get(property).keyAt(); // an unknown key: point at the key itself
                key.append(key.isEmpty() ? "" : ".").append(property);
            }
            problems.add(new SuiteProblem(file, at, key.toString(), reported.message()));
        }
        return problems;
    }
}
