package io.agentlab.engine.internal.yaml;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.io.Reader;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apiguardian.api.API;
import org.snakeyaml.engine.v2.exceptions.Mark;
import org.snakeyaml.engine.v2.exceptions.MarkedYamlEngineException;
import org.snakeyaml.engine.v2.exceptions.ReaderException;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.TokenStreamLocation;
import tools.jackson.core.exc.StreamConstraintsException;
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
    private static final int BYTE_ORDER_MARK = 0xFEFF;

    private YamlReader() {
    }

    /**
     * What reading gave: the document (null when the YAML is invalid or empty) and the problems met.
     *
     * @param document the root node, or null
     * @param problems syntax errors and duplicate keys
     * @param refused  the paths of values the reader refused and stood in for (an alias, a value nested too deep):
     *                 whatever a later check says about them follows from the one problem already reported
     */
    public record Result(YamlNode document, List<SuiteProblem> problems, Set<String> refused) {
        /** Copies the problems. */
        public Result {
            problems = List.copyOf(problems);
            refused = Set.copyOf(refused);
        }

        /** A result with no refused value. */
        Result(YamlNode document, List<SuiteProblem> problems) {
            this(document, problems, Set.of());
        }

        /** Whether {@code key} is a refused value's path or lies beneath one. */
        public boolean refuses(String key) {
            return refused.stream().anyMatch(path -> key.equals(path) || key.startsWith(path + ".")
                    || key.startsWith(path + "["));
        }
    }

    /** Reads {@code text}, naming {@code file} in problems. */
    public static Result read(String file, String text) {
        List<SuiteProblem> problems = new ArrayList<>();
        if (text.length() > MAX_CHARS) {
            problems.add(tooLarge(file, text.length()));
            return new Result(null, problems);
        }
        try (JsonParser parser = MAPPER.createParser(new WholeCodePoints(text))) {
            JsonToken token = parser.nextToken();
            if (token == null) {
                problems.add(new SuiteProblem(file, Position.UNKNOWN, "", "the file is empty; expected a suite mapping"));
                return new Result(null, problems);
            }
            Reading reading = new Reading(file, problems, new ArrayList<>(), new HashSet<>());
            YamlNode root = node(reading, parser, token, "", 0);
            if (!reading.aliases().isEmpty()) {
                // one cause, one problem: the first alias where it is, and how many more (a "billion laughs" file
                // has one per line; docs/limits-and-safety.md#suites)
                SuiteProblem first = reading.aliases().get(0);
                int more = reading.aliases().size() - 1;
                problems.add(new SuiteProblem(file, first.at(), first.key(), "YAML aliases (" + first.message()
                        + (more == 0 ? "" : ", and " + more + " more") + ") are not supported in suites; write the "
                        + "value out"));
            }
            return new Result(root, problems, reading.refused());
        } catch (JacksonException e) {
            if (e instanceof StreamConstraintsException && problems.stream()
                    .anyMatch(problem -> problem.message().startsWith(TOO_DEEP))) {
                return new Result(null, problems); // the parser's own bound on the nesting we already refused
            }
            problems.add(syntaxProblem(file, text, e));
            return new Result(null, problems);
        }
    }

    /**
     * A syntax error as one line at the place the YAML parser found wrong: what it found ("expected ',' or '}', but got
     * -"), then what it was reading and where that began. The parser's own first line names only what it was reading
     * ("while parsing a flow mapping"), and the reading position lies past the mistake, a line further on for a tab
     * (docs/suite-format.md#yaml-syntax).
     */
    private static SuiteProblem syntaxProblem(String file, String text, JacksonException e) {
        if (e.getCause() instanceof ReaderException reader) {
            // a character YAML does not allow (a control character): the reader refuses it when it reaches it, with
            // no mark, only its offset in code points, and Jackson's location is where parsing had got to
            return new SuiteProblem(file, position(text, reader.getPosition()), "", "invalid YAML: "
                    + firstLine(reader.getMessage()) + String.format(Locale.ROOT, " (U+%04X; YAML allows "
                    + "printable characters, tabs and line breaks only)", reader.getCodePoint()));
        }
        if (e.getCause() instanceof MarkedYamlEngineException marked && marked.getProblem() != null
                && marked.getProblemMark().isPresent()) {
            Mark problem = marked.getProblemMark().get();
            String context = marked.getContext() == null || marked.getContextMark().isEmpty() ? ""
                    : " (" + firstLine(marked.getContext()) + " begun at " + position(marked.getContextMark().get())
                    + ")";
            return new SuiteProblem(file, position(problem), "", "invalid YAML: " + firstLine(marked.getProblem())
                    + context);
        }
        return new SuiteProblem(file, position(e.getLocation()), "", "invalid YAML: "
                + firstLine(e.getOriginalMessage()));
    }

    /**
     * The line and column (counted from 1) of the code point at {@code offset} (counted from 0; the text's length in
     * code points is the place right after it), counted as the YAML parser counts its marks: a line ends at {@code \n},
     * {@code \r\n} or a lone {@code \r}, and a byte-order mark takes no column. Unknown past the end. The one count of
     * a place in a suite file's text, for the parser's refusals and for a byte that is not UTF-8
     * (docs/suite-format.md#yaml-syntax).
     */
    public static Position position(String text, int offset) {
        int line = 1;
        int column = 1;
        int index = 0;
        for (int seen = 0; seen < offset; seen++) {
            if (index >= text.length()) {
                return Position.UNKNOWN;
            }
            int codePoint = text.codePointAt(index);
            index += Character.charCount(codePoint);
            boolean lineEnds = codePoint == '\n' || codePoint == '\r'
                    && (index >= text.length() || text.charAt(index) != '\n');
            line = lineEnds ? line + 1 : line;
            column = lineEnds ? 1 : codePoint == BYTE_ORDER_MARK ? column : column + 1;
        }
        return new Position(line, column);
    }

    /**
     * The text as a reader that never ends a read between the two halves of a surrogate pair: snakeyaml-engine reads
     * 1,024 characters at a time, and one whose last is a high surrogate it extends past the end of its buffer, an
     * {@code IndexOutOfBoundsException} out of a valid file with a character outside the BMP at that place.
     */
    private static final class WholeCodePoints extends Reader {
        private final String text;
        private int next;

        WholeCodePoints(String text) {
            this.text = text;
        }

        @Override
        public int read(char[] into, int offset, int length) {
            if (length == 0) {
                return 0;
            }
            if (next >= text.length()) {
                return -1;
            }
            int end = Math.min(text.length(), next + length);
            if (end - next > 1 && end < text.length() && Character.isHighSurrogate(text.charAt(end - 1))) {
                end--; // the pair's second half comes with the next read
            }
            text.getChars(next, end, into, offset);
            int read = end - next;
            next = end;
            return read;
        }

        @Override
        public void close() {
        }
    }

    /** A parser mark (counted from 0) as a problem's position (counted from 1). */
    private static Position position(Mark mark) {
        return new Position(mark.getLine() + 1, mark.getColumn() + 1);
    }

    /** The problem of a file over {@link #MAX_CHARS}, for callers that check the size before reading it. */
    public static SuiteProblem tooLarge(String file, long size) {
        return new SuiteProblem(file, Position.UNKNOWN, "", "the file has " + size + " characters; a suite file may "
                + "have at most " + MAX_CHARS + " (split it into several suites)");
    }

    private static final String TOO_DEEP = "nested deeper than ";
    /** The most characters of a too-deep value's path a problem line shows. */
    private static final int SHOWN_PATH_CHARS = 60;

    /**
     * The start of a too-deep value's path: its 64 levels of {@code [0]} would fill a screen line and say no more than
     * where the nesting begins (the line and column say where it went too deep).
     */
    private static String outermost(String path) {
        if (path.length() <= SHOWN_PATH_CHARS) {
            return path;
        }
        int cut = Math.max(path.lastIndexOf('[', SHOWN_PATH_CHARS), path.lastIndexOf('.', SHOWN_PATH_CHARS));
        return path.substring(0, cut > 0 ? cut : SHOWN_PATH_CHARS) + "…";
    }

    /** What one reading collects: the problems, and the aliases met (one cause, reported once). */
    private record Reading(String file, List<SuiteProblem> problems, List<SuiteProblem> aliases, Set<String> refused) {
    }

    private static YamlNode node(Reading reading, JsonParser parser, JsonToken token, String path, int depth) {
        String file = reading.file();
        List<SuiteProblem> problems = reading.problems();
        Position at = position(parser);
        if (parser instanceof YAMLParser yaml && yaml.isCurrentAlias()) {
            reading.aliases().add(new SuiteProblem(file, at, path, "*" + parser.getString()));
            reading.refused().add(path);
            return new YamlNode.Scalar(null, at);
        }
        if ((token == JsonToken.START_OBJECT || token == JsonToken.START_ARRAY) && depth >= MAX_DEPTH) {
            problems.add(new SuiteProblem(file, at, outermost(path), TOO_DEEP + MAX_DEPTH + " levels"));
            reading.refused().add(path);
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
                    YamlNode value = node(reading, parser, parser.nextToken(), childPath, depth + 1);
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
                    items.add(node(reading, parser, next, path + "[" + items.size() + "]", depth + 1));
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
        return position(parser.currentTokenLocation());
    }

    private static Position position(TokenStreamLocation location) {
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
