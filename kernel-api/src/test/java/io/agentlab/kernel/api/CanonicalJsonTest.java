package io.agentlab.kernel.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;
import static org.quicktheories.generators.SourceDSL.strings;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class CanonicalJsonTest {

    @Test
    @DisplayName("keys are sorted at every depth and there is no white space")
    void sortsKeys() {
        Map<String, Object> inner = new LinkedHashMap<>();
        inner.put("z", 1);
        inner.put("a", List.of(true, "x"));
        Map<String, Object> outer = new LinkedHashMap<>();
        outer.put("b", inner);
        outer.put("a", null);
        assertThat(CanonicalJson.write(outer)).isEqualTo("{\"a\":null,\"b\":{\"a\":[true,\"x\"],\"z\":1}}");
    }

    @Test
    @DisplayName("every spelling of a number has one canonical form")
    void numbers() {
        assertThat(List.of(30, 30L, 30.0, 30.0f, new BigDecimal("30.00"), new BigDecimal("3E1"), BigInteger.valueOf(30)))
                .extracting(CanonicalJson::number).containsOnly("30");
        assertThat(CanonicalJson.number(new BigDecimal("0.50"))).isEqualTo("0.5");
        assertThat(CanonicalJson.number(-0.0)).isEqualTo("0");
        assertThat(CanonicalJson.number(1e21)).isEqualTo("1000000000000000000000");
        assertThat(CanonicalJson.number(-2.5)).isEqualTo("-2.5");
    }

    @Test
    @DisplayName("strings are escaped as JSON")
    void escapes() {
        assertThat(CanonicalJson.write("a\"b\\c\n\u0001音量")).isEqualTo("\"a\\\"b\\\\c\\n\\u0001音量\"");
    }

    @Test
    @DisplayName("NaN and infinities are not JSON")
    void rejectsNonFinite() {
        assertThatThrownBy(() -> CanonicalJson.write(Double.NaN)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    @DisplayName("property: reordering keys (at any depth) never changes the canonical text")
    void keyOrderIrrelevant() {
        qt().withExamples(2_000)
                .forAll(lists().of(strings().basicLatinAlphabet().ofLengthBetween(0, 6)).ofSizeBetween(0, 8),
                        integers().all())
                .checkAssert((keys, seed) -> {
                    Map<String, Object> original = new LinkedHashMap<>();
                    for (int i = 0; i < keys.size(); i++) {
                        original.put(keys.get(i), i % 3 == 0 ? Map.of("n", i, "m", (double) i) : i * 1.0);
                    }
                    List<String> shuffled = new ArrayList<>(original.keySet());
                    Collections.shuffle(shuffled, new Random(seed));
                    Map<String, Object> reordered = new LinkedHashMap<>();
                    shuffled.forEach(key -> reordered.put(key, original.get(key)));
                    assertThat(CanonicalJson.write(reordered)).isEqualTo(CanonicalJson.write(original));
                });
    }
}
