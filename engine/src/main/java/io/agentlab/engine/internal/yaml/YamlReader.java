package io.agentlab.engine.internal.yaml;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apiguardian.api.API;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.TokenStreamLocation;
import tools.jackson.dataformat.yaml.YAMLMapper;
import tools.jackson.dataformat.yaml.YAMLParser;

/**
 * Reads one YAML document into {@link YamlNode}s that remember where they were written. A syntax error or a
 * duplicate key is a {@link SuiteProblem}, never an exception.
 *
 * <p>Input is bounded before it costs anything (docs/limits-and-safety.md#suites): a file over {@link #MAX_CHARS}
 * is refused unread, a string over {@link #MAX_STRING_CHARS} or nesting deeper than {@link #MAX_DEPTH} is a problem
 * at its position, and YAML aliases ({@code *name}) are refused: the parser would hand over the alias's name as if it
 * were the value, and resolving them invites exponential expansion.
 */
@API(status = INTERNAL, since = "0.1")
public final class YamlReader {

    /** The most characters a suite file may have (1 MiB). */
    public static final int MAX_CHARS = 1 << 20;
    /** The longest string value, key or user text (64 Ki characters). */
    public static final int MAX_STRING_CHARS = 1 << 16;
    /** The deepest nesting of mappings and sequences. */
    public static final int MAX_DEPTH = 64;

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
        if (text.length() > MAX_CHARS) {
            problems.add(tooLarge(file, text.length()));
            return new Result(null, problems);
        }
        try (JsonParser parser = MAPPER.createParser(text)) {
            JsonToken token = parser.nextToken();
            if (token == null) {
                problems.add(new SuiteProblem(file, Position.UNKNOWN, "", "the file is empty; expected a suite mapping"));
                return new Result(null, problems);
            }
            YamlNode root = node(file, parser, token, "", 0, problems);
            return new Result(root, problems);
        } catch (JacksonException e) {
            TokenStreamLocation location = e.getLocation();
            Position at = location == null || location.getLineNr() < 1 ? Position.UNKNOWN
                    : new Position(location.getLineNr(), Math.max(1, location.getColumnNr()));
            problems.add(new SuiteProblem(file, at, "", "invalid YAML: " + firstLine(e.getOriginalMessage())));
            return new Result(null, problems);
        }
    }

    /** The problem of a file over {@link #MAX_CHARS}, for callers that check the size before reading it. */
    public static SuiteProblem tooLarge(String file, long size) {
        return new SuiteProblem(file, Position.UNKNOWN, "", "the file has " + size + " characters; a suite file may "
                + "have at most " + MAX_CHARS + " (split it into several suites)");
    }

    private static YamlNode node(String file, JsonParser parser, JsonToken token, String path, int depth,
                                 List<SuiteProblem> problems) {
        Position at = position(parser);
        if (parser instanceof YAMLParser yaml && yaml.isCurrentAlias()) {
            problems.add(new SuiteProblem(file, at, path, "YAML aliases (*" + parser.getString() + ") are not "
                    + "supported in suites; write the value out"));
            return new YamlNode.Scalar(null, at);
        }
        if ((token == JsonToken.START_OBJECT || token == JsonToken.START_ARRAY) && depth >= MAX_DEPTH) {
            problems.add(new SuiteProblem(file, at, path, "nested deeper than " + MAX_DEPTH + " levels"));
            parser.skipChildren();
            return new YamlNode.Scalar(null, at);
        }
        switch (token) {
            case START_OBJECT -> {
                Map<String, YamlNode.Entry> entries = new LinkedHashMap<>();
                JsonToken next;
                while ((next = parser.nextToken()) == JsonToken.PROPERTY_NAME) {
                    String key = parser.currentName();
                    Position keyAt = position(parser);
                    if (key.length() > MAX_STRING_CHARS) {
                        problems.add(new SuiteProblem(file, keyAt, path, "a key of " + key.length()
                                + " characters; the limit is " + MAX_STRING_CHARS));
                        key = key.substring(0, 40) + "…";
                    }
                    String childPath = path.isEmpty() ? key : path + "." + key;
                    YamlNode value = node(file, parser, parser.nextToken(), childPath, depth + 1, problems);
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
                    items.add(node(file, parser, next, path + "[" + items.size() + "]", depth + 1, problems));
                }
                return new YamlNode.Sequence(items, at);
            }
            case VALUE_STRING -> {
                String value = parser.getString();
                if (value.length() > MAX_STRING_CHARS) {
                    problems.add(new SuiteProblem(file, at, path, "a string of " + value.length()
                            + " characters; the limit is " + MAX_STRING_CHARS));
                    return new YamlNode.Scalar(value.substring(0, 40) + "…", at);
                }
                return new YamlNode.Scalar(value, at);
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
