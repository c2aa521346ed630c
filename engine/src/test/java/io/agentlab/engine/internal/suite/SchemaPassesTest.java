package io.agentlab.engine.internal.suite;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * A run in parts reads each suite file twice, and the second reading skips the schema the first passed
 * (docs/performance.md#schema-passes): never a text the schema has not passed, never a text that differs, and the
 * verdict of a reading is the same either way.
 */
class SchemaPassesTest {

    private static final SuiteReader.Context CONTEXT = new SuiteReader.Context(
            Set.of("device.volume.adjust", "session.terminate"),
            new RecordingLibrary(List.of(), "recordings", SchemaPassesTest.class.getClassLoader()));

    @Test
    @DisplayName("a text the schema passed is not validated again when remembered, and reads to the same suite")
    void passedTextIsNotValidatedAgain() throws IOException {
        String text = unique(sample());
        SuiteOrigin origin = SuiteOrigin.classpath("volume.suite.yaml");

        long before = SuiteSchema.validationsOnThisThread();
        SuiteReader.Result first = SuiteReader.read(origin, text, CONTEXT, true);
        assertThat(first.problems()).isEmpty();
        assertThat(SuiteSchema.validationsOnThisThread()).as("the first reading validates").isEqualTo(before + 1);

        SuiteReader.Result second = SuiteReader.read(origin, text, CONTEXT, true);
        assertThat(SuiteSchema.validationsOnThisThread()).as("the second skips the schema").isEqualTo(before + 1);
        assertThat(second).isEqualTo(first);

        SuiteReader.read(origin, text, CONTEXT);
        assertThat(SuiteSchema.validationsOnThisThread()).as("a reading that does not ask validates as always")
                .isEqualTo(before + 2);
    }

    @Test
    @DisplayName("a text that differs from a passed one by one line is validated, and its problem said")
    void changedTextIsValidated() throws IOException {
        String text = unique(sample());
        SuiteOrigin origin = SuiteOrigin.classpath("volume.suite.yaml");
        assertThat(SuiteReader.read(origin, text, CONTEXT, true).problems()).isEmpty();

        // an unknown top-level key: the schema refuses it (additionalProperties), the text is otherwise the same
        String broken = text.replace("title: Device volume", "title: Device volume\nnotAKey: 1");
        SuiteReader.Result result = SuiteReader.read(origin, broken, CONTEXT, true);
        assertThat(result.suite()).isEmpty();
        assertThat(result.problems()).as("the schema's problem, though the text is a passed one's but for a line")
                .anySatisfy(problem -> assertThat(problem.toString()).contains("notAKey"));
    }

    @Test
    @DisplayName("a text with a schema problem is never remembered: its problem is said at every reading")
    void failedTextIsNeverRemembered() throws IOException {
        String broken = unique(sample()).replace("title: Device volume", "title: Device volume\nnotAKey: 1");
        SuiteOrigin origin = SuiteOrigin.classpath("volume.suite.yaml");
        long before = SuiteSchema.validationsOnThisThread();
        List<String> first = SuiteReader.read(origin, broken, CONTEXT, true).problems().stream()
                .map(Object::toString).toList();
        List<String> second = SuiteReader.read(origin, broken, CONTEXT, true).problems().stream()
                .map(Object::toString).toList();
        assertThat(first).isNotEmpty().isEqualTo(second);
        assertThat(SuiteSchema.validationsOnThisThread()).isEqualTo(before + 2);
    }

    /** The text with a comment no other test's text has, so what an earlier test remembered plays no part. */
    private static String unique(String text) {
        return "# " + UUID.randomUUID() + "\n" + text;
    }

    private String sample() throws IOException {
        try (InputStream in = getClass().getClassLoader().getResourceAsStream("sample-suites/volume.suite.yaml")) {
            assertThat(in).isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
