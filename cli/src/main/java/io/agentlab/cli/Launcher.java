package io.agentlab.cli;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.agentlab.runner.JvmOptions;
import java.io.File;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Stream;
import org.apiguardian.api.API;

/**
 * The main class of {@code agentlab.jar}: a plain {@code java -jar agentlab.jar} starts the command line tool again in
 * a JVM with the options {@code bin/agentlab} gives it ({@link JvmOptions}) and the class-data-sharing archive beside
 * the jar, so the command a user types is never the slow path (docs/performance.md#jvm-start-up-options). A JVM that
 * is already one of those ({@value #LAUNCHED} set), {@code AGENTLAB_RELAUNCH=off}, or a class path that is not one
 * jar runs the tool in place.
 */
@API(status = INTERNAL, since = "0.2")
public final class Launcher {

    /** The system property that says the JVM was started with the run's options (its value says by whom). */
    static final String LAUNCHED = "io.agentlab.launcher";
    /** The environment variable that keeps the tool in the JVM the user started ({@code off}). */
    static final String RELAUNCH = "AGENTLAB_RELAUNCH";
    /** The environment variable that prints the command the jar starts itself with, on standard error. */
    static final String TRACE = "AGENTLAB_LAUNCHER_TRACE";

    private Launcher() {
    }

    /** Runs the tool, in a JVM of its own options when this one was started plainly. */
    public static void main(String[] args) {
        Optional<Plan> plan = plan(System.getenv(), System.getProperty(LAUNCHED),
                System.getProperty("java.class.path"), jvmKey(), args);
        if (plan.isEmpty()) {
            AgentLab.main(args);
            return;
        }
        System.exit(relaunch(plan.get(), Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                ManagementFactory.getRuntimeMXBean().getInputArguments()));
    }

    /**
     * How the tool is started again.
     *
     * @param jar     the jar (absolute, real path): the class path, and where the sharing archive lives
     * @param archive the class-data-sharing archive beside it, this JVM build's own
     * @param sharing what to do with the archive
     * @param extra   {@code AGENTLAB_JAVA_OPTS}, split on white space
     * @param args    the tool's arguments
     */
    record Plan(Path jar, Path archive, Sharing sharing, List<String> extra, List<String> args) {

        /**
         * The child's command line: the run's options, the archive's, {@code AGENTLAB_JAVA_OPTS}, then the options
         * this JVM was given (later options win, so a user's {@code -Xmx} or {@code -XX:+UseG1GC} still holds).
         */
        List<String> command(String java, List<String> inherited, Path pending) {
            List<String> command = new ArrayList<>();
            command.add(java);
            command.addAll(JvmOptions.SHORT_RUN);
            command.addAll(JvmOptions.QUIET_SHARING);
            switch (sharing) {
                case USE -> command.add("-XX:SharedArchiveFile=" + archive);
                case MAKE -> command.add("-XX:ArchiveClassesAtExit=" + pending);
                case LATER, NONE -> {
                }
            }
            command.addAll(extra);
            inherited.stream().filter(option -> !option.startsWith("-D" + LAUNCHED + "=")).forEach(command::add);
            command.add("-D" + LAUNCHED + "=jar");
            command.add("-cp");
            command.add(jar.toString());
            command.add(AgentLab.class.getName());
            command.addAll(args);
            return command;
        }
    }

    /** What becomes of the sharing archive. */
    enum Sharing {
        /** Map it: it exists and is not older than the jar. */
        USE,
        /**
         * Make it at the end of this run: the second {@code run} since the jar changed (one made by {@code --help}
         * would lack a run's classes, so a help request makes none).
         */
        MAKE,
        /**
         * Only say, when this run finishes, that one is wanted ({@link #wanted}), so that the next run makes it:
         * making it costs a run seconds and twice the memory, which a single run after a build (a CI job on a fresh
         * clone) would pay for nothing (docs/performance.md#archive-on-the-second-run).
         */
        LATER,
        /** Neither ({@code AGENTLAB_CDS=off}, or no archive and nothing to make it from). */
        NONE
    }

    /**
     * The JVM build as a file-name part, {@code bin/agentlab}'s too (it reads the same two values from the JDK's
     * {@code release} file): an archive maps only into the build that made it, and another build refuses it whole, its
     * own JDK classes too. So each build has an archive of its own, and a change of JDK makes a new one instead of
     * running without any, never to be remade (docs/performance.md#archive-per-jvm).
     *
     * @return {@code <vendor>-<runtime version>} with every character but letters, digits and dots turned into
     *     {@code -}, or {@code null} when the version is unknown (then the archive has no key, as
     *     {@code bin/agentlab}'s has for a {@code java} whose JDK it cannot find)
     */
    static String jvmKey(String vendor, String runtimeVersion) {
        if (runtimeVersion == null || runtimeVersion.isEmpty()) {
            return null;
        }
        return (Objects.requireNonNullElse(vendor, "") + "-" + runtimeVersion).replaceAll("[^A-Za-z0-9.]", "-");
    }

    /** The running JVM's {@link #jvmKey(String, String)}: its {@code java.vendor} and {@code java.runtime.version}. */
    static String jvmKey() {
        return jvmKey(System.getProperty("java.vendor"), System.getProperty("java.runtime.version"));
    }

