package io.agentlab.report.metrics;

import java.io.BufferedOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * Numbered columns of doubles that only grow, and what each holds so far as {@link Samples}: in growable arrays, or
 * one file per column in a spool folder, so a run of any length keeps no sample in memory
 * (docs/performance.md#memory).
 */
abstract sealed class Columns {

    private Columns() {
    }

    /** Arrays in memory: for figures of a few turns (a test, a list of samples). */
    static Columns inMemory() {
        return new InMemory();
    }

    /** Files {@code c<number>.bin} in {@code folder}, which exists; each file is opened when its first value comes. */
    static Columns in(Path folder) {
        return new InFiles(folder);
    }

    /** Appends {@code value} to column {@code column}. */
    abstract void append(int column, double value);

    /** What column {@code column} holds now (later appends are not part of it), sorted when read. */
    abstract Samples snapshot(int column);

    /** Closes what is open; the files stay until their folder is deleted. */
    abstract void close();

    private static final class InMemory extends Columns {

        private final Map<Integer, double[]> values = new HashMap<>();
        private final Map<Integer, Integer> sizes = new HashMap<>();

        @Override
        void append(int column, double value) {
            int size = sizes.getOrDefault(column, 0);
            double[] array = values.computeIfAbsent(column, c -> new double[8]);
            if (size == array.length) {
                array = Arrays.copyOf(array, size * 2);
                values.put(column, array);
            }
            array[size] = value;
            sizes.put(column, size + 1);
        }

        @Override
        Samples snapshot(int column) {
            return Samples.of(Arrays.copyOf(values.getOrDefault(column, new double[0]), sizes.getOrDefault(column, 0)));
        }

        @Override
        void close() {
        }
    }

    private static final class InFiles extends Columns {

        private final Path folder;
        private final Map<Integer, DataOutputStream> open = new HashMap<>();
        private final Map<Integer, Integer> sizes = new HashMap<>();

        private InFiles(Path folder) {
            this.folder = folder;
        }

        private Path file(int column) {
            return folder.resolve("c" + column + ".bin");
        }

        @Override
        void append(int column, double value) {
            try {
                DataOutputStream out = open.get(column);
                if (out == null) {
                    file(column).toFile().deleteOnExit();
                    out = new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(file(column),
                            StandardOpenOption.CREATE, StandardOpenOption.APPEND), 4096));
                    open.put(column, out);
                }
                out.writeDouble(value);
                sizes.merge(column, 1, Integer::sum);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot write the run's samples into " + folder, e);
            }
        }

        @Override
        Samples snapshot(int column) {
            int size = sizes.getOrDefault(column, 0);
            DataOutputStream out = open.get(column);
            try {
                if (out != null) {
                    out.flush();
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot write the run's samples into " + folder, e);
            }
            return Samples.column(file(column), size);
        }

        @Override
        void close() {
            for (DataOutputStream out : open.values()) {
                try {
                    out.close();
                } catch (IOException e) {
                    // the samples are read from the file, not from this stream: nothing is lost that was flushed
                }
            }
            open.clear();
        }
    }
}
