package io.agentlab.report.metrics;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.agentlab.kernel.api.InvocationMode;
import io.agentlab.report.spool.LineSpool;
import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Consumer;
import org.apiguardian.api.API;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Collects the turns of an engine run (from any thread) and renders {@code metrics.json}: how the run was made, the
 * per-mode aggregates of the metric catalogue, each turn's figures with the {@link TurnRecord} they come from, and the
 * parity verdicts. A {@code metrics.json} reads back ({@link #read}) and the reports of disjoint shards
 * {@link #merge} into the report of the whole run, timelines included ({@code docs/engine.md#one-turn-record}).
 *
 * <p>Nothing of a turn stays in memory: each record is appended to a spool file of its suite as the turn finishes,
 * its figures to the columns of a {@link Tally}, and everything that reads the turns back reads them suite by suite
 * from disk, {@code metrics.json} included, which is written by a streaming generator
 * ({@code docs/performance.md#memory}). {@link #close()} deletes the spool.
 */
@API(status = INTERNAL, since = "0.1")
public final class MetricsReport implements AutoCloseable {

    /** metrics.json is indented, as it always was. */
    private static final JsonMapper MAPPER = JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();
    /** The spool's lines, one object each; and a file's parts, one value at a time (what follows is not trailing). */
    private static final JsonMapper LINES = JsonMapper.builder()
            .disable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS).build();
    /** A suite's turns in {@code metrics.json}'s order: case, mode (dual_agent first), turn. */
    private static final Comparator<TurnKey> TURN_ORDER = Comparator.comparing(TurnKey::caseId)
            .thenComparingInt(TurnKey::mode).thenComparingInt(TurnKey::turn);
    /** Differing cases named by {@link #parity()}; the rest are counted. */
    static final int NAMED_DIFFERENCES = 100;
    private static final String TURNS = "t:";
    private static final String PARITY = "p:";

    private final LineSpool spool = new LineSpool("agentlab-turns-");
    private final Map<String, Object> run = new LinkedHashMap<>();
    private final Map<String, Object> coverage = new LinkedHashMap<>();
    private final Map<String, String> timing = new LinkedHashMap<>();
    private final Set<String> models = new TreeSet<>();
    private final Map<TurnRecord.Timing, Long> timings = new EnumMap<>(TurnRecord.Timing.class);
    private final Map<InvocationMode, ModeMetrics> figures = new EnumMap<>(InvocationMode.class);
    private final List<String> differing = new ArrayList<>();
    private Tally tally;
    private long turns;
    private long parityCases;
    private long parityDiffering;

    /** A suite's turn in order: its case, its mode's position, its turn. */
    private record TurnKey(String caseId, int mode, int turn) {
    }

    /**
     * The parity verdicts so far.
     *
     * @param cases     cases judged
     * @param differing of them, cases whose modes differed
     * @param named     the first {@value #NAMED_DIFFERENCES} differing cases ({@code suite/case}), in the order judged
     */
    public record Parity(long cases, long differing, List<String> named) {
        /** Copies. */
        public Parity {
            named = List.copyOf(named);
        }
    }

    /** Adds a turn. */
    public synchronized void add(TurnRecord record) {
        Map<String, Object> turn = turnFigures(record.sample());
        turn.put("record", record.toMap());
        spool.append(TURNS + record.suiteId(), LINES.writeValueAsString(turn));
        if (tally == null) {
            tally = new Tally(Columns.in(columnsFolder()));
        }
        tally.add(record.sample());
        figures.clear();
        turns++;
        timings.merge(record.timing(), 1L, Long::sum);
        record.calls().forEach(call -> models.add(call.model()));
    }

    private Path columnsFolder() {
        try {
            Path folder = Files.createDirectories(spool.folder().resolve("columns"));
            folder.toFile().deleteOnExit(); // after its files, which register later
            return folder;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot make the columns of " + spool.folder(), e);
        }
    }

    /** Notes how the run was made ({@code metrics.json}'s {@code run}: date, kit version, commit, provider, ...). */
    public synchronized void run(Map<String, Object> metadata) {
        run.clear();
        run.putAll(metadata);
    }

    /**
     * Notes what the launch covered ({@code metrics.json}'s {@code coverage}; {@code agentlab baseline} refuses a
     * partial one). A report read back, or merged from shards, has none: it stands for whole suites.
     */
    public synchronized void coverage(Map<String, Object> coverage) {
        this.coverage.clear();
        this.coverage.putAll(coverage);
    }

    /** How the run was made, as noted or read back; empty when nobody said. */
    public synchronized Map<String, Object> run() {
        return new LinkedHashMap<>(run);
    }

    /** How many turns were added. */
    public synchronized long turns() {
        return turns;
    }

    /** The models the turns' calls named, sorted. */
    public synchronized List<String> models() {
        return List.copyOf(models);
    }

    /** How many turns were timed each way. */
    public synchronized Map<TurnRecord.Timing, Long> timingCounts() {
        return new EnumMap<>(timings);
    }

    /**
     * Every turn, in a stable order (suite, case, mode, turn), read back from the spool one suite at a time: what
     * {@code metrics.json} and the reports are assembled from.
     */
    public synchronized void forEachRecord(Consumer<TurnRecord> each) {
        forEachTurn(line -> each.accept(TurnRecord.fromJson(LINES.readTree(line))));
    }

    /**
     * Every turn read back into one list, in the order of {@link #forEachRecord}: for a few turns (a test, a small
     * merge); a run's reports read them one at a time instead.
     */
    public synchronized List<TurnRecord> records() {
        List<TurnRecord> records = new ArrayList<>();
        forEachRecord(records::add);
        return records;
    }

    /** Every turn's timeline, in the order of {@link #records()}; as that, for a few turns. */
    public List<TurnTimeline> timelines() {
        return records().stream().map(TurnRecord::timeline).toList();
    }

    /** Every turn's metrics view, in the order of {@link #records()}; as that, for a few turns (an evaluation's). */
    public List<TurnSample> samples() {
        return records().stream().map(TurnRecord::sample).toList();
    }

    /** Every turn's line in {@code metrics.json}'s order: suites by id, then case, mode and turn. */
    private void forEachTurn(Consumer<String> each) {
        for (String group : spool.groups()) {
            if (group.startsWith(TURNS)) {
                spool.forEachSorted(group, MetricsReport::turnKey, TURN_ORDER, each);
            }
        }
    }

    /** The order key of a turn's line, from its first fields ({@code suite}, {@code case}, {@code mode}, {@code turn}). */
    private static TurnKey turnKey(String line) {
        String caseId = null;
        int mode = -1;
        int turn = -1;
        try (JsonParser parser = LINES.createParser(line)) {
            parser.nextToken();
            while (parser.nextToken() == JsonToken.PROPERTY_NAME && (caseId == null || mode < 0 || turn < 0)) {
                String name = parser.currentName();
                parser.nextToken();
                switch (name) {
                    case "case" -> caseId = parser.getString();
                    case "mode" -> mode = InvocationMode.fromWireName(parser.getString()).ordinal();
                    case "turn" -> turn = parser.getIntValue();
                    default -> parser.skipChildren();
                }
            }
        }
        return new TurnKey(caseId, mode, turn);
    }

    /** Notes how a suite's streams were timed (replayed recordings, or a latency model). */
    public synchronized void timing(String suiteId, String description) {
        timing.put(suiteId, description);
    }

    /** Notes a case's parity verdict: whether its modes agreed. */
    public synchronized void parity(String suiteId, String caseId, boolean agreed) {
        Map<String, Object> line = new LinkedHashMap<>();
        line.put("case", caseId);
        line.put("agreed", agreed);
        spool.append(PARITY + suiteId, LINES.writeValueAsString(line));
        parityCases++;
        if (!agreed) {
            parityDiffering++;
            if (differing.size() < NAMED_DIFFERENCES) {
                differing.add(suiteId + "/" + caseId);
            }
        }
    }

    /** The parity verdicts so far, counted. */
    public synchronized Parity parity() {
        return new Parity(parityCases, parityDiffering, differing);
    }

    /** Every parity verdict ({@code suite/case} → whether the modes agreed), sorted by key; for a few cases. */
    public synchronized Map<String, Boolean> parityVerdicts() {
        Map<String, Boolean> verdicts = new TreeMap<>();
        forEachParity((key, agreed) -> verdicts.put(key, agreed));
        return verdicts;
    }

    /** A parity verdict read back. */
    private interface ParityVisitor {
        void verdict(String key, boolean agreed);
    }

    /**
     * Every verdict in the order of its key {@code suite/case}: suites by {@code id + "/"} (which is how those keys
     * sort: {@code a-b/x} before {@code a/x}), then by case.
     */
    private void forEachParity(ParityVisitor each) {
        List<String> suites = new ArrayList<>();
        for (String group : spool.groups()) {
            if (group.startsWith(PARITY)) {
                suites.add(group.substring(PARITY.length()));
            }
        }
        suites.sort(Comparator.comparing(suite -> suite + "/"));
        for (String suite : suites) {
            spool.forEachSorted(PARITY + suite, line -> LINES.readTree(line).path("case").asString(),
                    Comparator.<String>naturalOrder(), line -> {
                        JsonNode verdict = LINES.readTree(line);
                        each.verdict(suite + "/" + verdict.path("case").asString(), verdict.path("agreed").asBoolean());
                    });
        }
    }

    /** Per suite, how its streams were timed. */
    public synchronized Map<String, String> timings() {
        return new LinkedHashMap<>(timing);
    }

    /**
     * The aggregates of one mode, over every turn added so far: computed once (until the next turn comes), reading
     * the samples back one metric at a time.
     */
    public synchronized ModeMetrics mode(InvocationMode mode) {
        return figures.computeIfAbsent(mode, m -> (tally == null ? new Tally(Columns.inMemory()) : tally).mode(m));
    }

    /** The report as JSON (for a few turns: a run writes its file with {@link #writeJson}). */
    public String toJson() {
        StringWriter out = new StringWriter();
        try {
            writeJson(out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString();
    }

    /**
     * Writes the report as JSON, as it goes: the run, the coverage, the timings and the parity verdicts, the per-mode
     * figures, then every turn read back from the spool one suite at a time; the same text one serialization of the
     * whole report gave.
     */
    public synchronized void writeJson(Writer out) throws IOException {
        try (JsonGenerator json = MAPPER.createGenerator(out)) {
            json.writeStartObject();
            json.writeStringProperty("engine", "agentlab-conformance");
            json.writeStringProperty("contract", "docs/design.md#usage-fair-comparison; docs/design.md#metrics-per-mode");
            json.writePOJOProperty("run", new LinkedHashMap<>(run));
            if (!coverage.isEmpty()) {
                json.writePOJOProperty("coverage", new LinkedHashMap<>(coverage));
            }
            // sorted, so the file is the same whatever order cases finished in (parallel runs, shards)
            json.writePOJOProperty("timing", new TreeMap<>(timing));
            json.writeName("parity");
            json.writeStartObject();
            forEachParity(json::writeBooleanProperty);
            json.writeEndObject();
            Map<String, Object> modes = new LinkedHashMap<>();
            for (InvocationMode mode : InvocationMode.values()) {
                ModeMetrics metrics = mode(mode);
                if (metrics.turns() > 0) {
                    modes.put(mode.wireName(), metrics.toMap());
                }
            }
            json.writePOJOProperty("modes", modes);
            json.writeName("turns");
            json.writeStartArray();
            forEachTurn(line -> {
                try (JsonParser turn = LINES.createParser(line)) {
                    turn.nextToken();
                    json.copyCurrentStructure(turn);
                }
            });
            json.writeEndArray();
            json.writeEndObject();
        } catch (JacksonException e) {
            if (e.getCause() instanceof IOException io) {
                throw io;
            }
            throw e;
        }
    }

    /** One turn's figures, as published in report entries and {@code metrics.json}: the catalogue's per-turn keys. */
    public static Map<String, Object> turnFigures(TurnSample sample) {
        Map<String, Object> figures = new LinkedHashMap<>();
        figures.put("suite", sample.suiteId());
        figures.put("case", sample.caseId());
        figures.put("mode", sample.mode().wireName());
        figures.put("turn", sample.turnIndex() + 1);
        figures.put("timing", sample.timing().wireName());
        for (Metric metric : Metric.values()) {
            metric.turnKey().ifPresent(key -> {
                List<Double> values = metric.contribution(sample).samples();
                Double value = values.isEmpty() ? null : values.get(0);
                figures.put(key, value == null || metric.unit() == Metric.Unit.MS ? value : (Object) value.longValue());
            });
        }
        figures.put("events", sample.events());
        figures.put("visibleWithheldUntilToolCalls", sample.visibleWithheld());
        return figures;
    }

    /**
     * Reads a {@code metrics.json} back: its turns, timings and parity verdicts, enough to recompute every per-mode
     * figure and gate; for a small text (a test), as {@link #read(Path)} does a file.
     *
     * @throws IllegalArgumentException when it is not a metrics file of this engine
     */
    public static MetricsReport fromJson(String json) {
        return read(new StringReader(json), "the text");
    }

    /**
     * Reads a {@code metrics.json} file back as it goes, one turn at a time, into a report of its own (spooled as a
     * run's is): its turns, timings, parity verdicts, run and coverage.
     *
     * @throws IllegalArgumentException when it is not a metrics file of this engine, or not JSON
     * @throws UncheckedIOException     when it cannot be read
     */
    public static MetricsReport read(Path file) {
        try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            return read(in, file.toString());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
        }
    }

    private static MetricsReport read(Reader in, String what) {
        MetricsReport report = new MetricsReport();
        try (JsonParser json = LINES.createParser(in)) {
            if (json.nextToken() != JsonToken.START_OBJECT) {
                throw notMetrics();
            }
            boolean engine = false;
            while (json.nextToken() == JsonToken.PROPERTY_NAME) {
                String name = json.currentName();
                JsonToken value = json.nextToken();
                switch (name) {
                    case "engine" -> engine = value == JsonToken.VALUE_STRING
                            && "agentlab-conformance".equals(json.getString());
                    case "turns" -> {
                        if (!engine) {
                            throw notMetrics();
                        }
                        if (value == JsonToken.START_ARRAY) {
                            while (json.nextToken() == JsonToken.START_OBJECT) {
                                report.add(TurnRecord.fromJson(LINES.readTree(json)));
                            }
                        }
                    }
                    case "parity" -> {
                        if (value == JsonToken.START_OBJECT) {
                            while (json.nextToken() == JsonToken.PROPERTY_NAME) {
                                String key = json.currentName();
                                json.nextToken();
                                int slash = key.indexOf('/');
                                report.parity(key.substring(0, Math.max(slash, 0)), key.substring(slash + 1),
                                        json.getValueAsBoolean());
                            }
                        }
                    }
                    case "timing" -> LINES.readTree(json).properties()
                            .forEach(e -> report.timing.put(e.getKey(), e.getValue().asString()));
                    // read back as written; a merge of shards never copies it, since the merged run covers the whole
                    case "coverage" -> report.coverage.putAll(map(LINES.readTree(json)));
                    case "run" -> report.run.putAll(map(LINES.readTree(json)));
                    default -> json.skipChildren();
                }
            }
            if (!engine) {
                throw notMetrics();
            }
            return report;
        } catch (JacksonException e) {
            report.close();
            throw new IllegalArgumentException(what + " is not JSON: " + e.getOriginalMessage(), e);
        } catch (RuntimeException e) {
            report.close();
            throw e;
        }
    }

    private static IllegalArgumentException notMetrics() {
        return new IllegalArgumentException("not a metrics.json of the agentlab-conformance engine");
    }

    private static Map<String, Object> map(JsonNode node) {
        return node.isObject() ? LINES.convertValue(node, new TypeReference<Map<String, Object>>() { }) : Map.of();
    }

    /**
     * The top of a {@code metrics.json} (or a baseline file), read as it goes without keeping its turns: every
     * top-level property, with {@code turns} and {@code parity} replaced by how many they hold. What a comparison
     * with an earlier run or a baseline refresh reads ({@code modes}, {@code run}, {@code coverage}).
     *
     * @throws IOException      when it cannot be read
     * @throws JacksonException when it is not JSON
     */
    public static JsonNode head(Path file) throws IOException {
        try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8);
             JsonParser json = LINES.createParser(in)) {
            ObjectNode head = LINES.createObjectNode();
            if (json.nextToken() != JsonToken.START_OBJECT) {
                return head; // JSON, but no object: it holds none of the properties asked for
            }
            while (json.nextToken() == JsonToken.PROPERTY_NAME) {
                String name = json.currentName();
                JsonToken value = json.nextToken();
                if ((name.equals("turns") || name.equals("parity")) && value.isStructStart()) {
                    int count = 0;
                    for (JsonToken item = json.nextToken(); item != JsonToken.END_ARRAY && item != JsonToken.END_OBJECT;
                         item = json.nextToken()) {
                        if (item == JsonToken.PROPERTY_NAME) {
                            item = json.nextToken();
                        }
                        json.skipChildren();
                        count++;
                    }
                    head.put(name, count);
                } else {
                    head.set(name, LINES.readTree(json));
                }
            }
            return head;
        } catch (JacksonException e) {
            if (e.getCause() instanceof IOException io) {
                throw io;
            }
            throw e;
        }
    }

    /**
     * The reports of runs over disjoint shares of the cases, as one: the turns, timings and parity verdicts of all.
     *
     * @throws IllegalArgumentException when two reports hold the same turn (the shares overlap)
     */
    public static MetricsReport merge(List<MetricsReport> parts) {
        MetricsReport merged = new MetricsReport();
        for (MetricsReport part : parts) {
            part.forEachRecord(merged::add);
            part.forEachParity((key, agreed) -> {
                int slash = key.indexOf('/');
                merged.parity(key.substring(0, slash), key.substring(slash + 1), agreed);
            });
            merged.timing.putAll(part.timings());
            if (merged.run.isEmpty()) {
                merged.run.putAll(part.run()); // the shards ran with one configuration (the merge checks it)
            }
        }
        // a suite's turns are read back sorted: the same turn twice comes out twice in a row
        TurnRecord[] previous = {null};
        List<String> repeated = new ArrayList<>();
        merged.forEachRecord(record -> {
            TurnRecord last = previous[0];
            if (repeated.isEmpty() && last != null && last.suiteId().equals(record.suiteId())
                    && last.caseId().equals(record.caseId()) && last.mode() == record.mode()
                    && last.turnIndex() == record.turnIndex()) {
                repeated.add(record.suiteId() + "/" + record.caseId() + " " + record.mode().wireName() + " turn "
                        + (record.turnIndex() + 1));
            }
            previous[0] = record;
        });
        if (!repeated.isEmpty()) {
            merged.close();
            throw new IllegalArgumentException("two shards both ran " + repeated.get(0));
        }
        return merged;
    }

    /** Deletes the spool: the turns can no longer be read back, nor the figures' samples. */
    @Override
    public synchronized void close() {
        spool.close();
    }

    @Override
    public String toString() {
        return "MetricsReport[" + turns + " turns]";
    }
}
