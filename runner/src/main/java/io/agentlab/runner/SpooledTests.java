package io.agentlab.runner;

import io.agentlab.report.TestOutcome;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.AbstractList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A run's tests as {@code results.json} lists them, in the order they finished, kept in a file of JSON lines (each the
 * entry {@code results.json} writes) instead of memory: the list holds each line's place and the counts the summary
 * needs, and reads a test back when asked (docs/performance.md#memory); a pass over the list (a stream, a loop) reads
 * the file once from its start. Appended to while the run goes, read
 * afterwards; the file is deleted when the JVM exits.
 */
final class SpooledTests extends AbstractList<TestOutcome> {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final Path file;
    private final Writer out;
    private final Map<TestOutcome.Status, Long> counts = new EnumMap<>(TestOutcome.Status.class);
    private long[] offsets = new long[1024];
    private int size;
    private long length;
    private long executedCaseTests;

    private SpooledTests(Path file) throws IOException {
        this.file = file;
        this.out = new BufferedWriter(Files.newBufferedWriter(file, StandardCharsets.UTF_8), 1 << 16);
    }

    /** An empty list in a new file of the system's temporary directory. */
    static SpooledTests create() {
        try {
            Path file = Files.createTempFile("agentlab-results-", ".jsonl");
            file.toFile().deleteOnExit();
            return new SpooledTests(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot make a spool file in " + System.getProperty("java.io.tmpdir"), e);
        }
    }

    /** Appends {@code test}. */
    synchronized void append(TestOutcome test) {
        appendLine(JSON.writeValueAsString(test.toMap()), test.status(), executed(test));
    }

    /** Appends a test given as its {@code results.json} entry (read from a file). */
    synchronized void append(JsonNode entry) {
        TestOutcome test = TestOutcome.fromJson(entry);
        appendLine(JSON.writeValueAsString(entry), test.status(), executed(test));
    }

    private void appendLine(String line, TestOutcome.Status status, boolean executed) {
        if (size == offsets.length) {
            offsets = Arrays.copyOf(offsets, size * 2);
        }
        offsets[size++] = length;
        byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
        length += bytes.length + 1;
        try {
            out.write(line);
            out.write('\n');
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the run's results into " + file, e);
        }
        counts.merge(status, 1L, Long::sum);
        executedCaseTests += executed ? 1 : 0;
    }

    /** Mode and parity tests that ran (passed, failed or aborted); gates and failed containers not counted. */
    private static boolean executed(TestOutcome test) {
        return ("mode".equals(test.kind()) || "parity".equals(test.kind()))
                && test.status() != TestOutcome.Status.SKIPPED;
    }

    /** How many tests ended with {@code status}. */
    synchronized long count(TestOutcome.Status status) {
        return counts.getOrDefault(status, 0L);
    }

    /** Mode and parity tests that ran. */
    synchronized long executedCaseTests() {
        return executedCaseTests;
    }

    @Override
    public synchronized int size() {
        return size;
    }

    @Override
    public synchronized TestOutcome get(int index) {
        if (index < 0 || index >= size) {
            throw new IndexOutOfBoundsException(index + " of " + size);
        }
        flush();
        long end = index + 1 < size ? offsets[index + 1] : length;
        ByteBuffer bytes = ByteBuffer.allocate((int) (end - offsets[index] - 1));
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            while (bytes.hasRemaining()) {
                if (channel.read(bytes, offsets[index] + bytes.position()) < 0) {
                    throw new IOException("the file ended early");
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the run's results in " + file, e);
        }
        return TestOutcome.fromJson(JSON.readTree(new String(bytes.array(), StandardCharsets.UTF_8)));
    }

    /** Reads the file from its start: what a pass over every test (writing results.json) costs, once. */
    @Override
    public Iterator<TestOutcome> iterator() {
        int count;
        synchronized (this) {
            flush();
            count = size;
        }
        BufferedReader reader;
        try {
            reader = Files.newBufferedReader(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the run's results in " + file, e);
        }
        return new Iterator<>() {
            private int read;

            @Override
            public boolean hasNext() {
                if (read < count) {
                    return true;
                }
                try {
                    reader.close();
                } catch (IOException e) {
                    // read to its end: nothing is lost
                }
                return false;
            }

            @Override
            public TestOutcome next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                try {
                    read++;
                    return TestOutcome.fromJson(JSON.readTree(reader.readLine()));
                } catch (IOException e) {
                    throw new UncheckedIOException("cannot read the run's results in " + file, e);
                }
            }
        };
    }

    private void flush() {
        try {
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the run's results into " + file, e);
        }
    }
}
