package io.agentlab.its;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * A real Maven build of a project outside the repository, with the local repository the kit was installed into: what
 * a user gets after {@code mvn install} in their clone.
 */
final class MavenBuild {

    /** The repository's root. */
    static final Path ROOT = Path.of(System.getProperty("agentlab-build.its.root", "..")).toAbsolutePath().normalize();

    /** How long one build or client launch may take before it is taken for hung. */
    private static final long LIMIT_MINUTES = 15;

    private MavenBuild() {
    }

    /**
     * The output and exit code of a build.
     *
     * @param exitCode Maven's exit code
     * @param log      everything it printed
     */
    record Result(int exitCode, String log) {
    }

    /** Runs {@code mvn -B <args>} in {@code project}; the log goes to {@code project/build-N.log} too. */
    static Result run(Path project, String... args) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("agentlab-build.its.maven", "/usr/share/maven"), "bin", "mvn").toString());
        command.add("-B");
        command.add("-Dmaven.repo.local=" + System.getProperty("agentlab-build.its.repository",
                Path.of(System.getProperty("user.home"), ".m2", "repository").toString()));
        command.addAll(List.of(args));
        return exec(project, "build-", command);
    }

    /** Runs {@code command} in {@code project}; what it prints goes to {@code project/<prefix>N.log} too. */
    static Result exec(Path project, String prefix, List<String> command) {
        try {
            Path log = Files.createTempFile(project, prefix, ".log");
            Process process = new ProcessBuilder(command).directory(project.toFile()).redirectErrorStream(true)
                    .redirectOutput(log.toFile()).start();
            process.getOutputStream().close();
            // a bound against a hung client only, far above any run's time: it measures nothing
            if (!process.waitFor(LIMIT_MINUTES, java.util.concurrent.TimeUnit.MINUTES)) {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly();
                throw new AssertionError("still running after " + LIMIT_MINUTES + " minutes, stopped: " + command
                        + "\n" + Files.readString(log, StandardCharsets.UTF_8));
            }
            return new Result(process.exitValue(), Files.readString(log, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /**
     * A fresh folder outside the repository, deleted when the test JVM exits, as JUnit deletes a {@code @TempDir}: each
     * copied project with its build output is several MiB, and a CI machine runs these checks on every change.
     */
    static Path freshFolder(String prefix) {
        try {
            Path folder = Files.createTempDirectory(prefix);
            Runtime.getRuntime().addShutdownHook(new Thread(() -> deleteQuietly(folder), "delete " + folder));
            return folder;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Deletes a folder tree, deepest first; what cannot be deleted stays (the JVM is exiting). */
    private static void deleteQuietly(Path folder) {
        try (Stream<Path> files = Files.walk(folder)) {
            files.sorted(Comparator.reverseOrder()).forEach(file -> file.toFile().delete());
        } catch (IOException | UncheckedIOException e) {
            // best effort at exit: a folder left in the temporary folder is no failure of the check that made it
        }
    }

    /** Copies a folder (without build output) into {@code to}. */
    static void copy(Path from, Path to) {
        try (Stream<Path> files = Files.walk(from)) {
            for (Path file : files.filter(f -> !from.relativize(f).startsWith("target")).toList()) {
                Path target = to.resolve(from.relativize(file).toString());
                if (Files.isDirectory(file)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(file, target, StandardCopyOption.REPLACE_EXISTING);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
