package io.agentlab.report.metrics;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Collection;
import org.apiguardian.api.API;

/**
 * The samples behind a {@link Figure}, one primitive {@code double} each: held sorted in memory (a figure made from
 * given values), or a column of a run's spool read back and sorted when asked for, so the figures of a long run hold
 * no sample (docs/performance.md#memory). Two are equal when they hold the same values.
 */
@API(status = INTERNAL, since = "0.2")
public abstract sealed class Samples permits Samples.Held, Samples.Column {

    /** No sample. */
    public static final Samples NONE = new Held(new double[0]);

    private Samples() {
    }

    /** {@code values}, sorted (a copy). */
    public static Samples of(double... values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return new Held(sorted);
    }

    /** {@code values}, sorted (a copy). */
    public static Samples of(Collection<? extends Number> values) {
        return of(values.stream().mapToDouble(Number::doubleValue).toArray());
    }

    /** The first {@code count} doubles of {@code file} (written big-endian, as {@code DataOutput} writes them). */
    static Samples column(Path file, int count) {
        return count == 0 ? NONE : new Column(file, count);
    }

    /** How many. */
    public abstract int size();

    /** Whether there is none. */
    public boolean isEmpty() {
        return size() == 0;
    }

    /** Every value, ascending (as {@link Arrays#sort(double[])} orders them), in an array of the caller's own. */
    public abstract double[] sorted();

    @Override
    public boolean equals(Object other) {
        return other instanceof Samples samples && samples.size() == size()
                && Arrays.equals(samples.sorted(), sorted());
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(sorted());
    }

    @Override
    public String toString() {
        return size() <= 10 ? Arrays.toString(sorted()) : size() + " samples";
    }

    /** Held in memory, sorted. */
    static final class Held extends Samples {

        private final double[] sorted;

        private Held(double[] sorted) {
            this.sorted = sorted;
        }

        @Override
        public int size() {
            return sorted.length;
        }

        @Override
        public double[] sorted() {
            return sorted.clone();
        }
    }

    /**
     * A column of a spool: the first {@code count} values of its file, read and sorted on each call. Later values
     * appended to the file (more turns) are not this figure's.
     */
    static final class Column extends Samples {

        private final Path file;
        private final int count;

        private Column(Path file, int count) {
            this.file = file;
            this.count = count;
        }

        @Override
        public int size() {
            return count;
        }

        @Override
        public double[] sorted() {
            double[] values = new double[count];
            try (InputStream in = Files.newInputStream(file);
                 DataInputStream data = new DataInputStream(new java.io.BufferedInputStream(in, 1 << 16))) {
                for (int i = 0; i < count; i++) {
                    values[i] = data.readDouble();
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read the samples in " + file + " (the run's spool, deleted "
                        + "when its reports are written)", e);
            }
            Arrays.sort(values);
            return values;
        }
    }
}
