package io.agentlab.engine.suite;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.TokenStreamLocation;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * Reads one YAML document into {@link YamlNode}s that remember where they were written. A syntax error or a
 * duplicate key is a {@link SuiteProblem}, never an exception.
 */
public final class YamlReader {

    private static final YAMLMapper MAPPER = new YAMLMapper();

    private YamlReader() {
    }

    /**
     * What reading gave: the document (null when the YAML is invalid or empty) and the problems met.
     *
     * @param document the root node, or null
     * @param problems syntax errors and duplicate keys
     */
    public record Result(YamlNode document, List<SuiteProblem> problems) {
        /** Copies the problems. */
        public Result {
            problems = List.copyOf(problems);
        }
    }

    /** Reads {@code text}, naming {@code file} in problems. */
    public static Result read(String file, String text) {
        List<SuiteProblem> problems = new ArrayList<>();
        try (JsonParser parser = MAPPER.createParser(text)) {
            JsonToken token = parser.nextToken();
            if (token == null) {
                problems.add(new SuiteProblem(file, Position.UNKNOWN, "", "the file is empty; expected a suite mapping"));
                return new Result(null, problems);
            }
            YamlNode root = node(file, parser, token, "", problems);
            return new Result(root, problems);
        } catch (JacksonException e) {
            TokenStreamLocation location = e.getLocation();
            Position at = location == null || location.getLineNr() < 1 ? Position.UNKNOWN
                    : new Position(location.getLineNr(), Math.max(1, location.getColumnNr()));
            problems.add(new SuiteProblem(file, at, "", "invalid YAML: " + firstLine(e.getOriginalMessage())));
            return new Result(null, problems);
        }
    }

    private static YamlNode node(String file, JsonParser parser, JsonToken token, String path,
                                 List<SuiteProblem> problems) {
        Position at = position(parser);
        switch (token) {
            case START_OBJECT -> {
                Map<String, YamlNode.Entry> entries = new LinkedHashMap<>();
                JsonToken next;
                while ((next = parser.nextToken()) == JsonToken.PROPERTY_NAME) {
                    String key = parser.currentName();
                    Position keyAt = position(parser);
                    String childPath = path.isEmpty() ? key : path + "." + key;
                    YamlNode value = node(file, parser, parser.nextToken(), childPath, problems);
                    if (entries.containsKey(key)) {
                        problems.add(new SuiteProblem(file, keyAt, childPath, "duplicate key; first written at "
                                + entries.get(key).keyAt()));
                    } else {
                        entries.put(key, new YamlNode.Entry(keyAt, value));
                    }
                }
                return new YamlNode.Mapping(entries, at);
            }
            case START_ARRAY -> {
                List<YamlNode> items = new ArrayList<>();
                JsonToken next;
                while ((next = parser.nextToken()) != JsonToken.END_ARRAY) {
                    items.add(node(file, parser, next, path + "[" + items.size() + "]", problems));
                }
                return new YamlNode.Sequence(items, at);
            }
            case VALUE_STRING -> {
                return new YamlNode.Scalar(parser.getString(), at);
            }
            case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> {
                return new YamlNode.Scalar(parser.getNumberValue(), at);
            }
            case VALUE_TRUE -> {
                return new YamlNode.Scalar(Boolean.TRUE, at);
            }
            case VALUE_FALSE -> {
                return new YamlNode.Scalar(Boolean.FALSE, at);
            }
            case VALUE_NULL -> {
                return new YamlNode.Scalar(null, at);
            }
            default -> {
                // anchors, tags and other exotic tokens arrive as embedded objects: keep their text
                return new YamlNode.Scalar(parser.getString(), at);
            }
        }
    }

    private static Position position(JsonParser parser) {
        TokenStreamLocation location = parser.currentTokenLocation();
        return location == null || location.getLineNr() < 1 ? Position.UNKNOWN
                : new Position(location.getLineNr(), Math.max(1, location.getColumnNr()));
    }

    private static String firstLine(String message) {
        if (message == null) {
            return "unreadable";
        }
        int newline = message.indexOf('\n');
        return (newline < 0 ? message : message.substring(0, newline)).strip();
    }
}
