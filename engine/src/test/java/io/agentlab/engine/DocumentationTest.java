package io.agentlab.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentlab.engine.gates.Gates;
import io.agentlab.engine.internal.suite.SuiteSchema;
import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The published references stay in step with the code. */
class DocumentationTest {

    private static final Path DOCS = Path.of("../docs");

    static List<String> declaredKeys() throws IllegalAccessException {
        List<String> keys = new ArrayList<>();
        for (Class<?> type : List.of(ConformanceSettings.class, Gates.class)) {
            for (Field field : type.getFields()) {
                if (Modifier.isStatic(field.getModifiers()) && field.getType() == String.class) {
                    String key = (String) field.get(null);
                    keys.add(key.endsWith(".") ? key + "*" : key);
                }
            }
        }
        return keys;
    }

    @Test
    @DisplayName("docs/suite.schema.json is the schema the engine validates with")
    void schemaCopy() throws IOException {
        assertThat(Files.readString(DOCS.resolve("suite.schema.json"))).isEqualTo(SuiteSchema.text());
    }

    @Test
    @DisplayName("every configuration key is in docs/configuration.md and in the configuration metadata")
    void configurationKeys() throws Exception {
        String reference = Files.readString(DOCS.resolve("configuration.md"));
        JsonNode metadata = JsonMapper.builder().build().readTree(getClass().getResourceAsStream(
                "/META-INF/junit-platform-configuration-metadata.json"));
        List<String> documented = new ArrayList<>();
        metadata.path("parameters").forEach(parameter -> documented.add(parameter.path("key").asString()));
        assertThat(declaredKeys()).isNotEmpty().allSatisfy(key -> {
            assertThat(reference).as("docs/configuration.md").contains("`" + key + "`");
            assertThat(documented).as("configuration metadata").contains(key);
        });
        assertThat(documented).containsExactlyInAnyOrderElementsOf(declaredKeys());
        assertThat(ConfigurationKeys.systemProperties()).as("system properties").isNotEmpty()
                .allSatisfy(property -> assertThat(reference).as("docs/configuration.md").contains("`" + property + "`"));
        List<String> declared = declaredKeys();
        assertThat(ConfigurationKeys.aliases()).as("deprecated aliases").isNotEmpty().allSatisfy((old, current) -> {
            assertThat(reference).as("docs/configuration.md").contains("| `" + old + "` | `" + current + "` |");
            assertThat(declared).as("an alias names a current key").contains(current).doesNotContain(old);
        });
    }
}
