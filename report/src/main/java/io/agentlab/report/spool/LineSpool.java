package io.agentlab.report.spool;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.io.BufferedWriter;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.stream.Stream;
import org.apiguardian.api.API;

/**
 * Lines of text appended by group (a run's suites), one file per group in a folder of the system's temporary
 * directory, and read back group by group, in the order they were written or sorted by a key: what a run keeps of
 * its turns and tests while it goes, so that only one group is ever read into memory at once
 * (docs/performance.md#memory). The folder is made by the first line and deleted by {@link #close()} (and, should the
 * JVM end first, when it exits normally). Thread-safe.
 */
@API(status = INTERNAL, since = "0.2")
public final class LineSpool implements AutoCloseable {

    /** Files kept open for appending at once; a group's cases mostly run together, so few are needed. */
    private static final int OPEN_FILES = 8;

    private final String prefix;
    private final Map<String, Group> groups = new HashMap<>();
    private final Map<String, Writer> open = new LinkedHashMap<>(16, 0.75f, true);
    private Path folder;
    private boolean closed;

    /** The line count and file of one group. */
    private static final class Group {
        private final Path file;
        private long lines;

        Group(Path file) {
            this.file = file;
        }
    }

    /**
     * A spool whose folder's name starts with {@code prefix} ({@code agentlab-turns-}).
     *
     * @param prefix what the folder's name starts with
     */
    public LineSpool(String prefix) {
        this.prefix = prefix;
    }

    /** The spool's folder, made now if no line made it yet: a place for other files of the same run. */
    public synchronized Path folder() {
        if (closed) {
            throw new IllegalStateException("the spool is closed");
        }
        if (folder == null) {
            try {
                folder = Files.createTempDirectory(prefix);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot make a spool folder in " + System.getProperty("java.io.tmpdir"),
                        e);
            }
            folder.toFile().deleteOnExit();
        }
        return folder;
    }

    /** Appends {@code line} (no line break in it) to {@code group}. */
    public synchronized void append(String group, String line) {
        Group target = groups.get(group);
        if (target == null) {
            Path file = folder().resolve("g" + groups.size() + ".jsonl");
            file.toFile().deleteOnExit();
            target = new Group(file);
            groups.put(group, target);
        }
        try {
            Writer writer = open.get(group);
            if (writer == null) {
                if (open.size() == OPEN_FILES) {
                    Map.Entry<String, Writer> eldest = open.entrySet().iterator().next();
                    eldest.getValue().close();
                    open.remove(eldest.getKey());
                }
                writer = new BufferedWriter(Files.newBufferedWriter(target.file, StandardCharsets.UTF_8,
                        StandardOpenOption.CREATE, StandardOpenOption.APPEND), 8192);
                open.put(group, writer);
            }
            writer.write(line);
            writer.write('\n');
            target.lines++;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write into the spool " + folder, e);
        }
    }

    /** The groups that have lines, sorted. */
    public synchronized Set<String> groups() {
        return new TreeSet<>(groups.keySet());
    }

    /** How many lines {@code group} has. */
    public synchronized long lines(String group) {
        Group target = groups.get(group);
        return target == null ? 0 : target.lines;
    }

    /** How many lines all groups have. */
    public synchronized long lines() {
        return groups.values().stream().mapToLong(group -> group.lines).sum();
    }

    /** Every line of {@code group}, in the order they were appended. */
    public synchronized void forEach(String group, Consumer<String> each) {
        Group target = readable(group);
        if (target != null) {
            scan(target, (offset, length, line) -> each.accept(line));
        }
    }

    /**
     * Every line of {@code group} in the order of its key (lines with equal keys in the order they were appended): the
     * keys and each line's place are held in memory, the lines themselves are read again one at a time.
     *
     * @param key   a line's sort key (small: it is kept for every line of the group)
     * @param order the keys' order
     * @param each  receives the lines in that order
     */
    public synchronized <K> void forEachSorted(String group, Function<String, K> key, Comparator<? super K> order,
                                               Consumer<String> each) {
        Group target = readable(group);
        if (target == null) {
            return;
        }
        record Place<K>(K key, long offset, int length) {
        }
        List<Place<K>> places = new ArrayList<>();
        scan(target, (offset, length, line) -> places.add(new Place<>(key.apply(line), offset, length)));
        places.sort(Comparator.comparing(Place::key, order));
        try (FileChannel channel = FileChannel.open(target.file, StandardOpenOption.READ)) {
            for (Place<K> place : places) {
                ByteBuffer bytes = ByteBuffer.allocate(place.length());
                while (bytes.hasRemaining()) {
                    if (channel.read(bytes, place.offset() + bytes.position()) < 0) {
                        throw new IOException("the spool ended early");
                    }
                }
                each.accept(new String(bytes.array(), StandardCharsets.UTF_8));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the spool " + target.file, e);
        }
    }

    /** A line read, with the offset of its first byte in the file and its length in bytes. */
    private interface LineVisitor {
        void line(long offset, int length, String line);
    }

    /** Reads the group's file in blocks and hands over each line. */
    private static void scan(Group group, LineVisitor visitor) {
        try (InputStream in = Files.newInputStream(group.file)) {
            byte[] block = new byte[1 << 16];
            ByteArrayOutputStream partial = new ByteArrayOutputStream(1024);
            long lineStart = 0;
            long position = 0;
            for (int read = in.read(block); read >= 0; read = in.read(block)) {
                int from = 0;
                for (int i = 0; i < read; i++) {
                    if (block[i] == '\n') {
                        String line;
                        if (partial.size() == 0) {
                            line = new String(block, from, i - from, StandardCharsets.UTF_8);
                        } else {
                            partial.write(block, from, i - from);
                            line = partial.toString(StandardCharsets.UTF_8);
                            partial.reset();
                        }
                        visitor.line(lineStart, (int) (position + i - lineStart), line);
                        lineStart = position + i + 1;
                        from = i + 1;
                    }
                }
                partial.write(block, from, read - from);
                position += read;
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the spool " + group.file, e);
        }
    }

    /** The group's file with every line written to it, or null when it has none. */
    private Group readable(String group) {
        Group target = groups.get(group);
        if (target == null) {
            return null;
        }
        Writer writer = open.get(group);
        if (writer != null) {
            try {
                writer.flush();
            } catch (IOException e) {
                throw new UncheckedIOException("cannot write into the spool " + folder, e);
            }
        }
        return target;
    }

    /** Deletes every file and the folder; the spool cannot be written or read afterwards. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        for (Writer writer : open.values()) {
            try {
                writer.close();
            } catch (IOException e) {
                // the folder is deleted next: nothing in the buffer is wanted any more
            }
        }
        open.clear();
        groups.clear();
        if (folder != null) {
            delete(folder);
        }
    }

    /** Deletes {@code root} and everything under it, as far as it can. */
    static void delete(Path root) {
        try (Stream<Path> files = Files.walk(root)) {
            for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(file);
            }
        } catch (IOException | UncheckedIOException e) {
            // a temporary folder left behind is the system's to clean; the run's results are written already
        }
    }
}