    /**
     * The plan, or empty to run in place.
     *
     * @param jvm the JVM's {@link #jvmKey()}, {@code null} when it names none
     */
    static Optional<Plan> plan(Map<String, String> env, String launched, String classPath, String jvm,
            String[] args) {
        if (launched != null || "off".equals(env.get(RELAUNCH)) || classPath == null
                || classPath.contains(File.pathSeparator) || !classPath.endsWith(".jar")) {
            return Optional.empty();
        }
        Path jar;
        try {
            jar = Path.of(classPath).toRealPath();
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
        String name = jar.getFileName().toString();
        Path archive = jar.resolveSibling(name.substring(0, name.length() - ".jar".length())
                + (jvm == null ? "" : "-" + jvm) + ".jsa");
        Sharing sharing = Sharing.NONE;
        if (!"off".equals(env.get("AGENTLAB_CDS"))) {
            if (fresh(archive, jar)) {
                sharing = Sharing.USE;
            } else if (args.length > 0 && "run".equals(args[0]) && !List.of(args).contains("--help")
                    && !List.of(args).contains("-h") && Files.isWritable(jar.getParent())) {
                sharing = fresh(wanted(archive), jar) ? Sharing.MAKE : Sharing.LATER;
            }
        }
        String extra = env.getOrDefault("AGENTLAB_JAVA_OPTS", "").strip();
        return Optional.of(new Plan(jar, archive, sharing, extra.isEmpty() ? List.of()
                : Arrays.asList(extra.split("\\s+")), List.of(args)));
    }

    /** The file a first run leaves beside the jar so that the next makes the archive; {@code bin/agentlab}'s too. */
    static Path wanted(Path archive) {
        return archive.resolveSibling(archive.getFileName() + ".wanted");
    }

    /**
     * Removes what a launcher that was killed while it made the archive left beside it, {@code <archive>.<pid>} of a
     * launcher that is gone (its java may write it after the launcher died), on every run that maps, makes or asks for
     * the archive, as {@code bin/agentlab} does: nothing moves such a file into place, and nothing else would remove
     * it before {@code mvn clean} (docs/performance.md#archive-leftovers). A file whose process still runs is a run
     * making it now, and stays, as does any name that is not the archive's with a pid after it.
     */
    static void removeLeftovers(Path archive) {
        String prefix = archive.getFileName() + ".";
        List<Path> siblings;
        try (Stream<Path> listed = Files.list(archive.getParent())) {
            siblings = listed.filter(file -> file.getFileName().toString().startsWith(prefix)).toList();
        } catch (IOException | RuntimeException e) {
            return; // the archive only speeds later runs up: a file left behind costs disk, not a run
        }
        for (Path left : siblings) {
            String pid = left.getFileName().toString().substring(prefix.length());
            if (isPid(pid) && ProcessHandle.of(Long.parseLong(pid)).isEmpty()) {
                try {
                    Files.deleteIfExists(left);
                } catch (IOException e) {
                    // the next file all the same
                }
            }
        }
    }

    /** Digits only, no leading zero, short enough for a long: the names {@code bin/agentlab} takes for a pid. */
    private static boolean isPid(String text) {
        return !text.isEmpty() && text.length() < 19 && text.charAt(0) != '0'
                && text.chars().allMatch(c -> c >= '0' && c <= '9');
    }

    private static boolean fresh(Path archive, Path jar) {
        try {
            return Files.isRegularFile(archive)
                    && Files.getLastModifiedTime(archive).compareTo(Files.getLastModifiedTime(jar)) >= 0;
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * Starts the tool again with {@code java}, waits for it, asks for or keeps the archive as the plan says when it
     * finished, and returns its exit code.
     */
    static int relaunch(Plan plan, String java, List<String> inherited) {
        // made under a name of this process's own, moved into place after a run that finished (exit 0 or 1): two
        // runs at once never map a half-written archive, and one that failed leaves none behind
        Path pending = plan.archive().resolveSibling(plan.archive().getFileName() + "." + ProcessHandle.current().pid());
        if (plan.sharing() != Sharing.NONE) {
            removeLeftovers(plan.archive());
        }
        List<String> command = plan.command(java, inherited, pending);
        if (System.getenv(TRACE) != null) {
            System.err.println("agentlab: starting " + String.join(" ", command));
        }
        Process child;
        try {
            child = new ProcessBuilder(command).inheritIO().start();
        } catch (IOException e) {
            System.err.println("agentlab: cannot start " + command.get(0) + ": " + e.getMessage()
                    + " (AGENTLAB_RELAUNCH=off runs the tool in this JVM)");
            return AgentLab.USAGE;
        }
        // a parent stopped by a signal takes the tool with it
        Thread stop = new Thread(child::destroy, "agentlab-launcher-stop");
        Runtime.getRuntime().addShutdownHook(stop);
        int status;
        try {
            status = child.waitFor();
        } catch (InterruptedException e) {
            child.destroy();
            Thread.currentThread().interrupt();
            return 130;
        }
        // 0 and 1 are runs that finished (passed, or with failing cases); anything else may have stopped half-way.
        // The archive only speeds later runs up: no step here changes the run's exit code.
        try {
            if (plan.sharing() == Sharing.LATER && status <= 1) {
                Path wanted = wanted(plan.archive());
                Files.deleteIfExists(wanted); // a new file, so its time is now's
                Files.createFile(wanted);
            }
            if (plan.sharing() == Sharing.MAKE && Files.isRegularFile(pending)) {
                if (status <= 1) {
                    Files.move(pending, plan.archive(), StandardCopyOption.REPLACE_EXISTING,
                            StandardCopyOption.ATOMIC_MOVE);
                    Files.deleteIfExists(wanted(plan.archive()));
                } else {
                    Files.deleteIfExists(pending);
                }
            }
        } catch (IOException e) {
            // the archive only speeds later runs up: without it they load classes as usual
        }
        return status;
    }
}
