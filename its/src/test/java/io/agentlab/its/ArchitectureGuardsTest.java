package io.agentlab.its;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import com.tngtech.archunit.library.dependencies.SlicesRuleDefinition;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import org.apiguardian.api.API;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The guards JUnit and OkHttp keep, over every published artifact's main classes (docs/development.md#guards): no
 * package cycle inside an artifact, every public top-level type says with {@code @API} whether users may rely on
 * it, and no library class sets a JVM-wide property. They live here, in the module that sees every other module's classes, so one rule covers all artifacts and a
 * new module ({@link PublishedModules}) is guarded without a line of its own. Each rule is shown to fail on a seeded
 * violation under {@code io.agentlab.its.fixture}.
 */
class ArchitectureGuardsTest {

    /** Each class in the slice of its own package: a cycle is between packages, not package trees. */
    static final SliceAssignment PACKAGES = new SliceAssignment() {
        @Override
        public SliceIdentifier getIdentifierOf(JavaClass type) {
            return SliceIdentifier.of(type.getPackageName());
        }

        @Override
        public String getDescription() {
            return "packages";
        }
    };

    /** No package uses, directly or through others, a package that uses it. */
    static final ArchRule NO_PACKAGE_CYCLES = SlicesRuleDefinition.slices().assignedFrom(PACKAGES)
            .should().beFreeOfCycles()
            .because("a package cycle cannot be split into artifacts or read one package at a time"
                    + " (docs/development.md#guards)");

    /** Every public top-level type carries {@code @API}; nested types share their top-level type's status. */
    static final ArchRule API_STATUS = classes().that().arePublic().and().areTopLevelClasses()
            .should().beAnnotatedWith(API.class)
            .because("users must see what they may depend on: STABLE, EXPERIMENTAL, or INTERNAL"
                    + " (docs/api.md, docs/development.md#guards)");

    /**
     * The one class of the published main code that may set a JVM property: the command line's entry point, an
     * application that owns its JVM (docs/development.md#guards).
     */
    static final String APPLICATION_MAIN = "io.agentlab.cli.AgentLab";

    /** No library class changes what every other class of the JVM sees. */
    static final ArchRule NO_JVM_WIDE_PROPERTY = noClasses()
            .that(DescribedPredicate.describe("are not the application's main",
                    (JavaClass type) -> !type.getName().equals(APPLICATION_MAIN)))
            .should().callMethod(System.class, "setProperty", String.class, String.class)
            .orShould().callMethod(System.class, "setProperties", Properties.class)
            .orShould().callMethod(System.class, "clearProperty", String.class)
            .because("a library class must not set a JVM-wide property: the application decides"
                    + " (docs/development.md#guards)");

    /** Each module's main classes, imported once per test JVM ({@link #mainClasses}). */
    private static final Map<Path, JavaClasses> IMPORTED = new ConcurrentHashMap<>();

    static List<PublishedModules> modules() {
        List<PublishedModules> modules = PublishedModules.list();
        assertThat(modules).as("published modules read from the root pom").extracting(PublishedModules::directory)
                .contains("kernel-api", "kernel-reference", "runtime", "plugins",
                        "providers-recorded", "engine", "runner", "cli", "maven-plugin")
                .doesNotContain("its", "benchmarks", "bom");
        return modules;
    }

    /** A module's main classes, imported once per test JVM: three guards and the API dump read each module. */
    static JavaClasses mainClasses(PublishedModules module) {
        assertThat(module.classes()).as("%s is compiled (run this check in the reactor, after the modules it reads)",
                module).isDirectory();
        return IMPORTED.computeIfAbsent(module.classes(), classes -> new ClassFileImporter().importPath(classes));
    }

    private static Stream<DynamicTest> perModule(String what, ArchRule rule) {
        // a module of resources only (the shipped suites) has no classes to guard
        return modules().stream().filter(module -> Files.isDirectory(PublishedModules.root()
                        .resolve(module.directory()).resolve("src/main/java")))
                .map(module -> DynamicTest.dynamicTest(module + ": " + what, () -> rule.check(mainClasses(module))));
    }

