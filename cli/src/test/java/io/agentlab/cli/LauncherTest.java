package io.agentlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentlab.runner.JvmOptions;
import java.io.File;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Collectors;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code java -jar agentlab.jar} starts the tool again with the run's JVM options, so the command a user types is never
 * the slow path (docs/performance.md#jvm-start-up-options): the plan, the one option list {@code bin/agentlab} shares,
 * and a real {@code java -jar} whose child carries the options and whose exit code is the child's.
 */
class LauncherTest {

    @TempDir
    Path work;

    @Test
    @DisplayName("a plain java -jar is started again with the run's options, the archive's, AGENTLAB_JAVA_OPTS, then its own")
    void commandOrder() throws Exception {
        Path jar = Files.createFile(work.resolve("agentlab.jar"));
        Launcher.Plan plan = Launcher.plan(Map.of("AGENTLAB_JAVA_OPTS", " -Xss2m  -Dx=1 "), null, jar.toString(),
                new String[] {"run", "--speed", "0"}).orElseThrow();
        List<String> command = plan.command("java", List.of("-Xmx1g", "-Dio.agentlab.launcher=stale"), work.resolve("p"));

        List<String> expected = new ArrayList<>(List.of("java"));
        expected.addAll(JvmOptions.SHORT_RUN);
        expected.addAll(JvmOptions.QUIET_SHARING);
        expected.add("-XX:ArchiveClassesAtExit=" + work.resolve("p")); // a first run makes the archive
        expected.addAll(List.of("-Xss2m", "-Dx=1", "-Xmx1g", "-Dio.agentlab.launcher=jar", "-cp",
                jar.toRealPath().toString(), AgentLab.class.getName(), "run", "--speed", "0"));
        assertThat(command).containsExactlyElementsOf(expected);
    }

    @Test
    @DisplayName("the archive is mapped when it is not older than the jar, made only by a run, and never with AGENTLAB_CDS=off")
    void archive() throws Exception {
        Path jar = Files.createFile(work.resolve("agentlab.jar"));
        assertThat(Launcher.plan(Map.of(), null, jar.toString(), new String[] {"--help"}).orElseThrow().sharing())
                .as("an archive made by --help would lack the run's classes").isEqualTo(Launcher.Sharing.NONE);
        Files.createFile(work.resolve("agentlab.jsa"));
        assertThat(Launcher.plan(Map.of(), null, jar.toString(), new String[] {"run"}).orElseThrow().sharing())
                .isEqualTo(Launcher.Sharing.USE);
        assertThat(Launcher.plan(Map.of("AGENTLAB_CDS", "off"), null, jar.toString(), new String[] {"run"})
                .orElseThrow().sharing()).isEqualTo(Launcher.Sharing.NONE);
    }

    @Test
    @DisplayName("the tool runs in place when it was started with the options already, when asked, or not from one jar")
    void inPlace() throws Exception {
        Path jar = Files.createFile(work.resolve("agentlab.jar"));
        String[] args = {"run"};
        assertThat(Launcher.plan(Map.of(), "script", jar.toString(), args)).isEmpty();
        assertThat(Launcher.plan(Map.of(Launcher.RELAUNCH, "off"), null, jar.toString(), args)).isEmpty();
        assertThat(Launcher.plan(Map.of(), null, jar + File.pathSeparator + jar, args)).isEmpty();
        assertThat(Launcher.plan(Map.of(), null, work.toString(), args)).isEmpty();
    }

    @Test
    @DisplayName("bin/agentlab starts the JVM with the same options as the jar's launcher")
    void scriptSharesTheList() throws Exception {
        String script = Files.readString(Path.of("..", "bin", "agentlab"));
        String line = script.lines().filter(l -> l.startsWith("\"$java\" ")).findFirst().orElseThrow();
        List<String> words = Arrays.stream(line.split("\\s+")).filter(word -> word.startsWith("-X"))
                .collect(Collectors.toList());
        List<String> expected = new ArrayList<>(JvmOptions.SHORT_RUN);
        expected.addAll(JvmOptions.QUIET_SHARING);
        assertThat(words).containsExactlyElementsOf(expected);
    }

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    @DisplayName("java -jar: the child carries the options and its exit code is the command's")
    void realJar() throws Exception {
        Path jar = launcherJar();
        Process help = start(jar, "--version");
        assertThat(help.waitFor()).isZero();
        String err = Files.readString(work.resolve("err.txt"));
        assertThat(err).contains("agentlab: starting").contains(String.join(" ", JvmOptions.SHORT_RUN))
                .contains("-D" + Launcher.LAUNCHED + "=jar");
        assertThat(Files.readString(work.resolve("out.txt"))).startsWith("agentlab ");

        Process validate = start(jar, "validate", "--suites", Run.suites("passing"));
        assertThat(validate.waitFor()).as(Files.readString(work.resolve("err.txt"))).isZero();
        assertThat(Files.readString(work.resolve("out.txt")) + Files.readString(work.resolve("err.txt")))
                .as("the launcher's own marker property is no configuration key a user set")
                .doesNotContain("unknown configuration key").doesNotContain("non-critical issue");

        Process bad = start(jar, "run", "--speed", "nope");
        assertThat(bad.waitFor()).as("a usage error is exit 2 through the launcher").isEqualTo(2);
        assertThat(Files.readString(work.resolve("err.txt"))).contains("'--speed'");
        try (var files = Files.list(work)) {
            assertThat(files.map(path -> path.getFileName().toString()))
                    .as("a run that stopped with exit 2 leaves no archive behind").noneMatch(name -> name.contains(".jsa"));
        }
    }

    /** A jar whose manifest names the launcher and, as its class path, this test's own. */
    private Path launcherJar() throws Exception {
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.getMainAttributes().put(Attributes.Name.MAIN_CLASS, Launcher.class.getName());
        manifest.getMainAttributes().put(Attributes.Name.CLASS_PATH, Arrays.stream(
                        System.getProperty("java.class.path").split(File.pathSeparator))
                .map(entry -> Path.of(entry).toUri().toString()).collect(Collectors.joining(" ")));
        Path jar = work.resolve("agentlab.jar");
        try (OutputStream out = Files.newOutputStream(jar); JarOutputStream ignored = new JarOutputStream(out, manifest)) {
            // the manifest is the whole jar
        }
        return jar;
    }

    private Process start(Path jar, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-jar", jar.toString()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).redirectOutput(work.resolve("out.txt").toFile())
                .redirectError(work.resolve("err.txt").toFile());
        builder.environment().put(Launcher.TRACE, "1");
        builder.environment().remove("AGENTLAB_JAVA_OPTS");
        return builder.start();
    }
}
