package io.agentlab.runner;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.agentlab.report.TestOutcome;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.apiguardian.api.API;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code results.json}: every test of a run with its id, suite, case, mode, status, duration and message, the
 * configuration it ran with and, for a shard, which one it was. CI reads it; {@code --rerun-failed} and
 * {@code agentlab merge} read it back.
 *
 * @param shard         the shard this run was, if it was one
 * @param configuration the {@code agentlab.*} configuration parameters the run was asked for (gates included, even
 *                      when a shard deferred them to the merge)
 * @param tests         the tests, in the order they finished
 */
@API(status = INTERNAL, since = "0.1")
public record RunResults(Optional<Shard> shard, Map<String, String> configuration, List<TestOutcome> tests) {

    /** The file's name in a report folder. */
    public static final String FILE = "results.json";
    /** The format marker, bumped on an incompatible change. */
    public static final String FORMAT = "agentlab-results/1";

    private static final JsonMapper JSON = JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();

    /** Copies, the configuration sorted by key. */
    public RunResults {
        configuration = new TreeMap<>(configuration);
        tests = List.copyOf(tests);
    }

    /** How many tests ended with {@code status}. */
    public long count(TestOutcome.Status status) {
        return tests.stream().filter(test -> test.status() == status).count();
    }

    /** The failed and aborted tests. */
    public List<TestOutcome> broken() {
        return tests.stream().filter(TestOutcome::broken).toList();
    }

    /** Mode and parity tests that ran (passed, failed or aborted); gates and failed containers not counted. */
    public long executedCaseTests() {
        return tests.stream().filter(test -> ("mode".equals(test.kind()) || "parity".equals(test.kind()))
                && test.status() != TestOutcome.Status.SKIPPED).count();
    }

    /** The JSON text. */
    public String toJson() {
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("format", FORMAT);
        root.put("shard", shard.map(Shard::toString).orElse(null));
        root.put("configuration", configuration);
        Map<String, Object> summary = new LinkedHashMap<>();
        summary.put("tests", tests.size());
        for (TestOutcome.Status status : List.of(TestOutcome.Status.PASSED, TestOutcome.Status.FAILED,
                TestOutcome.Status.ABORTED, TestOutcome.Status.SKIPPED)) {
            summary.put(status.wireName(), count(status));
        }
        root.put("summary", summary);
        List<Map<String, Object>> list = new ArrayList<>();
        for (TestOutcome test : tests) {
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("id", test.id());
            entry.put("kind", test.kind());
            entry.put("suite", test.suite().orElse(null));
            entry.put("case", test.caseId().orElse(null));
            entry.put("mode", test.mode());
            entry.put("name", test.name());
            entry.put("tags", test.tags());
            entry.put("status", test.status().wireName());
            entry.put("durationMs", test.durationMs());
            entry.put("message", test.message().orElse(null));
            list.add(entry);
        }
        root.put("tests", list);
        return JSON.writeValueAsString(root) + "\n";
    }

    /** Writes {@value #FILE} into {@code directory}; returns the file. */
    public Path write(Path directory) {
        try {
            Files.createDirectories(directory);
            return Files.writeString(directory.resolve(FILE), toJson(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UsageException("cannot write " + directory.resolve(FILE) + ": " + e.getMessage(), e);
        }
    }

    /**
     * Reads a {@value #FILE} (or the one inside a folder).
     *
     * @throws UsageException naming the file and what is wrong with it
     */
    public static RunResults read(Path path) {
        Path file = Files.isDirectory(path) ? path.resolve(FILE) : path;
        JsonNode root;
        try {
            root = JSON.readTree(Files.readString(file, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UsageException("cannot read " + file + ": " + (Files.exists(file) ? e.getMessage()
                    : "no such file"), e);
        } catch (JacksonException e) {
            throw new UsageException(file + ": not JSON (" + e.getOriginalMessage() + ")", e);
        }
        if (!FORMAT.equals(root.path("format").asString())) {
            throw new UsageException(file + ": not a results file of this kit (expected \"format\": \"" + FORMAT
                    + "\")");
        }
        try {
            Optional<Shard> shard = root.path("shard").isString() ? Optional.of(Shard.parse(root.path("shard")
                    .asString())) : Optional.empty();
            Map<String, String> configuration = new LinkedHashMap<>();
            root.path("configuration").properties().forEach(e -> configuration.put(e.getKey(), e.getValue().asString()));
            List<TestOutcome> tests = new ArrayList<>();
            for (JsonNode test : root.path("tests")) {
                tests.add(new TestOutcome(text(test, "id"), text(test, "kind"), optional(test, "suite"),
                        optional(test, "case"), text(test, "mode"), text(test, "name"), tags(test),
                        TestOutcome.Status.valueOf(text(test, "status").toUpperCase(java.util.Locale.ROOT)),
                        test.path("durationMs").asDouble(), optional(test, "message")));
            }
            return new RunResults(shard, configuration, tests);
        } catch (IllegalArgumentException e) {
            throw new UsageException(file + ": " + e.getMessage(), e);
        }
    }

    private static String text(JsonNode node, String field) {
        if (!node.path(field).isString()) {
            throw new IllegalArgumentException("a test has no \"" + field + "\"");
        }
        return node.path(field).asString();
    }

    /** A test's tags; files written before tags were recorded have none. */
    private static List<String> tags(JsonNode test) {
        List<String> tags = new ArrayList<>();
        test.path("tags").forEach(tag -> tags.add(tag.asString()));
        return tags;
    }

    private static Optional<String> optional(JsonNode node, String field) {
        return node.path(field).isString() ? Optional.of(node.path(field).asString()) : Optional.empty();
    }
}
