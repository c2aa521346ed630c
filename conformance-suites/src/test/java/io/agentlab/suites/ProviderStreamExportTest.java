package io.agentlab.suites;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentlab.engine.Constants;
import io.agentlab.engine.ServiceLoaderKernelFactory;
import io.agentlab.engine.internal.execution.CaseRunner;
import io.agentlab.engine.internal.suite.RecordingLibrary;
import io.agentlab.engine.internal.suite.Suite;
import io.agentlab.engine.internal.suite.SuiteOrigin;
import io.agentlab.engine.internal.suite.SuiteReader;
import io.agentlab.kernel.api.EventPlugin;
import io.agentlab.kernel.api.InvocationMode;
import io.agentlab.runtime.llm.ChatCompletion;
import io.agentlab.runtime.llm.Json;
import io.agentlab.runtime.llm.ProviderException;
import io.agentlab.runtime.llm.StreamAccumulator;
import io.agentlab.runtime.llm.ToolCall;
import io.agentlab.providers.recorded.ProviderFamily;
import io.agentlab.providers.recorded.Recording;
import io.agentlab.providers.recorded.Recordings;
import io.agentlab.providers.recorded.TimedReplay;
import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Writes what the OpenAI SDK oracle ({@code oracles/openai-sdk}) judges: every provider stream the repository ships and
 * every stream the synthesizer makes for each case, turn and call of the shipped suites, in every provider family, one
 * JSON file per stream under {@code target/provider-streams/} with the SSE {@code data:} payloads in order and the
 * kit's own accumulation of them ({@link StreamAccumulator}), plus a {@code manifest.json} with the counts the oracle
 * must find. This test judges nothing itself; it fails only when it cannot find what it must export.
 */
class ProviderStreamExportTest {

    /** Where the export goes (the oracle module reads it from there). */
    static final Path OUT = Path.of("target/provider-streams");
    /** The repository root, seen from this module. */
    static final Path REPOSITORY = Path.of("..");
    /** The folders with shipped recordings; each must be found and hold at least one. */
    static final List<String> RECORDING_FOLDERS = List.of("providers-recorded/src/main/resources/recordings",
            "conformance-suites/src/main/resources/recordings", "engine/src/test/resources/recordings");
    static final Path SUITES = Path.of("src/main/resources/agentlab/suites");
    /** The corpus of provider stream shapes, under the repository root. */
    static final Path SHAPES = Path.of("providers-recorded/src/test/resources/recordings");
    /** Where the shapes alone go (the oracle's focused test reads them from there). */
    static final Path SHAPES_OUT = Path.of("target/shape-streams");
    /**
     * The replay fills usage placeholders with the prompt tokens of the request it receives; the export, which sends no
     * request, fills them with this figure.
     */
    static final int PROMPT_TOKENS = 1000;

    private final Map<String, int[]> counts = new TreeMap<>();
    private final List<Map<String, String>> skipped = new ArrayList<>();

    @Test
    @DisplayName("export every shipped and synthesized provider stream, in every family, for the OpenAI SDK oracle")
    void exportEveryStream() throws IOException {
        clean(OUT);
        Files.createDirectories(OUT);
        List<Path> recordings = shippedRecordings();
        for (Path file : recordings) {
            String origin = REPOSITORY.relativize(file).toString().replace('\\', '/');
            Recording recording = Recordings.parse(Files.readString(file), file.toString());
            if (recording.response().events().isEmpty()) {
                skipped.add(Map.of("id", recording.id(), "origin", origin, "reason", recording.response().fault() != null
                        ? "a transport fault (" + recording.response().fault() + "), no stream"
                        : "HTTP " + recording.response().status() + " with a JSON body, no stream"));
                continue;
            }
            // the family as the recording names it: a server outside the built-in families is openai-compatible
            export(recording, recording.metadata().provider(), "shipped", origin);
        }
        List<Suite> suites = suites();
        for (Suite suite : suites) {
            for (Suite.Case testCase : suite.cases()) {
                for (InvocationMode mode : testCase.modes()) {
                    for (int turn = 0; turn < testCase.turns().size(); turn++) {
                        if (!testCase.turns().get(turn).recordings().isEmpty()) {
                            continue; // answered by shipped recordings, exported above
                        }
                        for (ProviderFamily family : ProviderFamily.builtIns()) {
                            for (Recording recording : CaseRunner.synthesizedTurn(suite, testCase, turn, mode,
                                    Constants.DEFAULT_SEED, 0, family)) {
                                export(recording, family.wireName(), "synthesized", "suite " + suite.id() + ", case "
                                        + testCase.id() + ", turn " + turn + ", " + mode.wireName());
                            }
                        }
                    }
                }
            }
        }
        int streams = manifest(recordings.size(), suites.size());
        System.out.println("[provider-streams] exported " + streams + " streams to " + OUT.toAbsolutePath().normalize()
                + " (" + recordings.size() + " shipped recordings, " + skipped.size() + " without a stream; "
                + suites.size() + " suites):");
        counts.forEach((family, n) -> System.out.println("[provider-streams]   " + family + ": " + n[0] + " shipped, "
                + n[1] + " synthesized"));
        assertThat(counts.keySet()).as("every family has streams").contains("dashscope", "deepseek", "llamacpp",
                "openai");
        for (ProviderFamily family : ProviderFamily.builtIns()) {
            int[] n = counts.get(family.wireName());
            assertThat(n[0]).as(family.wireName() + " shipped").isPositive();
            assertThat(n[1]).as(family.wireName() + " synthesized").isPositive();
        }
    }