    @TestFactory
    @DisplayName("no package cycle inside a published artifact")
    Stream<DynamicTest> noPackageCycles() {
        return perModule("no package cycle", NO_PACKAGE_CYCLES);
    }

    @TestFactory
    @DisplayName("every public top-level type of a published artifact carries @API")
    Stream<DynamicTest> everyPublicTypeHasAnApiStatus() {
        return perModule("@API on every public type", API_STATUS);
    }

    @TestFactory
    @DisplayName("no published main class but the command line's entry point sets a JVM-wide property")
    Stream<DynamicTest> noJvmWideProperty() {
        return perModule("no System.setProperty", NO_JVM_WIDE_PROPERTY);
    }

    private static JavaClasses fixture(String name) {
        return new ClassFileImporter().withImportOption(location -> true)
                .importPackages("io.agentlab.its.fixture." + name);
    }

    @Test
    @DisplayName("the cycle guard goes red on two packages that use each other")
    void cycleGuardCanFail() {
        JavaClasses cycle = fixture("cycle");
        assertThat(cycle.stream().map(JavaClass::getPackageName).distinct()).hasSize(2);
        assertThatThrownBy(() -> NO_PACKAGE_CYCLES.check(cycle)).isInstanceOf(AssertionError.class)
                .hasMessageContaining("Cycle detected").hasMessageContaining("io.agentlab.its.fixture.cycle.left")
                .hasMessageContaining("io.agentlab.its.fixture.cycle.right");
        NO_PACKAGE_CYCLES.check(fixture("unmarked"));
    }

    @Test
    @DisplayName("the @API guard goes red on a public type without a status, and only on it")
    void apiGuardCanFail() {
        JavaClasses unmarked = fixture("unmarked");
        assertThat(unmarked.contain("io.agentlab.its.fixture.unmarked.Unmarked$Nested")).isTrue();
        assertThatThrownBy(() -> API_STATUS.check(unmarked)).isInstanceOf(AssertionError.class)
                .hasMessageContaining("(1 times)")
                .hasMessageContaining("io.agentlab.its.fixture.unmarked.Unmarked");
        API_STATUS.check(unmarked.that(DescribedPredicate.describe("marked",
                type -> !type.getFullName().startsWith("io.agentlab.its.fixture.unmarked.Unmarked"))));
    }

    @Test
    @DisplayName("the JVM-property guard goes red on a class that sets one, and spares the application's main")
    void jvmWidePropertyGuardCanFail() {
        assertThatThrownBy(() -> NO_JVM_WIDE_PROPERTY.check(fixture("jvmwide"))).isInstanceOf(AssertionError.class)
                .hasMessageContaining("io.agentlab.its.fixture.jvmwide.SetsProperty")
                .hasMessageContaining("System.setProperty");
        JavaClasses cli = mainClasses(modules().stream().filter(module -> module.directory().equals("cli"))
                .findFirst().orElseThrow());
        assertThat(cli.get(APPLICATION_MAIN).getMethodCallsFromSelf()).as("the exception is still needed")
                .anyMatch(call -> call.getTarget().getName().equals("setProperty"));
        NO_JVM_WIDE_PROPERTY.check(cli);
    }

    @Test
    @DisplayName("the guards read main classes only, so test fixtures need no status")
    void mainClassesOnly() {
        JavaClasses engine = mainClasses(modules().stream().filter(module -> module.directory().equals("engine"))
                .findFirst().orElseThrow());
        assertThat(engine.contain("io.agentlab.engine.ConformanceTestEngine")).isTrue();
        assertThat(engine.stream().map(JavaClass::getSource)).allSatisfy(source -> assertThat(source.orElseThrow()
                .getUri().toString()).contains("/engine/target/classes/"));
    }
}
