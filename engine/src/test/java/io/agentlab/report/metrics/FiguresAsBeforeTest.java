package io.agentlab.report.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

import io.agentlab.kernel.api.InvocationMode;
import io.agentlab.runtime.llm.CallRole;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quicktheories.core.Gen;

/**
 * A mode's figures added up in constant memory (a {@link Tally} over spooled columns, in whatever order the turns
 * finished) are exactly the figures of the list aggregation they replaced, kept here as the oracle: every sample
 * sorted, nearest-rank p50 and p95, means, sums and rates (docs/performance.md#memory). QuickTheories' printed seed
 * replays a failure with {@code -Dagentlab-build.properties.seed=N}.
 */
class FiguresAsBeforeTest {

    private static final int EXAMPLES = Integer.getInteger("agentlab-build.properties.examples", 300);
    private static final Long SEED = Long.getLong("agentlab-build.properties.seed");

    @TempDir
    Path temp;

    @Test
    @DisplayName("property: the spooled tally's figures equal the old in-memory aggregation's, in any finishing order")
    void sameFigures() {
        Gen<Long> seeds = longs().all();
        Gen<Integer> counts = integers().between(0, 60);
        var theory = SEED == null ? qt().withExamples(EXAMPLES) : qt().withExamples(EXAMPLES).withFixedSeed(SEED);
        theory.forAll(seeds, counts).checkAssert((seed, count) -> {
            Random random = new Random(seed);
            List<TurnSample> inOrder = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                inOrder.add(sample(random, i));
            }
            List<TurnSample> finished = new ArrayList<>(inOrder);
            Collections.shuffle(finished, random);
            Path folder = folder(seed);
            Tally spooled = new Tally(Columns.in(folder));
            finished.forEach(spooled::add);
            for (InvocationMode mode : InvocationMode.values()) {
                List<TurnSample> mine = inOrder.stream().filter(s -> s.mode() == mode).toList();
                ModeMetrics now = spooled.mode(mode);
                assertThat(now.turns()).isEqualTo(mine.size());
                assertThat(ModeMetrics.of(mode, finished)).isEqualTo(now);
                for (Metric metric : Metric.values()) {
                    Before before = Before.of(metric, mine);
                    Figure figure = now.figure(metric);
                    assertThat(figure.value()).as("%s %s", mode, metric).isEqualTo(before.value());
                    assertThat(figure.samples().sorted()).as("%s %s samples", mode, metric)
                            .containsExactly(before.samples().stream().mapToDouble(d -> d).toArray());
                    if (figure instanceof Figure.Distribution distribution) {
                        assertThat(distribution.p95()).as("%s %s p95", mode, metric).isEqualTo(before.p95());
                    }
                    if (figure instanceof Figure.Scalar scalar && metric.aggregate() == Metric.Aggregate.RATE) {
                        assertThat(scalar.numerator()).isEqualTo(before.numerator());
                        assertThat(scalar.denominator()).isEqualTo(before.denominator());
                    }
                }
            }
        });
    }

    private Path folder(long seed) {
        try {
            return Files.createTempDirectory(temp, "columns-" + Long.toHexString(seed));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A turn with values drawn from small sets, so ties and unknown costs and usage are common. */
    private static TurnSample sample(Random random, int i) {
        InvocationMode mode = InvocationMode.values()[random.nextInt(2)];
        List<TurnSample.Call> calls = new ArrayList<>();
        for (int c = random.nextInt(3); c >= 0; c--) {
            CallRole role = CallRole.values()[random.nextInt(CallRole.values().length)];
            calls.add(new TurnSample.Call(role, millis(random), 50 + random.nextInt(5), random.nextInt(4),
                    random.nextInt(8) > 0));
        }
        List<TurnSample.Result> results = new ArrayList<>();
        for (int e = random.nextInt(3); e > 0; e--) {
            results.add(new TurnSample.Result(random.nextBoolean(), random.nextBoolean(), random.nextBoolean(),
                    random.nextBoolean(), random.nextBoolean(), maybe(random), maybe(random), random.nextInt(5) == 0));
        }
        Optional<List<String>> expected = random.nextBoolean() ? Optional.of(List.of("a", "b").subList(0,
                1 + random.nextInt(2))) : Optional.empty();
        List<String> proposed = random.nextBoolean() ? List.of("a") : List.of("a", "c");
        Optional<BigDecimal> cost = random.nextInt(6) == 0 ? Optional.empty()
                : Optional.of(BigDecimal.valueOf(random.nextInt(1000), 6));
        return new TurnSample("s" + random.nextInt(3), "c" + i, 0, mode, maybe(random), millis(random),
                maybe(random), millis(random), random.nextBoolean(), calls, results.size(), results, expected,
                proposed, cost, TurnRecord.Timing.MODELLED, random.nextInt(9) == 0, maybe(random),
                random.nextInt(7) == 0 ? Optional.of(random.nextBoolean() ? "provider_timeout" : "x") : Optional.empty(),
                new TurnSample.ArgumentScore(random.nextInt(2), random.nextInt(2), random.nextInt(2),
                        random.nextInt(2)));
    }

    private static Duration millis(Random random) {
        // a few values (ties), some with a fraction of a millisecond
        return Duration.ofNanos(random.nextInt(40) * 250_000L + (random.nextBoolean() ? 0 : random.nextInt(1000)));
    }

    private static Optional<Duration> maybe(Random random) {
        return random.nextInt(4) == 0 ? Optional.empty() : Optional.of(millis(random));
    }

    /**
     * The aggregation this kit used before the figures were spooled (Figure.of over a list of parts, in the turns'
     * record order), kept verbatim as the oracle.
     */
    private record Before(Number value, List<Double> samples, Double p95, BigDecimal numerator,
                          BigDecimal denominator) {

        static Before of(Metric metric, List<TurnSample> turns) {
            List<Metric.Part> parts = turns.stream().map(metric::contribution).toList();
            List<Double> samples = new ArrayList<>();
            BigDecimal numerator = BigDecimal.ZERO;
            BigDecimal denominator = BigDecimal.ZERO;
            for (Metric.Part part : parts) {
                samples.addAll(part.samples());
                numerator = numerator == null || part.numerator() == null ? null : numerator.add(part.numerator());
                denominator = denominator.add(part.denominator());
            }
            List<Double> sorted = new ArrayList<>(samples);
            Collections.sort(sorted);
            Number value = switch (metric.aggregate()) {
                case DISTRIBUTION -> rank(sorted, 0.50);
                case MEAN -> samples.isEmpty() ? null : Figure.round(samples.stream().mapToDouble(d -> d).average()
                        .orElseThrow());
                case SUM -> numerator == null || parts.isEmpty() ? null
                        : metric.unit() == Metric.Unit.USD ? numerator : (Number) numerator.longValue();
                case RATE -> rate(metric, numerator, denominator);
            };
            return new Before(value, sorted, rank(sorted, 0.95), numerator, denominator);
        }

        private static Double rank(List<Double> samples, double quantile) {
            if (samples.isEmpty()) {
                return null;
            }
            int index = (int) Math.ceil(quantile * samples.size()) - 1;
            return Figure.round(samples.get(Math.max(0, Math.min(samples.size() - 1, index))));
        }

        private static Number rate(Metric metric, BigDecimal numerator, BigDecimal denominator) {
            if (numerator == null || denominator.signum() == 0) {
                return null;
            }
            if (metric.unit() == Metric.Unit.USD) {
                return numerator.divide(denominator, 8, RoundingMode.HALF_UP);
            }
            return Figure.round(numerator.doubleValue() / denominator.doubleValue());
        }
    }
}
