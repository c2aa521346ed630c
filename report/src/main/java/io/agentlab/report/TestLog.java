package io.agentlab.report;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.agentlab.report.spool.LineSpool;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Consumer;
import org.apiguardian.api.API;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Every test's outcome of a run, as the tests finish (from any thread), for the reports' results list: counted in
 * memory, and each outcome appended to a spool file of its suite, so a run of any length keeps only counts, the
 * suites and the first {@value #LISTED_BROKEN} broken tests (docs/performance.md#memory). The reports read a suite's
 * tests back in their order (failed, aborted, skipped, passed; then by id), one suite at a time. {@link #close()}
 * deletes the spool.
 */
@API(status = INTERNAL, since = "0.2")
public final class TestLog implements AutoCloseable {

    /** The group of the tests that belong to no suite (the gates). */
    public static final String GATES = "gates";
    /** Broken tests kept to be listed in full, first in report order; the reports count the others. */
    public static final int LISTED_BROKEN = 500;

    /** The reports' order of tests: failures first, then by suite (gates last) and id. */
    public static final Comparator<TestOutcome> ORDER = Comparator.comparing(TestOutcome::status)
            .thenComparing(o -> o.suite().orElse("~")).thenComparing(TestOutcome::id);

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final LineSpool spool = new LineSpool("agentlab-tests-");
    private final Map<TestOutcome.Status, Long> counts = new EnumMap<>(TestOutcome.Status.class);
    private final Map<String, long[]> suites = new TreeMap<>();
    private final TreeSet<TestOutcome> broken = new TreeSet<>(ORDER);
    private final Set<String> tags = new TreeSet<>();
    private final Set<String> filterModes = new TreeSet<>();
    private long size;
    private long brokenCount;

    /**
     * A suite's group in the reports.
     *
     * @param name   the suite id, or {@value #GATES}
     * @param tests  its tests
     * @param broken of them, failed or aborted
     */
    public record Suite(String name, long tests, long broken) {
    }

    /** A log of {@code outcomes} (for a report made of given outcomes: a merge, a test). */
    public static TestLog of(Collection<TestOutcome> outcomes) {
        TestLog log = new TestLog();
        outcomes.forEach(log::add);
        return log;
    }

    /** Adds a test's outcome. */
    public synchronized void add(TestOutcome outcome) {
        String group = outcome.suite().orElse(GATES);
        spool.append(group, JSON.writeValueAsString(outcome.toMap()));
        size++;
        counts.merge(outcome.status(), 1L, Long::sum);
        long[] suite = suites.computeIfAbsent(group, name -> new long[2]);
        suite[0]++;
        if (outcome.broken()) {
            suite[1]++;
            brokenCount++;
            broken.add(outcome);
            if (broken.size() > LISTED_BROKEN) {
                broken.pollLast();
            }
        }
        tags.addAll(outcome.tags());
        String mode = outcome.kind().equals("gate") ? "gate" : outcome.mode();
        if (!mode.isEmpty()) {
            filterModes.add(mode);
        }
    }

    /** How many tests. */
    public synchronized long size() {
        return size;
    }

    /** How many tests ended with {@code status}. */
    public synchronized long count(TestOutcome.Status status) {
        return counts.getOrDefault(status, 0L);
    }

    /** How many tests failed or were aborted. */
    public synchronized long brokenCount() {
        return brokenCount;
    }

    /** The first {@value #LISTED_BROKEN} failed and aborted tests, in report order. */
    public synchronized List<TestOutcome> broken() {
        return List.copyOf(broken);
    }

    /** The suites in report order: those with a broken test first, then by id; gates last. */
    public synchronized List<Suite> suites() {
        List<Suite> list = new ArrayList<>();
        suites.forEach((name, count) -> list.add(new Suite(name, count[0], count[1])));
        list.sort(Comparator.comparing((Suite suite) -> suite.broken() == 0).thenComparing(s -> s.name().equals(GATES))
                .thenComparing(Suite::name));
        return list;
    }

    /** Every tag of every test, sorted. */
    public synchronized Set<String> tags() {
        return new TreeSet<>(tags);
    }

    /** What the report's mode filter offers: each test's mode, or {@code gate} for a gate; sorted. */
    public synchronized Set<String> filterModes() {
        return new TreeSet<>(filterModes);
    }

    /** The tests of {@code suite} (a suite id or {@value #GATES}), in report order, read back from the spool. */
    public synchronized void forEach(String suite, Consumer<TestOutcome> each) {
        // within a suite the report's order is by status, then id: only those are held while the suite is sorted
        spool.forEachSorted(suite, line -> {
            JsonNode test = JSON.readTree(line);
            return new Key(TestOutcome.Status.fromWireName(test.path("status").asString()), test.path("id").asString());
        }, KEY_ORDER, line -> each.accept(TestOutcome.fromJson(JSON.readTree(line))));
    }

    /** A test's place within its suite. */
    private record Key(TestOutcome.Status status, String id) {
    }

    private static final Comparator<Key> KEY_ORDER = Comparator.comparing(Key::status).thenComparing(Key::id);

    /** Every test in report order, suite by suite; for a few tests (a test of the reports). */
    public synchronized List<TestOutcome> all() {
        List<TestOutcome> all = new ArrayList<>();
        suites().forEach(suite -> forEach(suite.name(), all::add));
        all.sort(ORDER);
        return all;
    }

    /** Deletes the spool. */
    @Override
    public synchronized void close() {
        spool.close();
    }
}
