package io.agentlab.suites;

import io.agentlab.runtime.llm.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * The committed JSON Schema of {@code @ag-ui/core} 1.0.0's events, the definitions the kit's AG-UI checker validates
 * with, and how to tell it from a fresh export (docs/runtime.md#schemas). {@link AguiSchemaExportTest#committedSchemaIsTheExport} regenerates it
 * from the npm package; {@link AguiSchemaExportTest} checks, without Node, that its header names the versions the
 * oracle's lockfile pins.
 */
final class AguiSchemaExport {

    /** The committed export, from the module's folder (a resource of the checker's package). */
    static final Path COMMITTED = Path.of("../agui/src/main/resources/io/agentlab/agui/"
            + "agui-core-1.0.0/events.schema.json");
    /** The export script, relative to the oracle project. */
    static final String SCRIPT = "scripts/export-schemas.mjs";

    private AguiSchemaExport() {
    }

    /** The first line where {@code generated} differs from {@code committed}, said for a reader; empty when equal. */
    static Optional<String> difference(String committed, String generated) {
        List<String> was = committed.lines().toList();
        List<String> now = generated.lines().toList();
        for (int i = 0; i < Math.max(was.size(), now.size()); i++) {
            String a = i < was.size() ? was.get(i) : "(end of file)";
            String b = i < now.size() ? now.get(i) : "(end of file)";
            if (!a.equals(b)) {
                return Optional.of("line " + (i + 1) + " differs: committed «" + a.strip() + "», generated «"
                        + b.strip() + "»");
            }
        }
        if (!committed.equals(generated)) {
            return Optional.of("the line ends or the final newline differ");
        }
        return Optional.empty();
    }

    /** The version of {@code name} that the oracle's {@code package-lock.json} pins. */
    static String pinned(String name) throws IOException {
        return Json.tree(Files.readString(AguiOracleNode.ORACLE.resolve("package-lock.json")))
                .path("packages").path("node_modules/" + name).path("version").asString();
    }
}
