package io.agentlab.suites;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentlab.runtime.llm.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The JSON Schema the kit's AG-UI checker validates events with is {@code @ag-ui/core} 1.0.0's own
 * (docs/runtime.md#schemas): {@link #committedSchemaIsTheExport} installs the oracle's pinned packages ({@code npm ci},
 * once for it and the oracle check), runs {@code oracles/agui/scripts/export-schemas.mjs} and fails if its output
 * differs from the committed resource by one byte; it needs node and npm like the oracle check
 * ({@link AguiOracleNode#tool}) and runs beside the suites' tests, needing none of their output. The others check,
 * without Node, the committed file's header and the comparison itself.
 */
class AguiSchemaExportTest {

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
                .toString(), generated.toString()), WORK, WORK.resolve("export.log"), false);

        assertThat(AguiSchemaExport.difference(Files.readString(AguiSchemaExport.COMMITTED),
                Files.readString(generated)))
                .as(AguiSchemaExport.COMMITTED + " is not the export of the pinned @ag-ui/core (regenerate: cd "
                        + "oracles/agui && npm ci && npm run export-schemas; fresh export in " + generated + ")")
                .isEmpty();
    }

    @Test
    @DisplayName("the committed schema says it is generated, from the versions the oracle's lockfile pins")
    void headerNamesThePinnedVersions() throws Exception {
        JsonNode schema = Json.tree(Files.readString(AguiSchemaExport.COMMITTED));
        String core = AguiSchemaExport.pinned("@ag-ui/core");
        String zod = AguiSchemaExport.pinned("zod");
        assertThat(core).isEqualTo("1.0.0");
        assertThat(schema.path("$comment").asString()).startsWith("GENERATED, do not edit")
                .contains("@ag-ui/core " + core, "zod " + zod, AguiSchemaExport.SCRIPT, "npm run export-schemas");
        assertThat(schema.path("$id").asString()).contains("agui-core-" + core);
        assertThat(schema.path("$defs").size()).isGreaterThan(31);
        assertThat(schema.path("properties").path("type").path("enum").size()).isEqualTo(31);
    }

    @Test
    @DisplayName("the export check fails on a changed, added or missing line and names it")
    void comparisonFindsASeededChange() throws Exception {
        String committed = Files.readString(AguiSchemaExport.COMMITTED);
        assertThat(AguiSchemaExport.difference(committed, committed)).isEmpty();
        String changed = committed.replaceFirst("\"delta\": \\{\\s*\"type\": \"string\"",
                "\"delta\": { \"type\": \"object\"");
        assertThat(changed).isNotEqualTo(committed);
        assertThat(AguiSchemaExport.difference(committed, changed)).hasValueSatisfying(line ->
                assertThat(line).startsWith("line ").contains("differs: committed «",
                        "generated «\"delta\": { \"type\": \"object\""));
        assertThat(AguiSchemaExport.difference(committed, committed + "{}\n")).hasValueSatisfying(line ->
                assertThat(line).contains("committed «(end of file)»"));
        assertThat(AguiSchemaExport.difference(committed, committed.stripTrailing())).isPresent();
    }
}