    /**
     * The corpus of stream shapes alone ({@code docs/recording.md#stream-shapes}), for the oracle's focused
     * {@code ShapeCorpusOracleTest}: each {@code shape-*.json} read as plain JSON — not through {@code Recordings.parse},
     * since the oracle judges the accumulation, not the family profile — and exported as above into
     * {@code target/shape-streams/}, with a manifest naming every shape. Fast: no suite is read.
     */
    @Test
    @DisplayName("export the corpus of provider stream shapes alone, for the oracle's focused test")
    void exportShapes() throws IOException {
        clean(SHAPES_OUT);
        Files.createDirectories(SHAPES_OUT);
        List<Path> files;
        try (Stream<Path> list = Files.list(REPOSITORY.resolve(SHAPES))) {
            files = list.filter(p -> p.getFileName().toString().matches("shape-.*\\.json")).sorted().toList();
        }
        assertThat(files).as("shapes in " + SHAPES).isNotEmpty();
        ObjectNode manifest = Json.MAPPER.createObjectNode();
        ArrayNode ids = manifest.putArray("shapes");
        for (Path file : files) {
            tools.jackson.databind.JsonNode recording = Json.tree(Files.readString(file));
            String id = recording.path("id").asString();
            String family = recording.path("metadata").path("provider").asString();
            ObjectNode out = Json.MAPPER.createObjectNode().put("id", id).put("family", family).put("source", "shipped")
                    .put("origin", REPOSITORY.relativize(file).toString().replace('\\', '/'));
            ArrayNode data = out.putArray("payloads");
            List<String> payloads = new ArrayList<>();
            recording.path("response").path("events").forEach(event ->
                    payloads.add(TimedReplay.fill(event.path("data").asString(), PROMPT_TOKENS)));
            payloads.forEach(data::add);
            out.set("kit", kit(payloads));
            Files.writeString(SHAPES_OUT.resolve(id + ".json"),
                    Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(out));
            ids.add(id);
        }
        manifest.put("streams", files.size());
        Files.writeString(SHAPES_OUT.resolve("manifest.json"),
                Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(manifest));
        System.out.println("[provider-streams] exported " + files.size() + " stream shapes to "
                + SHAPES_OUT.toAbsolutePath().normalize());
    }

