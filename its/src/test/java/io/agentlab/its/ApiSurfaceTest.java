package io.agentlab.its;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.JavaField;
import com.tngtech.archunit.core.domain.JavaMember;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.domain.JavaType;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apiguardian.api.API;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Each published artifact's public API, committed as {@code <module>/api/<artifactId>.api}: its public types (with
 * their {@code @API} status, supertypes and modifiers) and their public and protected members, one sorted line each.
 * A change to the surface fails here with the lines that changed, so it shows in review as a change to that file
 * (docs/development.md#api-dumps). Regenerate with {@value #UPDATE}{@code =true}.
 */
class ApiSurfaceTest {

    /** The system property that rewrites the committed dumps instead of checking them. */
    static final String UPDATE = "agentlab-build.api.update";

    static final String HOW_TO_UPDATE = "if the change is meant, rewrite the dumps with mvn -B -o -q -pl its -am test"
            + " -Dtest=ApiSurfaceTest -Dsurefire.failIfNoSpecifiedTests=false -D" + UPDATE + "=true and commit them";

    /** The committed dump of {@code module}. */
    static Path dumpFile(PublishedModules module) {
        return PublishedModules.root().resolve(module.directory()).resolve("api").resolve(module.artifactId() + ".api");
    }

    /** The API of {@code classes}: its public types and their public and protected members, sorted. */
    static String dump(JavaClasses classes) {
        StringBuilder out = new StringBuilder();
        classes.stream().filter(ApiSurfaceTest::published).sorted(Comparator.comparing(JavaClass::getName))
                .forEach(type -> {
                    out.append(declaration(type)).append('\n');
                    type.getMembers().stream().filter(ApiSurfaceTest::visible).map(ApiSurfaceTest::member)
                            .distinct().sorted().forEach(member -> out.append("  ").append(member).append('\n'));
                });
        return out.toString();
    }

    /** A public type whose enclosing types are all public: one a user can name. */
    private static boolean published(JavaClass type) {
        if (type.isAnonymousClass() || type.isLocalClass() || !type.getModifiers().contains(JavaModifier.PUBLIC)) {
            return false;
        }
        return type.getEnclosingClass().map(ApiSurfaceTest::published).orElse(true);
    }

    private static boolean visible(JavaMember member) {
        Set<JavaModifier> modifiers = member.getModifiers();
        return (modifiers.contains(JavaModifier.PUBLIC) || modifiers.contains(JavaModifier.PROTECTED))
                && !modifiers.contains(JavaModifier.SYNTHETIC) && !modifiers.contains(JavaModifier.BRIDGE);
    }

    private static String declaration(JavaClass type) {
        String kind = type.isAnnotation() ? "@interface" : type.isInterface() ? "interface" : type.isEnum() ? "enum"
                : type.isRecord() ? "record" : "class";
        Set<JavaModifier> shown = new HashSet<>(type.getModifiers());
        if (type.isInterface() || type.isAnnotation()) {
            shown.remove(JavaModifier.ABSTRACT);
        }
        if (type.isEnum() || type.isRecord()) {
            shown.remove(JavaModifier.FINAL);
        }
        if (type.getEnclosingClass().isEmpty()) {
            shown.remove(JavaModifier.STATIC); // only a nested type can be static
        }
        StringBuilder line = new StringBuilder(modifiers(shown)).append(kind).append(' ').append(type.getName());
        type.getRawSuperclass().map(JavaClass::getName)
                .filter(name -> !List.of("java.lang.Object", "java.lang.Enum", "java.lang.Record").contains(name))
                .ifPresent(name -> line.append(" extends ").append(name));
        List<String> interfaces = type.getRawInterfaces().stream().map(JavaClass::getName)
                .filter(name -> !name.equals("java.lang.annotation.Annotation")).sorted().toList();
        if (!interfaces.isEmpty()) {
            line.append(type.isInterface() ? " extends " : " implements ").append(String.join(", ", interfaces));
        }
        type.tryGetAnnotationOfType(API.class).ifPresent(api -> line.append("  @API(").append(api.status())
                .append(')'));
        return line.toString();
    }

    private static String member(JavaMember member) {
        Set<JavaModifier> shown = new HashSet<>(member.getModifiers());
        if (member.getOwner().isInterface()) {
            shown.remove(JavaModifier.PUBLIC);
            shown.remove(JavaModifier.ABSTRACT);
        }
        String modifiers = modifiers(shown);
        if (member instanceof JavaField field) {
            return modifiers + typeName(field.getType()) + " " + field.getName();
        }
        JavaCodeUnit unit = (JavaCodeUnit) member;
        String parameters = unit.getParameterTypes().stream().map(ApiSurfaceTest::typeName)
                .collect(Collectors.joining(", ", "(", ")"));
        if (unit.isConstructor()) {
            return modifiers + "<init>" + parameters;
        }
        return modifiers + typeName(unit.getReturnType()) + " " + unit.getName() + parameters;
    }

    /** A type as Java writes it: {@code String[]}, not the descriptor {@code [Ljava.lang.String;}. */
    private static String typeName(JavaType type) {
        if (type instanceof JavaClass array && array.isArray()) {
            return typeName(array.getComponentType()) + "[]";
        }
        return type.getName();
    }

    /** Modifiers in the order Java writes them, without those the dump does not show. */
    private static String modifiers(Set<JavaModifier> modifiers) {
        StringBuilder out = new StringBuilder();
        for (JavaModifier modifier : List.of(JavaModifier.PUBLIC, JavaModifier.PROTECTED, JavaModifier.ABSTRACT,
                JavaModifier.STATIC, JavaModifier.FINAL)) {
            if (modifiers.contains(modifier)) {
                out.append(modifier.name().toLowerCase(Locale.ROOT)).append(' ');
            }
        }
        return out.toString();
    }

    /**
     * Nothing when {@code actual} is {@code committed}; otherwise what changed, line by line ({@code -} only in the
     * committed dump, {@code +} only in the classes), and how to accept it.
     */
    static List<String> difference(String name, String committed, String actual) {
        if (committed.equals(actual)) {
            return List.of();
        }
        List<String> before = committed.lines().toList();
        List<String> after = actual.lines().toList();
        Set<String> beforeSet = new HashSet<>(before);
        Set<String> afterSet = new HashSet<>(after);
        List<String> changes = new ArrayList<>();
        changes.add("the public API of " + name + " changed:");
        before.stream().filter(line -> !afterSet.contains(line)).map(line -> "- " + line).forEach(changes::add);
        after.stream().filter(line -> !beforeSet.contains(line)).map(line -> "+ " + line).forEach(changes::add);
        if (changes.size() == 1) {
            changes.add("  (the same lines in another order)");
        }
        changes.add(HOW_TO_UPDATE);
        return changes;
    }

    @TestFactory
    @DisplayName("each published artifact's public API is its committed dump")
    Stream<DynamicTest> apiIsTheCommittedDump() {
        boolean update = Boolean.getBoolean(UPDATE);
        return ArchitectureGuardsTest.modules().stream()
                .filter(module -> Files.isDirectory(PublishedModules.root().resolve(module.directory())
                        .resolve("src/main/java")))
                .map(module -> DynamicTest.dynamicTest(module.toString(), () -> {
                    String actual = dump(ArchitectureGuardsTest.mainClasses(module));
                    Path file = dumpFile(module);
                    if (update) {
                        Files.createDirectories(file.getParent());
                        Files.writeString(file, actual);
                        return;
                    }
                    assertThat(file).as("%s has no committed API dump; %s", module, HOW_TO_UPDATE).isRegularFile();
                    List<String> changes = difference(module.toString(), Files.readString(file), actual);
                    assertThat(changes).as(String.join("\n", changes)).isEmpty();
                }));
    }

    @Test
    @DisplayName("the dump lists public types and their public and protected members, and a change to it fails")
    void dumpCanFail() throws IOException {
        JavaClasses fixture = new ClassFileImporter().withImportOption(location -> true)
                .importPackages("io.agentlab.its.fixture.unmarked");
        String dump = dump(fixture);
        assertThat(dump).contains("public class io.agentlab.its.fixture.unmarked.Marked  @API(INTERNAL)\n  public <init>()")
                .contains("public static class io.agentlab.its.fixture.unmarked.Unmarked$Nested")
                .doesNotContain("Hidden");
        assertThat(difference("fixture", dump, dump)).isEmpty();
        String removed = dump.replace("public static class io.agentlab.its.fixture.unmarked.Unmarked$Nested\n", "");
        assertThat(difference("fixture", removed, dump)).containsExactly("the public API of fixture changed:",
                "+ public static class io.agentlab.its.fixture.unmarked.Unmarked$Nested", HOW_TO_UPDATE);
        assertThat(difference("fixture", dump + "  public void gone()\n", dump))
                .contains("-   public void gone()");
        assertThatThrownBy(() -> assertThat(difference("fixture", removed, dump)).isEmpty())
                .hasMessageContaining(UPDATE + "=true");
    }
}
