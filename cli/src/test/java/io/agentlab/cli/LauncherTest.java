package io.agentlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentlab.runner.JvmOptions;
import java.io.File;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
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

    /** bin/agentlab, from the module's folder where the tests run. */
    private static final Path SCRIPT = Path.of("..", "bin", "agentlab");
    /** The archive name of the JVM the plans below run on. */
    private static final String JVM = Launcher.jvmKey("Acme Corp", "17.0.99+1-x");

    @TempDir
    Path work;

    @Test
    @DisplayName("a plain java -jar is started again with the run's options, the archive's, AGENTLAB_JAVA_OPTS, then its own")
    void commandOrder() throws Exception {
        Path jar = Files.createFile(work.resolve("agentlab.jar"));
        Files.createFile(work.resolve("agentlab-" + JVM + ".jsa.wanted")); // a run since the build asked for one
        Launcher.Plan plan = Launcher.plan(Map.of("AGENTLAB_JAVA_OPTS", " -Xss2m  -Dx=1 "), null, jar.toString(), JVM,
                new String[] {"run", "--speed", "0"}).orElseThrow();
        List<String> command = plan.command("java", List.of("-Xmx1g", "-Dio.agentlab.launcher=stale"), work.resolve("p"));

        List<String> expected = new ArrayList<>(List.of("java"));
        expected.addAll(JvmOptions.SHORT_RUN);
        expected.addAll(JvmOptions.QUIET_SHARING);
        expected.add("-XX:ArchiveClassesAtExit=" + work.resolve("p")); // the second run makes the archive
        expected.addAll(List.of("-Xss2m", "-Dx=1", "-Xmx1g", "-Dio.agentlab.launcher=jar", "-cp",
                jar.toRealPath().toString(), AgentLab.class.getName(), "run", "--speed", "0"));
        assertThat(command).containsExactlyElementsOf(expected);
    }

    @Test
    @DisplayName("the archive is made by a build's second run, mapped when not older than the jar, never with CDS off")
    void archive() throws Exception {
        Path jar = Files.createFile(work.resolve("agentlab.jar"));
        assertThat(Launcher.plan(Map.of(), null, jar.toString(), JVM, new String[] {"--help"}).orElseThrow().sharing())
                .as("an archive made by --help would lack the run's classes").isEqualTo(Launcher.Sharing.NONE);
        Launcher.Plan first = Launcher.plan(Map.of(), null, jar.toString(), JVM, new String[] {"run"}).orElseThrow();
        assertThat(first.sharing()).as("a single run after a build would make it for nothing")
                .isEqualTo(Launcher.Sharing.LATER);
        Path wanted = Files.createFile(Launcher.wanted(first.archive()));
        Files.setLastModifiedTime(wanted, before(jar));
        assertThat(Launcher.plan(Map.of(), null, jar.toString(), JVM, new String[] {"run"}).orElseThrow().sharing())
                .as("a mark left before the jar was built is a first run's again").isEqualTo(Launcher.Sharing.LATER);
        FileTime same = Files.getLastModifiedTime(jar);
        Files.setLastModifiedTime(jar, same);
        Files.setLastModifiedTime(wanted, same); // as old as the jar: made since it was built
        assertThat(Launcher.plan(Map.of(), null, jar.toString(), JVM, new String[] {"run"}).orElseThrow().sharing())
                .isEqualTo(Launcher.Sharing.MAKE);
        Files.createFile(work.resolve("agentlab-" + JVM + ".jsa"));
        assertThat(Launcher.plan(Map.of(), null, jar.toString(), JVM, new String[] {"run"}).orElseThrow().sharing())
                .isEqualTo(Launcher.Sharing.USE);
        assertThat(Launcher.plan(Map.of("AGENTLAB_CDS", "off"), null, jar.toString(), JVM, new String[] {"run"})
                .orElseThrow().sharing()).isEqualTo(Launcher.Sharing.NONE);
    }

    @Test
    @DisplayName("each JVM build has an archive of its own, another build's is never mapped, and no key means no key")
    void archivePerJvm() throws Exception {
        Path jar = Files.createFile(work.resolve("agentlab.jar"));
        assertThat(JVM).isEqualTo("Acme-Corp-17.0.99-1-x");
        Launcher.Plan acme = Launcher.plan(Map.of(), null, jar.toString(), JVM, new String[] {"run"}).orElseThrow();
        assertThat(acme.archive().getFileName()).hasToString("agentlab-Acme-Corp-17.0.99-1-x.jsa");
        Files.createFile(acme.archive());

        Launcher.Plan other = Launcher.plan(Map.of(), null, jar.toString(),
                Launcher.jvmKey("Other", "25.0.1+2-LTS"), new String[] {"run"}).orElseThrow();
        assertThat(other.archive()).isNotEqualTo(acme.archive());
        assertThat(other.sharing()).as("another build refuses this archive whole, so it asks for its own")
                .isEqualTo(Launcher.Sharing.LATER);
        assertThat(Launcher.jvmKey("Acme Corp", null)).isNull();
        assertThat(Launcher.plan(Map.of(), null, jar.toString(), null, new String[] {"run"}).orElseThrow().archive()
                .getFileName()).hasToString("agentlab.jsa");
    }

    @Test
    @DisplayName("bin/agentlab names each JVM build's archive as the jar's launcher does, and maps no other build's")
    void scriptArchivePerJvm() throws Exception {
        Path jar = Files.createFile(work.resolve("agentlab.jar"));
        Path acme = fakeJdk("acme", release("Acme Corp", "17.0.99+1-x"));
        Path other = fakeJdk("other", release("Other", "25.0.1+2-LTS"));
        Path archive = Launcher.plan(Map.of(), null, jar.toString(), JVM, new String[] {"run"}).orElseThrow()
                .archive();

        assertThat(script(home(acme), jar, "run")).as("a JVM's first run after a build only asks for an archive")
                .noneMatch(option -> option.contains(".jsa"));
        assertThat(Launcher.wanted(archive)).as("named by its build, as the jar's launcher names it").exists();
        Files.setLastModifiedTime(Launcher.wanted(archive), before(jar));
        assertThat(script(home(acme), jar, "run")).as("a mark left before the jar was built is a first run's again")
                .noneMatch(option -> option.contains(".jsa"));
        assertThat(Files.getLastModifiedTime(Launcher.wanted(archive))).isGreaterThanOrEqualTo(
                Files.getLastModifiedTime(jar));
        Path[] left = leftovers(archive);
        assertThat(script(home(acme), jar, "run")).as("the second makes it")
                .anyMatch(option -> option.startsWith("-XX:ArchiveClassesAtExit=" + archive + "."));
        assertThat(archive).as("moved into place after the run").exists();
        assertLeftoversRemoved(left);
        assertThat(Launcher.wanted(archive)).doesNotExist();
        left = leftovers(archive);
        assertThat(script(home(acme), jar, "run")).contains("-XX:SharedArchiveFile=" + archive);
        assertLeftoversRemoved(left); // a killed maker's java may write its file after the archive was made
        Path others = archive.resolveSibling("agentlab-Other-25.0.1-2-LTS.jsa");
        Files.writeString(other.resolve("exit"), "2");
        assertThat(script(home(other), jar, 2, "run")).as("another JVM build never maps it")
                .noneMatch(option -> option.contains(".jsa"));
        assertThat(Launcher.wanted(others)).as("a run that stopped half-way asks for nothing").doesNotExist();
        Files.delete(other.resolve("exit"));
        assertThat(script(home(other), jar, "run")).noneMatch(option -> option.contains(".jsa"));
        assertThat(script(home(other), jar, "run")).as("and makes its own")
                .anyMatch(option -> option.startsWith("-XX:ArchiveClassesAtExit=" + others + "."));

        Path onPath = Files.createDirectories(work.resolve("on-path"));
        Files.createSymbolicLink(onPath.resolve("java"), acme.resolve("bin").resolve("java"));
        Map<String, String> linked = new HashMap<>(Map.of("PATH", onPath + File.pathSeparator + System.getenv("PATH")));
        assertThat(script(linked, jar, "run")).as("a java on the PATH is followed to its JDK's release file")
                .contains("-XX:SharedArchiveFile=" + archive);

        Files.delete(other.resolve("release"));
        assertThat(script(home(other), jar, "run", "--help")).as("a help request makes no archive")
                .noneMatch(option -> option.contains(".jsa"));
        script(home(other), jar, "run");
        assertThat(Launcher.wanted(archive.resolveSibling("agentlab.jsa")))
                .as("a java whose JDK names no build keeps the archive without a key").exists();
    }

    @Test
    @DisplayName("on the JDK running this test, bin/agentlab and java -jar name the same archive")
    void scriptAndJarAgreeOnThisJdk() throws Exception {
        Path jar = Files.createFile(work.resolve("agentlab.jar"));
        Path copy = fakeJdk("this", Files.readString(Path.of(System.getProperty("java.home"), "release")));
        Path archive = Launcher.plan(Map.of(), null, jar.toString(), Launcher.jvmKey(), new String[] {"run"})
                .orElseThrow().archive();
        assertThat(archive.getFileName().toString()).as("a key from this JVM's properties").startsWith("agentlab-")
                .isNotEqualTo("agentlab.jsa");
        script(home(copy), jar, "run");
        assertThat(Launcher.wanted(archive)).exists();
    }


    private static String release(String vendor, String version) {
        return "IMPLEMENTOR=\"" + vendor + "\"\nJAVA_RUNTIME_VERSION=\"" + version + "\"\nJAVA_VERSION=\"17\"\n";
    }

    private static Map<String, String> home(Path jdk) {
        return Map.of("JAVA_HOME", jdk.toString());
    }

    /**
     * A JDK home with the given {@code release} file and a {@code java} that writes its arguments to a file (the
     * environment's {@code AGENTLAB_TEST_ARGS}, else {@code args.txt} in the home) and an empty archive where it is
     * told to make one, and exits with the code in the home's {@code exit} file (0 without one).
     */
    private Path fakeJdk(String name, String release) throws Exception {
        Path home = Files.createDirectories(work.resolve(name).resolve("bin")).getParent();
        Files.writeString(home.resolve("release"), release);
        Path java = Files.writeString(home.resolve("bin").resolve("java"),
                "#!/bin/sh\nhome=\"$(dirname \"$(readlink -f \"$0\")\")/..\"\n"
                        + "printf '%s\\n' \"$@\" > \"${AGENTLAB_TEST_ARGS:-$home/args.txt}\"\nfor a in \"$@\"; do\n"
                        + "  case \"$a\" in -XX:ArchiveClassesAtExit=*) : > \"${a#*=}\" ;; esac\ndone\n"
                        + "exit \"$(cat \"$home/exit\" 2>/dev/null || echo 0)\"\n");
        assertThat(java.toFile().setExecutable(true)).isTrue();
        return home;
    }

    /** The JVM arguments bin/agentlab starts java with; no JAVA_HOME unless {@code env} sets it. */
    private List<String> script(Map<String, String> env, Path jar, String... args) throws Exception {
        return script(env, jar, 0, args);
    }

    /** As {@link #script(Map, Path, String...)}, for a run that exits with {@code status}. */
    private List<String> script(Map<String, String> env, Path jar, int status, String... args) throws Exception {
        Path recorded = work.resolve("args.txt");
        List<String> command = new ArrayList<>(List.of("sh", SCRIPT.toString()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(work.resolve("script-out.txt").toFile());
        withoutKitVariables(builder);
        builder.environment().remove("JAVA_HOME");
        builder.environment().putAll(env);
        builder.environment().putAll(Map.of("AGENTLAB_JAR", jar.toString(), "AGENTLAB_TEST_ARGS", recorded.toString()));
        Process process = builder.start();
        assertThat(process.waitFor(1, TimeUnit.MINUTES)).isTrue();
        assertThat(process.exitValue()).as(Files.readString(work.resolve("script-out.txt"))).isEqualTo(status);
        List<String> options = Files.readAllLines(recorded);
        Files.delete(recorded);
        return options;
    }

    /** The kit's environment variables set where the build runs would change what a test's process does. */
    private static void withoutKitVariables(ProcessBuilder builder) {
        builder.environment().keySet().removeIf(key -> key.startsWith("AGENTLAB_"));
    }

    @Test
    @DisplayName("java -jar asks for the archive when a first run finishes, makes it on the second, then maps it")
    void relaunchSequence() throws Exception {
        Path jar = Files.createFile(work.resolve("agentlab.jar"));
        Path jdk = fakeJdk("acme", release("Acme Corp", "17.0.99+1-x"));
        Path archive = work.toRealPath().resolve("agentlab-" + JVM + ".jsa");
        Path wanted = Launcher.wanted(archive);

        Files.writeString(jdk.resolve("exit"), "2");
        assertThat(relaunch(jar, jdk)).isEqualTo(2);
        assertThat(wanted).as("a run that stopped half-way asks for nothing").doesNotExist();
        Files.delete(jdk.resolve("exit"));
        assertThat(relaunch(jar, jdk)).isZero();
        assertThat(Files.readAllLines(jdk.resolve("args.txt"))).noneMatch(option -> option.contains(".jsa"));
        assertThat(wanted).as("a first run that finished asks for it").exists();
        Files.setLastModifiedTime(wanted, before(jar));
        assertThat(relaunch(jar, jdk)).isZero();
        assertThat(Files.readAllLines(jdk.resolve("args.txt"))).as("a mark older than the jar is a first run's")
                .noneMatch(option -> option.contains(".jsa"));
        assertThat(Files.getLastModifiedTime(wanted)).isGreaterThanOrEqualTo(Files.getLastModifiedTime(jar));

        Path[] left = leftovers(archive);
        assertThat(relaunch(jar, jdk)).isZero();
        assertLeftoversRemoved(left);
        assertThat(Files.readAllLines(jdk.resolve("args.txt"))).as("the second run makes it")
                .contains("-XX:ArchiveClassesAtExit=" + archive + "." + ProcessHandle.current().pid());
        assertThat(archive).as("moved into place").exists();
        assertThat(wanted).doesNotExist();
        left = leftovers(archive);
        assertThat(relaunch(jar, jdk)).isZero();
        assertThat(Files.readAllLines(jdk.resolve("args.txt"))).contains("-XX:SharedArchiveFile=" + archive);
        assertLeftoversRemoved(left); // a killed maker's java may write its file after the archive was made
    }

    /**
     * Beside the archive: what a killed maker left ({@code .<pid>} of a process that has ended), what a maker that
     * still runs writes ({@code .<pid>} of the process that started this JVM: this JVM's own is the name the launcher
     * under test makes it under), and two files that are no maker's ({@code .12x}, {@code .1.<the ended pid>}).
     */
    private static Path[] leftovers(Path archive) throws Exception {
        Process ended = new ProcessBuilder("true").start();
        assertThat(ended.waitFor(1, TimeUnit.MINUTES)).isTrue();
        Path gone = Files.createFile(archive.resolveSibling(archive.getFileName() + "." + ended.pid()));
        Path running = Files.createFile(archive.resolveSibling(archive.getFileName() + "."
                + ProcessHandle.current().parent().orElseThrow().pid()));
        Path other = Files.createFile(archive.resolveSibling(archive.getFileName() + ".12x"));
        Path dotted = Files.createFile(archive.resolveSibling(archive.getFileName() + ".1." + ended.pid()));
        return new Path[] {gone, running, other, dotted};
    }

    private static void assertLeftoversRemoved(Path[] left) throws Exception {
        assertThat(left[0]).as("a killed maker's file is removed by a run that maps or makes the archive")
                .doesNotExist();
        assertThat(left[1]).as("a maker that still runs keeps its file").exists();
        assertThat(left[2]).as("a file that is no maker's stays").exists();
        assertThat(left[3]).as("nor is one whose name only ends in an ended process's pid").exists();
        for (Path file : left) {
            Files.deleteIfExists(file);
        }
    }

    /** The plan of a {@code run} on the jar, started again with the stand-in JDK's java. */
    private static int relaunch(Path jar, Path jdk) {
        Launcher.Plan plan = Launcher.plan(Map.of(), null, jar.toString(), JVM, new String[] {"run"}).orElseThrow();
        return Launcher.relaunch(plan, jdk.resolve("bin").resolve("java").toString(), List.of());
    }

    /** A time a minute before the file's. */
    private static FileTime before(Path file) throws Exception {
        return FileTime.fromMillis(Files.getLastModifiedTime(file).toMillis() - 60_000);
    }

    @Test
    @DisplayName("the tool runs in place when it was started with the options already, when asked, or not from one jar")
    void inPlace() throws Exception {
        Path jar = Files.createFile(work.resolve("agentlab.jar"));
        String[] args = {"run"};
        assertThat(Launcher.plan(Map.of(), "script", jar.toString(), JVM, args)).isEmpty();
        assertThat(Launcher.plan(Map.of(Launcher.RELAUNCH, "off"), null, jar.toString(), JVM, args)).isEmpty();
        assertThat(Launcher.plan(Map.of(), null, jar + File.pathSeparator + jar, JVM, args)).isEmpty();
        assertThat(Launcher.plan(Map.of(), null, work.toString(), JVM, args)).isEmpty();
    }

    @Test
    @DisplayName("bin/agentlab starts the JVM with the same options as the jar's launcher")
    void scriptSharesTheList() throws Exception {
        String script = Files.readString(SCRIPT);
        String line = script.lines().filter(l -> l.startsWith("options=\"")).findFirst().orElseThrow();
        List<String> words = Arrays.asList(line.substring("options=\"".length(), line.length() - 1).split("\\s+"));
        assertThat(script).as("the JVM is started with them").contains("\"$java\" $options ");
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
                    .as("a run that stopped with exit 2 leaves no archive behind, nor asks for one")
                    .noneMatch(name -> name.contains(".jsa"));
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
        withoutKitVariables(builder);
        builder.environment().put(Launcher.TRACE, "1");
        return builder.start();
    }
}
