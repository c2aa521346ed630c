package io.agentlab.oracles.openai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The official OpenAI Java SDK over every provider stream the kit ships or synthesizes for the shipped suites, in every
 * family, as exported by conformance-suites' {@code ProviderStreamExportTest} into its
 * {@code target/provider-streams} (this module runs after it in the reactor). Fails on any disagreement, and when the
 * export is missing or holds fewer streams than its manifest counts.
 */
class OpenAiSdkOracleTest {

    /** The export directory: {@code -Dagentlab-build.provider-streams}, set by this module's pom. */
    static Path exportDirectory() {
        String configured = System.getProperty("agentlab-build.provider-streams");
        assertThat(configured).as("system property agentlab-build.provider-streams (set by oracles/openai-sdk/pom.xml)")
                .isNotBlank();
        return Path.of(configured);
    }

    @Test
    @DisplayName("the oracle runs the SDK as it ships (OkHttp 4) with no kit class on its classpath")
    void isolatedFromTheKit() {
        assertThat(okhttp3.OkHttp.VERSION).startsWith("4.");
        for (String kitClass : List.of("io.agentlab.runtime.llm.StreamAccumulator",
                "io.agentlab.providers.recorded.ProviderFamily", "tools.jackson.databind.ObjectMapper")) {
            assertThatThrownBy(() -> Class.forName(kitClass)).as(kitClass)
                    .isInstanceOf(ClassNotFoundException.class);
        }
    }

    @Test
    @DisplayName("every exported stream parses as ChatCompletionChunk and accumulates, with the SDK, to the kit's result")
    void everyStreamAgreesWithTheSdk() {
        OracleRun run = OracleRun.of(exportDirectory());
        System.out.println(run.summary());
        assertThat(run.problems()).as("the export is complete and every stream agrees with the SDK").isEmpty();
    }
}
