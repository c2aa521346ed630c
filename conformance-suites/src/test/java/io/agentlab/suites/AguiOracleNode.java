package io.agentlab.suites;

import static org.assertj.core.api.Assertions.fail;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;

/**
 * Node and npm for the checks that run the official AG-UI packages of {@code oracles/agui}
 * (docs/runtime.md#agui-oracle):
 * finding the tools, installing the pinned packages into a work folder, running a command there. Shared by
 * {@link AguiOracleAgreementIT} and {@link AguiSchemaExportIT}.
 *
 * <p>{@code -Dagentlab-build.agui-oracle=required} (CI) fails without node and npm; the default {@code auto} skips, saying so
 * loudly; {@code off} skips on purpose.
 */
final class AguiOracleNode {

    /** The oracle project, from the module's folder. */
    static final Path ORACLE = Path.of("../oracles/agui");
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

    /** Copies {@code files} of the oracle project into {@code work} and installs its pinned packages (npm ci). */
    static void install(Path npm, Path work, List<String> files) throws IOException, InterruptedException {
        for (String file : files) {
            Path target = work.resolve(file);
            Files.createDirectories(target.getParent());
            Files.copy(ORACLE.resolve(file), target, StandardCopyOption.REPLACE_EXISTING);
        }
        run(List.of(npm.toString(), "ci", "--no-audit", "--no-fund", "--ignore-scripts"), work,
                work.resolve("npm-ci.log"), false);
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
