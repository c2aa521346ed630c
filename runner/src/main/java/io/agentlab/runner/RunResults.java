package io.agentlab.runner;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.agentlab.report.TestOutcome;
import java.io.IOException;
import java.io.Reader;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.apiguardian.api.API;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.databind.DeserializationFeature;
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
 * @param tests         the tests, in the order they finished (a run's, and a file read back, kept in a spool file
 *                      rather than memory: docs/performance.md#memory)
 */
@API(status = INTERNAL, since = "0.1")
public record RunResults(Optional<Shard> shard, Map<String, String> configuration, List<TestOutcome> tests) {

    /** The file's name in a report folder. */
    public static final String FILE = "results.json";
    /** The format marker, bumped on an incompatible change. */
    public static final String FORMAT = "agentlab-results/1";

    private static final JsonMapper JSON = JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT)
            .disable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS).build();

    /** Copies, the configuration sorted by key; a run's spooled tests are kept where they are. */
    public RunResults {
        configuration = new TreeMap<>(configuration);
        tests = tests instanceof SpooledTests ? tests : List.copyOf(tests);
    }

    /** How many tests ended with {@code status}. */
    public long count(TestOutcome.Status status) {
        return tests instanceof SpooledTests spooled ? spooled.count(status)
                : tests.stream().filter(test -> test.status() == status).count();
    }

    /** The failed and aborted tests. */
    public List<TestOutcome> broken() {
        if (tests instanceof SpooledTests spooled && spooled.count(TestOutcome.Status.FAILED)
                + spooled.count(TestOutcome.Status.ABORTED) == 0) {
            return List.of(); // nothing to read back
        }
        return tests.stream().filter(TestOutcome::broken).toList();
    }

    /** Mode and parity tests that ran (passed, failed or aborted); gates and failed containers not counted. */
    public long executedCaseTests() {
        return tests instanceof SpooledTests spooled ? spooled.executedCaseTests()
                : tests.stream().filter(test -> ("mode".equals(test.kind()) || "parity".equals(test.kind()))
                && test.status() != TestOutcome.Status.SKIPPED).count();
    }

    /** The JSON text (for a few tests: a run writes its file with {@link #write}). */
    public String toJson() {
        StringWriter out = new StringWriter();
        try {
            writeJson(out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString();
    }

    /** Writes the JSON text as it goes: the summary, then the tests read back one at a time. */
    private void writeJson(Writer out) throws IOException {
        try (JsonGenerator json = JSON.createGenerator(out)) {
            json.writeStartObject();
            json.writeStringProperty("format", FORMAT);
            json.writeName("shard");
            if (shard.isPresent()) {
                json.writeString(shard.get().toString());
            } else {
                json.writeNull();
            }
            json.writePOJOProperty("configuration", configuration);
            Map<String, Object> summary = new LinkedHashMap<>();
            summary.put("tests", tests.size());
            for (TestOutcome.Status status : List.of(TestOutcome.Status.PASSED, TestOutcome.Status.FAILED,
                    TestOutcome.Status.ABORTED, TestOutcome.Status.SKIPPED)) {
                summary.put(status.wireName(), count(status));
            }
            json.writePOJOProperty("summary", summary);
            json.writeName("tests");
            json.writeStartArray();
            for (TestOutcome test : tests) {
                json.writePOJO(test.toMap());
            }
            json.writeEndArray();
            json.writeEndObject();
            json.writeRaw('\n'); // the file ends with a line break, as it always did
        }
    }

    /** Writes {@value #FILE} into {@code directory}; returns the file. */
    public Path write(Path directory) {
        Path file = directory.resolve(FILE);
        try {
            Files.createDirectories(directory);
            try (Writer out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
                writeJson(out);
            }
            return file;
        } catch (IOException | JacksonException e) {
            throw new UsageException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    /**
     * Reads a {@value #FILE} (or the one inside a folder), one test at a time: its tests are spooled as a run's are,
     * not held in memory.
     *
     * @throws UsageException naming the file and what is wrong with it
     */
    public static RunResults read(Path path) {
        Path file = Files.isDirectory(path) ? path.resolve(FILE) : path;
        String format = null;
        Optional<Shard> shard = Optional.empty();
        Map<String, String> configuration = new LinkedHashMap<>();
        SpooledTests tests = SpooledTests.create();
        try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8);
             JsonParser json = JSON.createParser(in)) {
            if (json.nextToken() != JsonToken.START_OBJECT) {
                throw new UsageException(notResults(file));
            }
            while (json.nextToken() == JsonToken.PROPERTY_NAME) {
                String name = json.currentName();
                JsonToken value = json.nextToken();
                switch (name) {
                    case "format" -> format = value == JsonToken.VALUE_STRING ? json.getString() : null;
                    case "shard" -> shard = value == JsonToken.VALUE_STRING ? Optional.of(Shard.parse(json.getString()))
                            : Optional.empty();
                    case "configuration" -> JSON.readTree(json).properties()
                            .forEach(e -> configuration.put(e.getKey(), e.getValue().asString()));
                    case "tests" -> {
                        if (!FORMAT.equals(format)) {
                            throw new UsageException(notResults(file));
                        }
                        if (value == JsonToken.START_ARRAY) {
                            while (json.nextToken() == JsonToken.START_OBJECT) {
                                tests.append(JSON.readTree(json));
                            }
                        }
                    }
                    default -> json.skipChildren();
                }
            }
        } catch (IOException e) {
            throw new UsageException("cannot read " + file + ": " + (Files.exists(file) ? e.getMessage()
                    : "no such file"), e);
        } catch (JacksonException e) {
            throw new UsageException(file + ": not JSON (" + e.getOriginalMessage() + ")", e);
        } catch (IllegalArgumentException e) {
            throw new UsageException(file + ": " + e.getMessage(), e);
        }
        if (!FORMAT.equals(format)) {
            throw new UsageException(notResults(file));
        }
        return new RunResults(shard, configuration, tests);
    }

    private static String notResults(Path file) {
        return file + ": not a results file of this kit (expected \"format\": \"" + FORMAT + "\")";
    }
}
