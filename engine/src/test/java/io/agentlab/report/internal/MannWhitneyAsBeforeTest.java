package io.agentlab.report.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The Mann–Whitney test over two primitive arrays (a merge of the sorted samples) gives bit for bit what the test over
 * boxed samples gave, kept here as the oracle: same z, same p, same direction, ties and all
 * (docs/performance.md#memory). QuickTheories' printed seed replays a failure with
 * {@code -Dagentlab-build.properties.seed=N}.
 */
class MannWhitneyAsBeforeTest {

    private static final int EXAMPLES = Integer.getInteger("agentlab-build.properties.examples", 2_000);
    private static final Long SEED = Long.getLong("agentlab-build.properties.seed");

    @Test
    @DisplayName("property: any two samples, with many ties or none, in any order: the same test result as before")
    void sameAsBoxed() {
        var theory = SEED == null ? qt().withExamples(EXAMPLES) : qt().withExamples(EXAMPLES).withFixedSeed(SEED);
        theory.forAll(longs().all(), integers().between(0, 80), integers().between(0, 80), integers().between(1, 50))
                .checkAssert((seed, n1, n2, distinct) -> {
                    Random random = new Random(seed);
                    List<Double> first = values(random, n1, distinct);
                    List<Double> second = values(random, n2, distinct);
                    Statistics.Test now = Statistics.mannWhitney(array(first), array(second));
                    Statistics.Test before = boxed(first, second);
                    assertThat(now).isEqualTo(before);
                });
    }

    /** {@code n} values among {@code distinct} possible ones (halves and thousandths of a millisecond), unsorted. */
    private static List<Double> values(Random random, int n, int distinct) {
        List<Double> values = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            int k = random.nextInt(distinct);
            values.add(random.nextBoolean() ? k / 2.0 : k + random.nextInt(1000) / 1000.0);
        }
        return values;
    }

    private static double[] array(List<Double> values) {
        return values.stream().mapToDouble(Double::doubleValue).toArray();
    }

    /** The implementation this kit had before (boxed samples in one stable-sorted list), verbatim. */
    private static Statistics.Test boxed(List<Double> first, List<Double> second) {
        int n1 = first.size();
        int n2 = second.size();
        record Sample(double value, int group) {
        }
        List<Sample> all = new ArrayList<>(n1 + n2);
        first.forEach(v -> all.add(new Sample(v, 0)));
        second.forEach(v -> all.add(new Sample(v, 1)));
        all.sort(Comparator.comparingDouble(Sample::value));
        double rankSumFirst = 0;
        double tieTerm = 0;
        for (int i = 0; i < all.size(); ) {
            int j = i;
            while (j + 1 < all.size() && all.get(j + 1).value() == all.get(i).value()) {
                j++;
            }
            double rank = (i + j + 2) / 2.0;
            int ties = j - i + 1;
            tieTerm += (double) ties * ties * ties - ties;
            for (int k = i; k <= j; k++) {
                if (all.get(k).group() == 0) {
                    rankSumFirst += rank;
                }
            }
            i = j + 1;
        }
        double u1 = rankSumFirst - n1 * (n1 + 1) / 2.0;
        double mean = n1 * (double) n2 / 2.0;
        int n = n1 + n2;
        double variance = n1 * (double) n2 / 12.0 * ((n + 1) - tieTerm / ((double) n * (n - 1)));
        if (variance <= 0) {
            return new Statistics.Test(0, 1, 0);
        }
        double difference = u1 - mean;
        double z = (Math.abs(difference) - 0.5) / Math.sqrt(variance);
        z = Math.max(0, z);
        return new Statistics.Test(z, 2 * Statistics.upperTail(z), difference < 0 ? 1 : difference > 0 ? -1 : 0);
    }
}
