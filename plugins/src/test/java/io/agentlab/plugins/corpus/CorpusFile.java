package io.agentlab.plugins.corpus;

import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * One resolver-corpus file ({@code resolver-corpus/*.yaml}, format {@code resolver-corpus/corpus.schema.json}): the
 * utterances for one event in one language, grouped by the rule they exercise.
 *
 * @param name     the file name, e.g. {@code volume.en.yaml}
 * @param event    the event name
 * @param language {@code en} or {@code zh}
 * @param groups   the groups in file order
 */
record CorpusFile(String name, String event, String language, List<Group> groups) {

    /** The shipped corpus files, in report order. */
    static final List<String> FILES = List.of("volume.en.yaml", "volume.zh.yaml", "schedule.en.yaml",
            "schedule.zh.yaml");

    private static final YAMLMapper YAML = YAMLMapper.builder().build();
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Schema SCHEMA = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12)
            .getSchema(resource("corpus.schema.json"));

    /**
     * One rule family.
     *
     * @param id    kebab-case id, unique in the file
     * @param rule  the rule it exercises
     * @param cases its cases
     */
    record Group(String id, String rule, List<Case> cases) {
    }

    /**
     * One utterance.
     *
     * @param say      the user's words
     * @param zone     the session timezone
     * @param clock    the captured request time
     * @param expect   what must come of it
     */
    record Case(String say, ZoneId zone, OffsetDateTime clock, Expectation expect) {
    }

    /** What must come of an utterance. */
    sealed interface Expectation {
        /** Nothing executes: the resolver asks. */
        record Clarification() implements Expectation {
        }

        /**
         * Executes with exactly these arguments; a list value accepts any of its items.
         *
         * @param fields the expected fields
         */
        record Arguments(Map<String, Object> fields) implements Expectation {
        }

        /**
         * Any one of the options is right.
         *
         * @param options the accepted outcomes
         */
        record AnyOf(List<Expectation> options) implements Expectation {
        }

        /**
         * Several requests for the event in one utterance: each executes with its own arguments or is asked about.
         *
         * @param requests the expected arguments of each request
         */
        record Requests(List<Arguments> requests) implements Expectation {
        }
    }

    /** The total number of utterances. */
    int size() {
        return groups.stream().mapToInt(group -> group.cases().size()).sum();
    }

    /** Reads and validates one shipped file; a schema violation names the file and the instance location. */
    static CorpusFile load(String name) {
        String text = resource(name);
        JsonNode root = YAML.readTree(text);
        List<String> problems = new ArrayList<>();
        for (Error error : SCHEMA.validate(JSON.valueToTree(root))) {
            problems.add(name + ": " + error.getInstanceLocation() + ": " + error.getMessage());
        }
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException(String.join("\n", problems));
        }
        JsonNode session = root.get("session");
        List<Group> groups = new ArrayList<>();
        for (JsonNode group : root.get("groups")) {
            List<Case> cases = new ArrayList<>();
            for (JsonNode entry : group.get("cases")) {
                JsonNode own = entry.get("session");
                ZoneId zone = ZoneId.of(pick(own, session, "timezone"));
                OffsetDateTime clock = OffsetDateTime.parse(pick(own, session, "clock"));
                Expectation expect = entry.has("requests") ? requests(entry.get("requests"))
                        : expectation(entry.get("expect"));
                cases.add(new Case(entry.get("say").asString(), zone, clock, expect));
            }
            groups.add(new Group(group.get("id").asString(), group.get("rule").asString(), List.copyOf(cases)));
        }
        return new CorpusFile(name, root.get("event").asString(), root.get("language").asString(),
                List.copyOf(groups));
    }

    private static String pick(JsonNode own, JsonNode file, String field) {
        return own != null && own.has(field) ? own.get(field).asString() : file.get(field).asString();
    }

    private static Expectation expectation(JsonNode node) {
        if (node.isString()) {
            return new Expectation.Clarification(); // the schema allows only "clarification"
        }
        if (node.has("anyOf")) {
            List<Expectation> options = new ArrayList<>();
            node.get("anyOf").forEach(option -> options.add(expectation(option)));
            return new Expectation.AnyOf(List.copyOf(options));
        }
        return arguments(node);
    }

    private static Expectation requests(JsonNode node) {
        List<Expectation.Arguments> requests = new ArrayList<>();
        node.forEach(item -> requests.add(arguments(item)));
        return new Expectation.Requests(List.copyOf(requests));
    }

    @SuppressWarnings("unchecked")
    private static Expectation.Arguments arguments(JsonNode node) {
        return new Expectation.Arguments(new LinkedHashMap<>(JSON.treeToValue(node, Map.class)));
    }

    private static String resource(String name) {
        String path = "resolver-corpus/" + name;
        try (InputStream in = CorpusFile.class.getClassLoader().getResourceAsStream(path)) {
            if (in == null) {
                throw new IllegalStateException(path + " is not on the test classpath");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
