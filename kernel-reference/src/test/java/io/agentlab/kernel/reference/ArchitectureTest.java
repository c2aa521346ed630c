package io.agentlab.kernel.reference;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Layering: the SPI depends on nothing of ours, the kernel knows nothing of the turn runtime or HTTP, and the kernel
 * never names a built-in event ({@code docs/design.md#kernel-no-event-names}). The reactor-wide rules (engine
 * internals, the runtime's own module) are {@code its/src/test/java/io/agentlab/its/LayeringTest.java}.
 */
class ArchitectureTest {

    /** Built-in event names, namespaced (README seed) and as the design first spelled them. */
    static final List<String> BUILT_IN_NAMES = List.of(
            "session.terminate", "device.volume.adjust", "calendar.schedule.create", "knowledge.web.search",
            "session_terminate", "device_volume_adjust", "calendar_schedule_create", "knowledge_web_search",
            "terminate_session", "adjust_device_volume", "add_schedule", "web_search");

    private static JavaClasses kernel;

    @BeforeAll
    static void importKernel() {
        kernel = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.agentlab");
        assertThat(kernel.stream().map(c -> c.getPackageName()).distinct())
                .as("both modules were imported").contains("io.agentlab.kernel.api", "io.agentlab.kernel.reference");
    }

    @Test
    @DisplayName("the api depends on nothing but the JDK and apiguardian's @API (the annotation its types carry)")
    void apiDependsOnNothingOfOurs() {
        noClasses().that().resideInAPackage("io.agentlab.kernel.api..")
                .should().dependOnClassesThat().resideOutsideOfPackages("io.agentlab.kernel.api..", "java..",
                        "org.apiguardian.api..")
                .check(kernel);
    }

    @Test
    @DisplayName("the kernel (api and core) never depends on the turn runtime, HTTP or JSON-over-the-wire code")
    void kernelDoesNotDependOnTheRuntime() {
        noClasses().that().resideInAnyPackage("io.agentlab.kernel.api..", "io.agentlab.kernel.reference..")
                .should().dependOnClassesThat().resideInAnyPackage("io.agentlab.runtime..", "okhttp3..",
                        "okio..", "com.sun.net.httpserver..", "java.net.http..")
                .check(kernel);
    }

    @Test
    @DisplayName("the kernel never imports the plugins module")
    void kernelDoesNotImportPlugins() {
        noClasses().that().resideInAPackage("io.agentlab.kernel..")
                .should().dependOnClassesThat().resideInAPackage("io.agentlab.plugins..")
                .check(kernel);
    }

    @Test
    @DisplayName("no main source of api, core or the turn runtime names a built-in event")
    void noBuiltInEventNames() throws IOException {
        List<String> offences = new ArrayList<>();
        // the turn runtime (its own module since it left this one) is held to the same rule
        for (Path root : List.of(Path.of("../api/src/main/java"), Path.of("src/main/java"),
                Path.of("../runtime/src/main/java"))) {
            assertThat(root).as("source root %s (tests run from the core module)", root).isDirectory();
            try (Stream<Path> files = Files.walk(root)) {
                for (Path file : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                    List<String> lines = Files.readAllLines(file);
                    for (int i = 0; i < lines.size(); i++) {
                        for (String name : BUILT_IN_NAMES) {
                            if (lines.get(i).contains(name)) {
                                offences.add(file + ":" + (i + 1) + " names '" + name + "'");
                            }
                        }
                    }
                }
            }
        }
        assertThat(offences).as("kernel code that names a built-in event (docs/design.md#kernel-no-event-names)")
                .isEmpty();
    }

    @Test
    @DisplayName("the guard itself finds a built-in name where one is written")
    void guardDetectsNames() {
        String offending = "if (request.name().equals(\"device.volume.adjust\")) {";
        assertThat(BUILT_IN_NAMES).anySatisfy(name -> assertThat(offending).contains(name));
    }
}
