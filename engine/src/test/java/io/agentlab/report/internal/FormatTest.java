package io.agentlab.report.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.doubles;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;

/** {@link Format#fixed} writes what {@code String.format(Locale.ROOT, "%.Nf", value)} writes, for every double. */
class FormatTest {

    private static void agrees(double value, int places) {
        assertThat(Format.fixed(value, places)).as("%s with %d decimals", value, places)
                .isEqualTo(String.format(Locale.ROOT, "%." + places + "f", value));
    }

    @Test
    @DisplayName("property: any double, any of the reports' precisions, formats as String.format does")
    void anyDouble() {
        Gen<Double> values = doubles().any().mix(doubles().between(-1e4, 1e4))
                .mix(longs().between(-200_000, 200_000).map(k -> k / 20.0)) // halves of the last decimal, ties
                .mix(longs().between(-2_000_000, 2_000_000).map(k -> k / 2000.0));
        qt().withExamples(20_000).forAll(values, integers().between(0, 6)).checkAssert(FormatTest::agrees);
    }

    @Test
    @DisplayName("ties round half up on the shortest decimal form; signs, zeros and non-finite values as String.format")
    void edges() {
        for (double value : List.of(0.05, 0.15, 0.25, 1.005, 2.675, 0.0, -0.0, -0.04, -0.05, -1.25, 1e7, 1.5e-5,
                123456789.125, Double.MIN_VALUE, Double.MAX_VALUE, Double.NaN, Double.POSITIVE_INFINITY,
                Double.NEGATIVE_INFINITY)) {
            for (int places : new int[] {1, 2, 6}) {
                agrees(value, places);
            }
        }
    }
}
