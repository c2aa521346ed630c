package io.agentlab.contracts;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.apiguardian.api.API;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * An utterance and what the plugin must make of it, in both modes.
 *
 * @param utterance the user's words
 * @param timezone  the session's zone (IANA id)
 * @param now       the request time, ISO-8601 with offset
 * @param expected  the final arguments the event must run with; empty when a clarification is expected
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record PluginExample(String utterance, String timezone, String now, Optional<Map<String, Object>> expected) {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** Rejects nulls. */
    public PluginExample {
        Objects.requireNonNull(utterance, "utterance");
        Objects.requireNonNull(timezone, "timezone");
        Objects.requireNonNull(now, "now");
        Objects.requireNonNull(expected, "expected");
    }

    /** An example that must run with {@code arguments} (UTC, 2026-11-30 09:00). */
    public static PluginExample of(String utterance, Map<String, Object> arguments) {
        return new PluginExample(utterance, "UTC", "2026-11-30T09:00:00Z", Optional.of(arguments));
    }

    /** An example that must end in a clarification, creating nothing. */
    public static PluginExample clarification(String utterance) {
        return new PluginExample(utterance, "UTC", "2026-11-30T09:00:00Z", Optional.empty());
    }

    /**
     * Examples from a YAML classpath resource:
     *
     * <pre>{@code
     * examples:
     *   - utterance: set a timer for 5 minutes
     *     arguments: {minutes: 5}
     *   - utterance: start a timer
     *     clarification: true
     *     timezone: Asia/Shanghai          # optional, default UTC
     *     now: 2026-11-30T09:00:00+08:00   # optional
     * }</pre>
     *
     * @throws IllegalArgumentException naming the resource and the example that is wrong
     */
    public static List<PluginExample> load(String resource) {
        InputStream in = PluginExample.class.getClassLoader().getResourceAsStream(resource);
        if (in == null) {
            throw new IllegalArgumentException("no classpath resource '" + resource + "'");
        }
        PluginContractSupport yaml = PluginContractSupport.find().orElseThrow(() -> new IllegalStateException(
                "reading the YAML examples '" + resource + "' needs " + PluginContractSupport.PROVIDER
                        + " on the test classpath, or build the examples in code with PluginExample.of"));
        JsonNode root;
        try (in) {
            root = JSON.valueToTree(yaml.readYaml(in));
        } catch (IOException | RuntimeException e) {
            throw new IllegalArgumentException(resource + ": not YAML: " + e.getMessage(), e);
        }
        List<PluginExample> examples = new ArrayList<>();
        int index = 0;
        for (JsonNode node : root.path("examples")) {
            String where = resource + " examples[" + index++ + "]";
            String utterance = node.path("utterance").asString("");
            if (utterance.isBlank()) {
                throw new IllegalArgumentException(where + ": 'utterance' is required");
            }
            boolean clarification = node.path("clarification").asBoolean(false);
            if (clarification == node.has("arguments")) {
                throw new IllegalArgumentException(where + ": give either 'arguments' or 'clarification: true'");
            }
            @SuppressWarnings("unchecked")
            Map<String, Object> arguments = clarification ? null : JSON.convertValue(node.path("arguments"), Map.class);
            examples.add(new PluginExample(utterance, node.path("timezone").asString("UTC"),
                    node.path("now").asString("2026-11-30T09:00:00Z"), Optional.ofNullable(arguments)));
        }
        if (examples.isEmpty()) {
            throw new IllegalArgumentException(resource + ": no 'examples' list");
        }
        return examples;
    }

    /** The same example in another zone and at another time. */
    public PluginExample at(String zone, String instant) {
        return new PluginExample(utterance, zone, instant, expected);
    }
}
