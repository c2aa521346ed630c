package io.agentlab.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentlab.kernel.api.EventPlugin;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.ServiceLoader;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The engine is generic: it finds plugins through the factory and never names one, nor imports their module — but for
 * one file: the port stand-ins of a runtime over the wire, which serve the four built-in ports the wire contract names
 * (docs/wire.md#ports) with the plugins' own in-memory adapters, so a port's state reads as in-process.
 */
class EngineArchitectureTest {

    /** The one file that may use the plugins module (see above). */
    private static final Path STAND_INS = Path.of("io/agentlab/engine/internal/wire/PortStandIns.java");

    @Test
    @DisplayName("engine sources name no built-in event and import nothing from the plugins module")
    void noBuiltInNames() throws IOException {
        List<String> names = ServiceLoader.load(EventPlugin.class).stream()
                .map(provider -> provider.get().definition().name()).toList();
        assertThat(names).as("the built-ins are on the test classpath").hasSizeGreaterThanOrEqualTo(4);
        try (Stream<Path> files = Files.walk(Path.of("src/main"))) {
            for (Path file : files.filter(Files::isRegularFile).filter(file -> !file.endsWith(STAND_INS)).toList()) {
                String text = Files.readString(file);
                assertThat(text).as(file.toString()).doesNotContain("io.agentlab.plugins");
                for (String name : names) {
                    assertThat(text).as(file + " names the built-in event " + name).doesNotContain(name);
                }
            }
        }
    }
}
