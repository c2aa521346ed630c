package io.agentlab.suites;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentlab.runtime.llm.Json;
import java.nio.file.Files;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** The committed AG-UI event schema without Node: its header and the comparison the export check uses. */
class AguiSchemaExportTest {

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
