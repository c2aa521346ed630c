package io.agentlab.engine.internal.suite;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.agentlab.engine.internal.yaml.YamlReader;
import java.util.Optional;
import org.apiguardian.api.API;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * The top of a YAML document, read without building or checking the rest: a suite's id (to index suites by id for a
 * rerun by unique id without reading every case) and whether a file that is not named {@code *.suite.yaml} is a suite
 * all the same (docs/engine.md#which-files-are-suites). Never throws: unreadable text has no head.
 */
@API(status = INTERNAL, since = "0.1")
public final class SuiteHead {

    private static final YAMLMapper MAPPER = new YAMLMapper();

    private SuiteHead() {
    }

    /** The value of the top-level {@code id} key, if the document is a mapping that writes one as a scalar. */
    public static Optional<String> id(String text) {
        if (text.length() > YamlReader.MAX_CHARS) {
            return Optional.empty();
        }
        try (JsonParser parser = MAPPER.createParser(text)) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                return Optional.empty();
            }
            while (parser.nextToken() == JsonToken.PROPERTY_NAME) {
                String key = parser.currentName();
                JsonToken value = parser.nextToken();
                if ("id".equals(key)) {
                    return value.isScalarValue() ? Optional.ofNullable(parser.getValueAsString()) : Optional.empty();
                }
                parser.skipChildren(); // the cases are never built: only their tokens pass by
            }
            return Optional.empty();
        } catch (JacksonException e) {
            return Optional.empty();
        }
    }

    /**
     * A suite file's size as a run groups its files by (docs/engine.md#runs-in-parts): its top-level {@code id} (empty
     * when it writes none as a scalar) and how many items its top-level {@code cases} holds, counted from the tokens
     * without building or checking a case. Unreadable text counts no case.
     *
     * @param id    the suite's id, if the document writes one
     * @param cases the items of its {@code cases}
     */
    public record Size(Optional<String> id, int cases) {
    }

    /** The size of the suite in {@code text}. */
    public static Size size(String text) {
        Optional<String> id = Optional.empty();
        int cases = 0;
        if (text.length() > YamlReader.MAX_CHARS) {
            return new Size(id, cases);
        }
        try (JsonParser parser = MAPPER.createParser(text)) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                return new Size(id, cases);
            }
            while (parser.nextToken() == JsonToken.PROPERTY_NAME) {
                String key = parser.currentName();
                JsonToken value = parser.nextToken();
                if ("id".equals(key) && value.isScalarValue()) {
                    id = Optional.ofNullable(parser.getValueAsString());
                } else if ("cases".equals(key) && value == JsonToken.START_ARRAY) {
                    while (parser.nextToken() != JsonToken.END_ARRAY) {
                        parser.skipChildren();
                        cases++;
                    }
                } else {
                    parser.skipChildren();
                }
            }
            return new Size(id, cases);
        } catch (JacksonException e) {
            return new Size(id, cases); // its problems are discovery's to report
        }
    }

    /**
     * Whether the document is a mapping with the top-level keys {@code id} and {@code cases}: how a YAML file that is
     * not named {@code *.suite.yaml} is recognised as a suite when it is selected by name.
     */
    public static boolean looksLikeSuite(String text) {
        if (text.length() > YamlReader.MAX_CHARS) {
            return false;
        }
        boolean id = false;
        boolean cases = false;
        try (JsonParser parser = MAPPER.createParser(text)) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                return false;
            }
            while (parser.nextToken() == JsonToken.PROPERTY_NAME) {
                String key = parser.currentName();
                id |= "id".equals(key);
                cases |= "cases".equals(key);
                if (id && cases) {
                    return true;
                }
                parser.nextToken();
                parser.skipChildren();
            }
            return false;
        } catch (JacksonException e) {
            return false;
        }
    }
}
