package io.agentlab.engine.internal.suite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.longs;

import io.agentlab.engine.internal.yaml.Position;
import io.agentlab.engine.internal.yaml.YamlNode;
import io.agentlab.engine.internal.yaml.YamlReader;
import java.io.IOException;
import java.io.InputStream;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.json.JsonMapper;

/**
 * The tree the suite schema validates is built straight from the YAML nodes; it must be the tree Jackson's
 * {@code valueToTree} makes of their plain values, node type for node type, or a verdict could change
 * (docs/performance.md#discovery-tree).
 */
class SuiteSchemaTreeTest {

    private static final JsonMapper MAPPER = SuiteSchema.MAPPER;
    private static final Position AT = new Position(1, 1);

    @Test
    @DisplayName("any document: the direct tree equals valueToTree of the plain values (a failure names its seed)")
    void anyDocument() {
        qt().withExamples(2_000).forAll(longs().all()).checkAssert(seed -> {
            YamlNode document = node(new Random(seed), 0);
            assertThat(SuiteSchema.tree(document)).as("seed %d", seed).isEqualTo(MAPPER.valueToTree(document.plain()));
        });
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"sample-suites/batch.suite.yaml", "sample-suites/volume.suite.yaml",
        "sample-suites/search.suite.yaml", "report-suites/report-fixture.yaml", "eval-suites/labels.yaml",
        "io/agentlab/engine/samples/recorded.suite.yaml"})
    @DisplayName("suites as written: the same tree")
    void suitesAsWritten(String resource) throws IOException {
        String text;
        try (InputStream in = getClass().getClassLoader().getResourceAsStream(resource)) {
            assertThat(in).as(resource).isNotNull();
            text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        YamlNode document = YamlReader.read(resource, text).document();
        assertThat(SuiteSchema.tree(document)).isEqualTo(MAPPER.valueToTree(document.plain()));
    }

    /** A random node: mappings and sequences down to depth 3, scalars of every type the reader may produce. */
    private static YamlNode node(Random random, int depth) {
        int kind = random.nextInt(depth >= 3 ? 1 : 3);
        if (kind == 1) {
            Map<String, YamlNode.Entry> entries = new LinkedHashMap<>();
            for (int i = random.nextInt(5); i > 0; i--) {
                entries.put("k" + random.nextInt(8), new YamlNode.Entry(AT, node(random, depth + 1)));
            }
            return new YamlNode.Mapping(entries, AT);
        }
        if (kind == 2) {
            List<YamlNode> items = new ArrayList<>();
            for (int i = random.nextInt(5); i > 0; i--) {
                items.add(node(random, depth + 1));
            }
            return new YamlNode.Sequence(items, AT);
        }
        Object[] values = {null, "", "text", "ünïcode ✓", "1", "true", true, false, random.nextInt(),
            random.nextLong(), random.nextDouble() * 1e6,
            BigInteger.TEN.pow(30).add(BigInteger.valueOf(random.nextInt())), new BigDecimal("1.50"),
            new BigDecimal(random.nextInt(1000)).movePointLeft(2), 0, -0.0};
        return new YamlNode.Scalar(values[random.nextInt(values.length)], AT);
    }
}
