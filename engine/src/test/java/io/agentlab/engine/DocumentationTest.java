package io.agentlab.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentlab.engine.internal.suite.SuiteSchema;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The published references stay in step with the code (the configuration keys: {@link ConfigurationReferenceTest}). */
class DocumentationTest {

    private static final Path DOCS = Path.of("../docs");

    @Test
    @DisplayName("docs/suite.schema.json is the schema the engine validates with")
    void schemaCopy() throws IOException {
        assertThat(Files.readString(DOCS.resolve("suite.schema.json"))).isEqualTo(SuiteSchema.text());
    }
}