    /** Every recording in the repository: each {@code *.json} in a {@code recordings} folder under a {@code src}. */
    static List<Path> shippedRecordings() throws IOException {
        List<Path> files = new ArrayList<>();
        Files.walkFileTree(REPOSITORY, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attributes) {
                String name = dir.getFileName() == null ? "" : dir.getFileName().toString();
                return Set.of("target", "node_modules", ".git").contains(name) ? FileVisitResult.SKIP_SUBTREE
                        : FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) {
                String path = REPOSITORY.relativize(file).toString().replace('\\', '/');
                if (path.endsWith(".json") && path.contains("/src/")
                        && file.getParent().getFileName().toString().equals("recordings")) {
                    files.add(file);
                }
                return FileVisitResult.CONTINUE;
            }
        });
        files.sort(Comparator.comparing(Path::toString));
        for (String folder : RECORDING_FOLDERS) {
            assertThat(files).as("recordings found in " + folder)
                    .anySatisfy(file -> assertThat(file.normalize()).startsWith(REPOSITORY.resolve(folder).normalize()));
        }
        return files;
    }

    private static List<Suite> suites() throws IOException {
        Set<String> events = new LinkedHashSet<>();
        for (EventPlugin plugin : new ServiceLoaderKernelFactory().plugins()) {
            events.add(plugin.definition().name());
        }
        SuiteReader.Context context = new SuiteReader.Context(events,
                new RecordingLibrary(List.of(), "recordings", ProviderStreamExportTest.class.getClassLoader()));
        List<Suite> suites = new ArrayList<>();
        List<Path> files;
        try (Stream<Path> list = Files.list(SUITES)) {
            files = list.filter(p -> p.toString().endsWith(".suite.yaml")).sorted().toList();
        }
        assertThat(files).as("shipped suites in " + SUITES).isNotEmpty();
        for (Path file : files) {
            SuiteReader.Result result = SuiteReader.read(SuiteOrigin.file(file), Files.readString(file), context);
            assertThat(result.problems()).as(file.toString()).isEmpty();
            suites.add(result.suite().orElseThrow());
        }
        return suites;
    }

    private void export(Recording recording, String family, String source, String origin) throws IOException {
        List<String> payloads = recording.response().events().stream()
                .map(event -> TimedReplay.fill(event.data(), PROMPT_TOKENS)).toList();
        ObjectNode out = Json.MAPPER.createObjectNode();
        out.put("id", recording.id());
        out.put("family", family);
        out.put("source", source);
        out.put("origin", origin);
        ArrayNode data = out.putArray("payloads");
        payloads.forEach(data::add);
        out.set("kit", kit(payloads));
        Path file = OUT.resolve(family).resolve(source).resolve(recording.id() + ".json");
        Files.createDirectories(file.getParent());
        if (Files.exists(file)) {
            throw new IllegalStateException("two streams share the id " + recording.id() + " (" + origin + ")");
        }
        Files.writeString(file, Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(out));
        counts.computeIfAbsent(family, f -> new int[2])[source.equals("shipped") ? 0 : 1]++;
    }

    /**
     * The kit's own accumulation: what the runtime's client makes of these payloads — choice 0 as the completion
     * (content, tool calls with their index, id, name and arguments, finish reason), the usage, and every choice apart
     * ({@code choices}: index, content, refusal, reasoning, tool calls, finish reason).
     */
    static ObjectNode kit(List<String> payloads) {
        ObjectNode kit = Json.MAPPER.createObjectNode();
        StreamAccumulator accumulator = new StreamAccumulator();
        ChatCompletion completion;
        try {
            payloads.forEach(accumulator::accept);
            completion = accumulator.complete(Duration.ZERO, Optional.empty(), Duration.ZERO);
        } catch (ProviderException e) {
            return kit.put("outcome", "rejected").put("error", e.kind().name()).put("message", e.getMessage());
        }
        kit.put("outcome", "completed");
        kit.put("content", completion.content());
        List<StreamAccumulator.Choice> choices = accumulator.choices();
        Map<Integer, ToolCall> answerCalls = choices.isEmpty() ? Map.of() : choices.get(0).toolCalls();
        calls(kit.putArray("toolCalls"), answerCalls);
        if (completion.finishReason() == null) {
            kit.putNull("finishReason");
        } else {
            kit.put("finishReason", completion.finishReason());
        }
        kit.set("usage", Json.MAPPER.valueToTree(completion.usage()));
        ArrayNode all = kit.putArray("choices");
        for (StreamAccumulator.Choice choice : choices) {
            ObjectNode out = all.addObject().put("index", choice.index()).put("content", choice.content())
                    .put("refusal", choice.refusal()).put("reasoning", choice.reasoning());
            calls(out.putArray("toolCalls"), choice.toolCalls());
            if (choice.finishReason() == null) {
                out.putNull("finishReason");
            } else {
                out.put("finishReason", choice.finishReason());
            }
        }
        return kit;
    }

    private static void calls(ArrayNode into, Map<Integer, ToolCall> calls) {
        calls.forEach((index, call) -> into.addObject().put("index", index).put("id", call.id())
                .put("name", call.name()).put("arguments", call.arguments()));
    }

    private int manifest(int recordings, int suites) throws IOException {
        ObjectNode manifest = Json.MAPPER.createObjectNode();
        int streams = counts.values().stream().mapToInt(n -> n[0] + n[1]).sum();
        manifest.put("streams", streams);
        ObjectNode families = manifest.putObject("families");
        counts.forEach((family, n) -> families.putObject(family).put("shipped", n[0]).put("synthesized", n[1]));
        manifest.put("shippedRecordings", recordings);
        manifest.put("suites", suites);
        manifest.put("promptTokens", PROMPT_TOKENS);
        ArrayNode skip = manifest.putArray("skipped");
        skipped.forEach(s -> skip.addObject().put("id", s.get("id")).put("origin", s.get("origin"))
                .put("reason", s.get("reason")));
        Files.writeString(OUT.resolve("manifest.json"),
                Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(manifest));
        return streams;
    }

    private static void clean(Path directory) throws IOException {
        if (!Files.exists(directory)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(directory)) {
            for (Path path : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        }
    }
}
