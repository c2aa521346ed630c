package io.agentlab.oracles.openai;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The SDK over the corpus of provider stream shapes alone ({@code docs/recording.md#stream-shapes}), as exported by
 * conformance-suites' {@code ProviderStreamExportTest#exportShapes} into its {@code target/shape-streams}: quick to run
 * again after a change to the accumulator (no suite is synthesized). Prints each shape's verdict; fails on any
 * disagreement, and when the export is missing or holds fewer shapes than its manifest names.
 */
class ShapeCorpusOracleTest {

    /** The export directory: {@code -Dagentlab-build.shape-streams}, set by this module's pom. */
    static Path exportDirectory() {
        String configured = System.getProperty("agentlab-build.shape-streams");
        assertThat(configured).as("system property agentlab-build.shape-streams (set by oracles/openai-sdk/pom.xml)")
                .isNotBlank();
        return Path.of(configured);
    }

    @Test
    @DisplayName("every stream shape parses as ChatCompletionChunk and accumulates, with the SDK, to the kit's result")
    void everyShapeAgreesWithTheSdk() throws IOException {
        Path directory = exportDirectory();
        Path manifestFile = directory.resolve("manifest.json");
        assertThat(manifestFile).as("the shapes export (run conformance-suites' ProviderStreamExportTest#exportShapes "
                + "first)").isRegularFile();
        JsonNode manifest = SdkOracle.FILES.readTree(manifestFile.toFile());
        List<String> named = new ArrayList<>();
        manifest.path("shapes").forEach(id -> named.add(id.asText()));
        assertThat(named).as("shapes named by the manifest").isNotEmpty();
        List<SdkOracle.Verdict> verdicts = new ArrayList<>();
        for (String id : named) {
            Path file = directory.resolve(id + ".json");
            assertThat(file).as(id).isRegularFile();
            verdicts.add(SdkOracle.judge(file));
        }
        verdicts.forEach(v -> System.out.println("[openai-sdk oracle] shape " + v));
        try (Stream<Path> files = Files.list(directory)) {
            assertThat(files.filter(p -> !p.endsWith("manifest.json")).count()).as("files beside the manifest")
                    .isEqualTo(named.size());
        }
        assertThat(verdicts).as("every shape agrees with the SDK")
                .allSatisfy(v -> assertThat(v.outcome()).as(v.toString()).isNotIn(SdkOracle.Outcome.DISAGREE,
                        SdkOracle.Outcome.BOTH_REJECT));
    }
}
