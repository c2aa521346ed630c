package io.agentlab.suites;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The JSON Schema the kit's AG-UI checker validates events with is {@code @ag-ui/core} 1.0.0's own: this installs the
 * oracle's pinned packages ({@code npm ci}, once for both checks), runs {@code oracles/agui/scripts/export-schemas.mjs}
 * and fails if its output differs from the committed resource by one byte (docs/runtime.md#schemas). Runs with the oracle check
 * (failsafe, {@code mvn verify}); needs node and npm like it ({@link AguiOracleNode#tool}).
 */
class AguiSchemaExportIT {

    private static final Path WORK = Path.of("target/agui-schema-export");

    @Test
    @DisplayName("the committed AG-UI event schema is what export-schemas.mjs makes of @ag-ui/core 1.0.0")
    void committedSchemaIsTheExport() throws Exception {
        Path node = AguiOracleNode.tool("node");
        Path npm = AguiOracleNode.tool("npm");
        Files.createDirectories(WORK);
        Path packages = AguiOracleNode.install(npm, List.of(AguiSchemaExport.SCRIPT));
        Path generated = WORK.resolve("events.schema.json").toAbsolutePath();
        AguiOracleNode.run(List.of(node.toString(), packages.resolve(AguiSchemaExport.SCRIPT).toAbsolutePath()
                .toString(), generated.toString()), WORK,
                WORK.resolve("export.log"), false);

        assertThat(AguiSchemaExport.difference(Files.readString(AguiSchemaExport.COMMITTED),
                Files.readString(generated)))
                .as(AguiSchemaExport.COMMITTED + " is not the export of the pinned @ag-ui/core (regenerate: cd "
                        + "oracles/agui && npm ci && npm run export-schemas; fresh export in " + generated + ")")
                .isEmpty();
    }
}
