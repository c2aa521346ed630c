package io.agentlab.suites;

import static org.assertj.core.api.Assertions.fail;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;

/**
 * Node and npm for the checks that run the official AG-UI packages of {@code oracles/agui}
 * (docs/runtime.md#agui-oracle):
 * finding the tools, installing the pinned packages once, running a command. Shared by
 * {@link AguiOracleAgreementIT} and {@link AguiSchemaExportTest}.
 *
 * <p>{@code -Dagentlab-build.agui-oracle=required} (CI) fails without node and npm; the default {@code auto} skips, saying so
 * loudly; {@code off} skips on purpose.
 */
final class AguiOracleNode {

    /** The oracle project, from the module's folder. */
    static final Path ORACLE = Path.of("../oracles/agui");
    /** Where the pinned packages are installed, for both checks. */
    static final Path PACKAGES = Path.of("target/agui-node");
    private static final Duration TIMEOUT = Duration.ofMinutes(10);

    private AguiOracleNode() {
    }

    /** {@code name} on the PATH, or the test is skipped (loudly) unless it is required. */
    static Path tool(String name) {
        String mode = System.getProperty("agentlab-build.agui-oracle", "auto");
        Assumptions.assumeFalse(mode.equals("off"), "AG-UI oracle check off (-Dagentlab-build.agui-oracle=off)");
        Optional<Path> found = Stream.of(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator))
                .filter(dir -> !dir.isBlank())
                .flatMap(dir -> Stream.of(name, name + ".cmd", name + ".exe").map(file -> Path.of(dir, file)))
                .filter(Files::isExecutable).findFirst();
        if (found.isEmpty()) {
            String message = "AG-UI ORACLE CHECK SKIPPED: '" + name + "' is not on the PATH, so the official "
                    + "@ag-ui/client 1.0.0 did not judge the audit streams (install Node 20 with npm; CI runs with "
                    + "-Dagentlab-build.agui-oracle=required)";
            if (mode.equals("required")) {
                fail(message.replace("SKIPPED", "FAILED") + "; -Dagentlab-build.agui-oracle=required");
            }
            System.err.println("\n" + "!".repeat(100) + "\n" + message + "\n" + "!".repeat(100) + "\n");
            Assumptions.abort(message);
        }
        return found.get();
    }

    /**
     * Installs the oracle project's pinned packages (npm ci) into {@link #PACKAGES}, once for both checks: again only
     * when its package or lock file changed. Under a file lock, so two test JVMs never install at once, and
     * synchronized, since a second lock in the same JVM would throw instead of waiting. Then copies {@code scripts} of
     * the oracle project there, where Node finds the packages from them; returns the folder.
     */
    static synchronized Path install(Path npm, List<String> scripts) throws IOException, InterruptedException {
        Files.createDirectories(PACKAGES);
        try (FileChannel lock = FileChannel.open(PACKAGES.resolveSibling(PACKAGES.getFileName() + ".lock"),
                StandardOpenOption.CREATE, StandardOpenOption.WRITE);
             FileLock held = lock.lock()) {
            // the copies npm installed from are the record of what is installed; the stamp says it finished
            Path stamp = PACKAGES.resolve(".installed");
            if (!Files.exists(stamp) || !same("package.json") || !same("package-lock.json")) {
                Files.deleteIfExists(stamp);
                copy(List.of("package.json", "package-lock.json"));
                run(List.of(npm.toString(), "ci", "--no-audit", "--no-fund", "--ignore-scripts"), PACKAGES,
                        PACKAGES.resolve("npm-ci.log"), false);
                Files.createFile(stamp);
            }
            copy(scripts);
        }
        return PACKAGES;
    }

    private static void copy(List<String> files) throws IOException {
        for (String file : files) {
            Path target = PACKAGES.resolve(file);
            Files.createDirectories(target.getParent());
            Files.copy(ORACLE.resolve(file), target, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    /** Whether the oracle project's {@code file} is the copy installed from. */
    private static boolean same(String file) throws IOException {
        Path copy = PACKAGES.resolve(file);
        return Files.exists(copy) && Files.mismatch(ORACLE.resolve(file), copy) == -1;
    }

    /** Runs {@code command} in {@code work}, its output to {@code output} (its errors too unless asked apart). */
    static void run(List<String> command, Path work, Path output, boolean errorsApart)
            throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(command).directory(work.toFile()).redirectOutput(output.toFile());
        if (errorsApart) {
            builder.redirectError(ProcessBuilder.Redirect.INHERIT);
        } else {
            builder.redirectErrorStream(true);
        }
        Process process = builder.start();
        if (!process.waitFor(TIMEOUT.toMinutes(), TimeUnit.MINUTES)) {
            process.destroyForcibly();
            fail(String.join(" ", command) + " did not finish within " + TIMEOUT.toMinutes() + " minutes");
        }
        if (process.exitValue() != 0) {
            String log = Files.readString(output);
            fail(String.join(" ", command) + " exited with " + process.exitValue() + ":\n"
                    + log.substring(Math.max(0, log.length() - 4000)));
        }
    }
}
