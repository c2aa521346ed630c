package io.agentlab.its;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
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

    /**
     * Modules whose classes are checked, relative to the repository root: these, and every published module of the
     * root pom ({@link PublishedModules}), so a new artifact is checked without a line here.
     */
    static final List<String> MODULES = Stream.concat(Stream.of("kernel-api", "kernel-reference",
            "runtime", "plugins", "providers-recorded", "engine", "runner", "plugins-contracts",
            "conformance-suites", "cli", "maven-plugin", "benchmarks", "runtime-service"),
            PublishedModules.list().stream().map(PublishedModules::directory)).distinct().toList();

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

    /**
     * Nothing outside the report artifact renders a report but through its facade; the one exception is the browser
     * test, which draws a synthesized page straight from the renderer (StatusLabelSweep) beside a run's report.
     */
    static final com.tngtech.archunit.lang.ArchRule REPORT_FACADE = noClasses().that()
            .resideOutsideOfPackage("io.agentlab.report..")
            .and().doNotHaveFullyQualifiedName("io.agentlab.engine.ReportBrowserTest")
            .should().dependOnClassesThat().resideInAPackage("io.agentlab.report.internal..")
            .because("the engine, the runner, the CLI and the Maven goal write reports through RunReports "
                    + "(docs/api.md#report)");

    @Test
    @DisplayName("the report's renderers (io.agentlab.report.internal) are used only through RunReports")
    void reportFacade() {
        REPORT_FACADE.check(classes);
        JavaClasses seeded = new ClassFileImporter().importPaths(
                root().resolve("its/target/test-classes/io/agentlab/its/fixture/reportinternal"));
        assertThatThrownBy(() -> REPORT_FACADE.check(seeded)).isInstanceOf(AssertionError.class)
                .hasMessageContaining("RendersItself");
    }

    /**
     * The kit's front ends, which build on every module and may use any module's {@code INTERNAL} types: the engine,
     * the runner (shard merge), the CLI and the Maven goal. Their own {@code INTERNAL} types are theirs alone.
     */
    static final List<String> FRONT_ENDS = List.of("engine", "runner", "cli", "maven-plugin");

    /** Modules written as a user writes against the kit: they use no other module's {@code INTERNAL} type. */
    static final List<String> USER_VIEWS = List.of("plugins-contracts");

    /**
     * The documented uses of a front end's {@code INTERNAL} types outside the front ends (docs/api.md): origin class
     * → the type name prefixes it may use; each still exists ({@link #checksCanFail()}).
     */
    static final Map<String, List<String>> DOCUMENTED = Map.of(
            "io.agentlab.suites.ProviderStreamExportTest", List.of("io.agentlab.engine."));

    /** The module (folder) a class was compiled in. */
    static String module(JavaClass type) {
        String uri = type.getSource().map(source -> source.getUri().toString()).orElse("");
        return MODULES.stream().filter(module -> uri.contains("/" + module + "/target/")).findFirst().orElse("?");
    }

    /** Whether the type, or the top-level type it is nested in, is marked {@code INTERNAL}. */
    static boolean internal(JavaClass type) {
        JavaClass top = type;
        while (top.getEnclosingClass().isPresent()) {
            top = top.getEnclosingClass().get();
        }
        return INTERNAL.test(type) || INTERNAL.test(top);
    }

    /**
     * The {@code INTERNAL} rule of docs/api.md: the kit's building blocks (kernel, runtime, plugins, recorded
     * providers, the suites' tests, the benchmarks) may use each other's {@code INTERNAL} types, which is what the
     * status is for, but never a front end's; a user's view uses none but its own; front ends use any.
     */
    static final ArchCondition<JavaClass> USE_INTERNALS_AS_DOCUMENTED = new ArchCondition<>(
            "use another module's INTERNAL types only as docs/api.md says") {
        @Override
        public void check(JavaClass origin, ConditionEvents events) {
            String from = module(origin);
            if (FRONT_ENDS.contains(from)) {
                return;
            }
            for (Dependency dependency : origin.getDirectDependenciesFromSelf()) {
                JavaClass target = dependency.getTargetClass();
                String to = module(target);
                if (!internal(target) || to.equals(from) || documented(origin, target)
                        || !(USER_VIEWS.contains(from) || FRONT_ENDS.contains(to))) {
                    continue;
                }
                events.add(SimpleConditionEvent.violated(dependency, dependency.getDescription() + " ("
                        + from + " uses an INTERNAL type of " + to + ")"));
            }
        }
    };

    private static boolean documented(JavaClass origin, JavaClass target) {
        return DOCUMENTED.entrySet().stream().anyMatch(entry -> origin.getName().startsWith(entry.getKey())
                && entry.getValue().stream().anyMatch(allowed -> target.getName().startsWith(allowed)));
    }

    @Test
    @DisplayName("types marked @API(status = INTERNAL): a front end's (the engine's) are used only by the front ends"
            + " (engine, runner, CLI, Maven goal) and the documented test; a user's view uses none of another module's")
    void internalTypes() {
        classes().should(USE_INTERNALS_AS_DOCUMENTED)
                .because("docs/api.md lists what users may depend on")
                .check(classes);
    }

    @Test
    @DisplayName("the kernel's module holds no runtime, HTTP or demo code, and no main class is a test double")
    void kernelModuleIsTheKernel() {
        JavaClasses kernelModule = new ClassFileImporter().importPath(root().resolve(
                "kernel-reference/target/classes"));
        noClasses().should().resideInAnyPackage("io.agentlab.runtime..", "io.agentlab.kernel.demo..")
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
                        "io.agentlab.kernel.reference", "io.agentlab.runtime",
                        "io.agentlab.cli", "io.agentlab.suites", "io.agentlab.plugins.contracts");
        assertThat(INTERNAL.test(classes.get("io.agentlab.engine.internal.execution.CaseRunner"))).isTrue();
        assertThat(INTERNAL.test(classes.get("io.agentlab.engine.ConfigurationKeys"))).isTrue();
        assertThat(INTERNAL.test(classes.get("io.agentlab.engine.ConformanceTestEngine"))).isFalse();
        assertThat(classes.get("io.agentlab.suites.ProviderStreamExportTest").getDirectDependenciesFromSelf())
                .as("the documented exception still exists; drop it from the rules when it goes")
                .anyMatch(dependency -> INTERNAL.test(dependency.getTargetClass()));
        assertThat(module(classes.get("io.agentlab.plugins.BuiltInPlugins"))).isEqualTo("plugins");
        assertThat(internal(classes.get("io.agentlab.engine.internal.execution.CaseRunner$Environment")))
                .as("a nested type shares its top-level type's status").isTrue();
        // a class outside the front ends that reaches the engine's internals is caught
        JavaClasses seeded = new ClassFileImporter().importPaths(root().resolve("engine/target/classes"),
                root().resolve("its/target/test-classes/io/agentlab/its/fixture/internaluse"));
        assertThatThrownBy(() -> classes().should(USE_INTERNALS_AS_DOCUMENTED).check(seeded))
                .isInstanceOf(AssertionError.class).hasMessageContaining("UsesInternal")
                .hasMessageContaining("uses an INTERNAL type of engine");
    }
}
