package io.agentlab.providers.recorded;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import io.agentlab.kernel.reference.SchemaMessages;
import io.agentlab.runtime.llm.Json;
import io.agentlab.runtime.llm.ResponseLimits;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apiguardian.api.API;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Reads and writes recording files (docs/recording.md#format). On load every file is validated against
 * {@code recording.schema.json} and its chunks against what the protocol requires ({@link ChunkProtocol}); a file that
 * fails either is refused with the file, the recording, and each finding's location (a JSON path, or the event index
 * and the field). Where the chunks depart from their provider family's usual shape ({@link ProviderFamily#deviations}),
 * the recording is loaded with notes ({@link #read}), never refused: be liberal in what you read.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class Recordings {

    private static final Schema SCHEMA;
    /** The most protocol violations one message lists; the rest are counted. */
    private static final int MAX_LISTED = 8;

    static {
        try (InputStream in = Recordings.class.getResourceAsStream("recording.schema.json")) {
            SCHEMA = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12)
                    .getSchema(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("recording.schema.json is missing from the jar", e);
        }
    }

    private Recordings() {
    }

    /**
     * The largest recording file read: the response bound with room for JSON escaping and the offsets
     * (docs/limits-and-safety.md#response-size). A larger file is refused before it is read.
     */
    public static final long MAX_FILE_BYTES = 4 * ResponseLimits.DEFAULT.maxResponseBytes();

    /** Every {@code *.json} recording in a directory, sorted by file name. */
    public static List<Recording> loadDirectory(Path directory) throws IOException {
        List<Recording> recordings = new ArrayList<>();
        try (Stream<Path> files = Files.list(directory)) {
            for (Path file : files.filter(p -> p.toString().endsWith(".json")).sorted().toList()) {
                recordings.add(read(file, List.of()).recording());
            }
        }
        return recordings;
    }

    /**
     * Reads one recording file with its notes, refusing one larger than {@link #MAX_FILE_BYTES} before reading it.
     *
     * @throws IllegalArgumentException naming the file and what is wrong
     */
    public static Loaded read(Path file, List<Path> familyFolders) throws IOException {
        long size = Files.size(file);
        if (size > MAX_FILE_BYTES) {
            throw new IllegalArgumentException(file + ": " + size + " bytes, more than a recording may hold ("
                    + MAX_FILE_BYTES + " bytes; docs/limits-and-safety.md#response-size); not read");
        }
        return read(Files.readString(file), file.toString(), familyFolders);
    }

    /**
     * A recording as loaded, with what the loader noticed.
     *
     * @param recording the recording
     * @param family    the family its chunks were read as ({@link ProviderFamily#OPENAI_COMPATIBLE} when it names
     *                  none, or one no description covers)
     * @param notes     where the recording departs from its family's usual shape, and a family name nothing describes;
     *                  empty for a faithful recording
     */
    public record Loaded(Recording recording, ProviderFamily family, List<String> notes) {
        /** Copies the notes. */
        public Loaded {
            notes = List.copyOf(notes);
        }
    }

    /**
     * Parses one recording, without its notes.
     *
     * @throws IllegalArgumentException naming {@code source} and what is wrong
     */
    public static Recording parse(String json, String source) {
        return read(json, source, List.of()).recording();
    }

    /**
     * Parses one recording with its notes; a family name is looked up as {@link ProviderFamily#fromWireName(String,
     * List)} does, in {@code familyFolders} too.
     *
     * @throws IllegalArgumentException naming {@code source} and what is wrong: not JSON, not the schema, or chunks
     *                                  that break the protocol
     */
    public static Loaded read(String json, String source, List<Path> familyFolders) {
        JsonNode root;
        try {
            root = Json.tree(json);
        } catch (JacksonException e) {
            throw new IllegalArgumentException(source + ": not JSON: " + e.getOriginalMessage() + " at line "
                    + e.getLocation().getLineNr(), e);
        }
        List<Error> errors = SCHEMA.validate(root);
        if (!errors.isEmpty()) {
            throw new IllegalArgumentException(source + ": not a valid recording: "
                    + errors.stream().map(SchemaMessages::describe).toList());
        }
        JsonNode request = root.get("request");
        JsonNode response = root.get("response");
        JsonNode metadata = root.get("metadata");
        Map<String, String> headers = new LinkedHashMap<>();
        response.path("headers").properties().forEach(e -> headers.put(e.getKey(), e.getValue().asString()));
        List<Recording.TimedEvent> events = new ArrayList<>();
        long previous = 0;
        long bytes = 0;
        ResponseLimits limits = ResponseLimits.DEFAULT;
        if (response.get("events").size() > limits.maxChunks()) {
            throw new IllegalArgumentException(source + ": " + response.get("events").size() + " events, more than "
                    + "one response may carry (" + limits.maxChunks() + "; docs/limits-and-safety.md#response-size)");
        }
        for (JsonNode event : response.get("events")) {
            long at = event.get("at_ms").asLong();
            if (at < previous) {
                throw new IllegalArgumentException(source + ": event " + events.size() + " at " + at
                        + " ms comes before the previous one at " + previous + " ms");
            }
            previous = at;
            String data = event.get("data").asString();
            bytes += data.length() + 8; // "data: " and the blank line, as served
            if (bytes > limits.maxResponseBytes()) {
                throw new IllegalArgumentException(source + ": the events pass " + limits.maxResponseBytes()
                        + " bytes, more than one response may carry (docs/limits-and-safety.md#response-size)");
            }
            events.add(new Recording.TimedEvent(at, data));
        }
        String id = root.get("id").asString();
        List<String> payloads = events.stream().map(Recording.TimedEvent::data).toList();
        List<String> violations = ChunkProtocol.violations(payloads);
        if (!violations.isEmpty()) {
            throw new IllegalArgumentException(source + ": recording '" + id + "' breaks the chat streaming protocol "
                    + "(docs/recording.md#protocol-and-notes): " + listed(violations));
        }
        List<String> notes = new ArrayList<>();
        String provider = metadata.hasNonNull("provider") ? metadata.get("provider").asString()
                : ProviderFamily.OPENAI_COMPATIBLE_NAME;
        ProviderFamily family;
        try {
            family = ProviderFamily.fromWireName(provider, familyFolders);
        } catch (IllegalArgumentException e) {
            family = ProviderFamily.OPENAI_COMPATIBLE;
            notes.add("no description of provider family '" + provider + "' was found; read as "
                    + ProviderFamily.OPENAI_COMPATIBLE_NAME + " (" + e.getMessage() + ")");
        }
        notes.addAll(family.deviations(payloads));
        List<String> redacted = new ArrayList<>();
        metadata.get("redacted").forEach(r -> redacted.add(r.asString()));
        return new Loaded(new Recording(id,
                new RequestMatcher(request.get("mode").asString(), request.get("role").asString(),
                        request.get("last_user_message").asString()),
                new Recording.RecordedResponse(response.get("status").asInt(), headers, events,
                        response.hasNonNull("body") ? response.get("body").asString() : null,
                        response.hasNonNull("fault") ? response.get("fault").asString() : null),
                new Recording.Metadata(provider, metadata.get("model").asString(),
                        metadata.get("date").asString(), metadata.get("synthesized").asBoolean(), redacted,
                        metadata.get("timing").asString())), family, notes);
    }

    private static String listed(List<String> violations) {
        List<String> shown = violations.subList(0, Math.min(violations.size(), MAX_LISTED));
        return String.join("; ", shown) + (violations.size() > shown.size()
                ? "; and " + (violations.size() - shown.size()) + " more" : "");
    }

    /**
     * Keeps committed recording files equal to the code that writes them (fixtures written from code rather than by
     * hand): with {@code regenerate} every file is written ({@code <id>.json} in {@code directory}); otherwise each
     * file that is missing or differs from {@link #write} of its recording is named, with the first line that differs.
     *
     * @return one line per stale file, empty when every file is current
     */
    public static List<String> stale(Path directory, List<Recording> recordings, boolean regenerate)
            throws IOException {
        List<String> stale = new ArrayList<>();
        for (Recording recording : recordings) {
            Path file = directory.resolve(recording.id() + ".json");
            String expected = write(recording);
            if (regenerate) {
                Files.createDirectories(directory);
                Files.writeString(file, expected);
            } else if (!Files.isRegularFile(file)) {
                stale.add(file + ": missing");
            } else {
                List<String> committed = Files.readString(file).lines().toList();
                List<String> written = expected.lines().toList();
                int line = 0;
                int common = Math.min(committed.size(), written.size());
                while (line < common && committed.get(line).equals(written.get(line))) {
                    line++;
                }
                if (line < Math.max(committed.size(), written.size())) {
                    stale.add(file + ": differs from its code at line " + (line + 1));
                }
            }
        }
        return stale;
    }

    /** The diff-friendly file text: pretty-printed, each event in its own block. */
    public static String write(Recording recording) {
        ObjectNode root = Json.MAPPER.createObjectNode();
        root.put("id", recording.id());
        root.putObject("request").put("mode", recording.request().mode()).put("role", recording.request().role())
                .put("last_user_message", recording.request().lastUserMessage());
        ObjectNode response = root.putObject("response");
        response.put("status", recording.response().status());
        ObjectNode headers = response.putObject("headers");
        // sorted: the record's map has no order, and a regenerated file must not differ from the committed one
        new TreeMap<>(recording.response().headers()).forEach(headers::put);
        if (recording.response().body() != null) {
            response.put("body", recording.response().body());
        }
        if (recording.response().fault() != null) {
            response.put("fault", recording.response().fault());
        }
        ArrayNode events = response.putArray("events");
        recording.response().events().forEach(e -> events.addObject().put("at_ms", e.offsetMs()).put("data", e.data()));
        Recording.Metadata m = recording.metadata();
        ObjectNode metadata = root.putObject("metadata");
        metadata.put("provider", m.provider()).put("model", m.model()).put("date", m.date())
                .put("synthesized", m.synthesized());
        ArrayNode redacted = metadata.putArray("redacted");
        m.redacted().forEach(redacted::add);
        metadata.put("timing", m.timing());
        // Pretty-printed: each event is its own small block, so re-recorded streams diff readably.
        StringBuilder out = new StringBuilder(Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(root));
        return out.append('\n').toString();
    }
}
