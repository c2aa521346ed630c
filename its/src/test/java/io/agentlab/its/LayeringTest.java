package io.agentlab.its;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apiguardian.api.API;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The reactor's layering, over every module's compiled classes (main and test): what a user may depend on is the API
 * listed in {@code docs/api.md}; the engine's internals ({@code io.agentlab.engine.internal..} and every type marked
 * {@code @API(status = INTERNAL)}) are used only by the engine and the exceptions that page documents. The kernel's
 * own rules (no runtime or HTTP in api/core, no built-in event name) are the kernel module's {@code ArchitectureTest}.
 */
class LayeringTest {

    /** Modules whose classes are checked, relative to the repository root. */
    static final List<String> MODULES = List.of("kernel-reference/api", "kernel-reference/core",
            "agui", "kernel-reference/runtime", "provider-openai", "tokens", "plugins", "providers-recorded",
            "contracts", "engine", "runner", "plugins-contracts",
            "conformance-suites", "cli", "maven-plugin", "benchmarks");

    /** An {@code @API(status = INTERNAL)} type. */
    static final DescribedPredicate<JavaClass> INTERNAL = DescribedPredicate.describe("marked @API(status = INTERNAL)",
            type -> type.tryGetAnnotationOfType(API.class).map(api -> api.status() == API.Status.INTERNAL)
                    .orElse(false));

    private static JavaClasses classes;

    @BeforeAll
    static void importReactor() {
        Path root = root();
        List<Path> directories = new ArrayList<>();
        for (String module : MODULES) {
            for (String output : List.of("target/classes", "target/test-classes")) {
                Path directory = root.resolve(module).resolve(output);
                if (Files.isDirectory(directory)) {
                    directories.add(directory);
                }
            }
            assertThat(root.resolve(module).resolve("target/classes"))
                    .as("%s is compiled (run this check in the reactor, after the modules it reads)", module)
                    .isDirectory();
        }
        classes = new ClassFileImporter().importPaths(directories);
    }

    private static Path root() {
        return Path.of(System.getProperty("agentlab-build.its.root", ".."));
    }

    @Test
    @DisplayName("the engine's internal packages are used only by the engine, the runner's shard merge (reports and"
            + " metrics) and the suites' provider-stream export")
    void engineInternalPackages() {
        noClasses().that().resideOutsideOfPackages("io.agentlab.engine..", "io.agentlab.runner..")
                .and().doNotHaveFullyQualifiedName("io.agentlab.suites.ProviderStreamExportTest")
                .should().dependOnClassesThat().resideInAPackage("io.agentlab.engine.internal..")
                .because("docs/api.md lists what users may depend on")
                .check(classes);
        noClasses().that().resideInAPackage("io.agentlab.runner..")
                .should().dependOnClassesThat().resideInAnyPackage("io.agentlab.engine.internal.execution..",
                        "io.agentlab.engine.internal.suite..")
                .check(classes);
    }

    @Test
    @DisplayName("types marked @API(status = INTERNAL) are used only by the kit's own front ends (runner, CLI, Maven"
            + " goal) and the documented test")
    void internalTypes() {
        noClasses().that().resideOutsideOfPackages("io.agentlab.engine..", "io.agentlab.kernel..",
                        "io.agentlab.agui..", "io.agentlab.provider..", "io.agentlab.tokens..",
                        "io.agentlab.contracts..", "io.agentlab.runner..", "io.agentlab.cli..", "io.agentlab.maven..")
                .and().doNotHaveFullyQualifiedName("io.agentlab.suites.ProviderStreamExportTest")
                .should().dependOnClassesThat(INTERNAL)
                .because("docs/api.md lists what users may depend on")
                .check(classes);
    }

    @Test
    @DisplayName("the kernel's module holds no runtime, HTTP or demo code, and no main class is a test double")
    void kernelModuleIsTheKernel() {
        JavaClasses kernelModule = new ClassFileImporter().importPath(root().resolve(
                "kernel-reference/core/target/classes"));
        noClasses().should().resideInAnyPackage("io.agentlab.kernel.runtime..", "io.agentlab.kernel.demo..")
                .orShould().dependOnClassesThat().resideInAnyPackage("okhttp3..", "okio..")
                .check(kernelModule);
        noClasses().should().haveNameMatching(".*\\.(Scripted|Manual)[A-Za-z]*")
                .because("test doubles ship as test fixtures, not in a main artifact")
                .check(new ClassFileImporter().importPaths(MODULES.stream().map(module -> root().resolve(module)
                        .resolve("target/classes")).filter(Files::isDirectory).toList()));
    }

    @Test
    @DisplayName("the contracts artifact uses no engine, replay, HTTP client, YAML parser or tokenizer class "
            + "(docs/plugin-contract.md#artifacts)")
    void contractsStandAlone() {
        JavaClasses contracts = new ClassFileImporter().importPath(root().resolve("contracts/target/classes"));
        assertThat(contracts.contain("io.agentlab.contracts.PluginContractRules")).isTrue();
        noClasses().should().dependOnClassesThat().resideInAnyPackage("io.agentlab.engine..",
                        "io.agentlab.providers..", "io.agentlab.provider..", "okhttp3..", "okio..",
                        "com.github.tomakehurst..", "org.wiremock..", "tools.jackson.dataformat.yaml..",
                        "com.knuddels..")
                .because("a plugin author's test classpath must not clash with the team's own libraries; PC-02's "
                        + "tokens come through io.agentlab.tokens (optional), PC-11 through PluginContractSupport")
                .check(contracts);
    }

    @Test
    @DisplayName("the checks see every module and tell internal types from API ones")
    void checksCanFail() {
        assertThat(classes.stream().map(JavaClass::getPackageName).distinct())
                .contains("io.agentlab.engine", "io.agentlab.engine.internal.execution", "io.agentlab.runner",
                        "io.agentlab.kernel.core", "io.agentlab.kernel.runtime",
                        "io.agentlab.cli", "io.agentlab.suites", "io.agentlab.plugins.contracts");
        assertThat(INTERNAL.test(classes.get("io.agentlab.engine.internal.execution.CaseRunner"))).isTrue();
        assertThat(INTERNAL.test(classes.get("io.agentlab.engine.ConfigurationKeys"))).isTrue();
        assertThat(INTERNAL.test(classes.get("io.agentlab.engine.ConformanceTestEngine"))).isFalse();
        assertThat(classes.get("io.agentlab.suites.ProviderStreamExportTest").getDirectDependenciesFromSelf())
                .as("the documented exception still exists; drop it from the rules when it goes")
                .anyMatch(dependency -> INTERNAL.test(dependency.getTargetClass()));
    }
}
