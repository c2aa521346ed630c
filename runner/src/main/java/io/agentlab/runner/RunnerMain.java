package io.agentlab.runner;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import org.apiguardian.api.API;

/**
 * The entry point of the JVM the Maven goal forks with the project's test classpath: reads a {@link RunSpec} from a
 * properties file, runs it with plain progress lines and exits 0 (all passed), 1 (a test or gate failed, or no case
 * executed) or 2 (bad usage or unreadable input, one line on standard error).
 */
@API(status = INTERNAL, since = "0.1")
public final class RunnerMain {

    /** The prefix of each line that says why the run could not start (exit code 2). */
    public static final String ERROR = "error: ";

    private RunnerMain() {
    }

    /** {@code RunnerMain <spec.properties>}. */
    public static void main(String[] args) {
        System.exit(run(args, new PrintWriter(System.out, true, StandardCharsets.UTF_8),
                new PrintWriter(System.err, true, StandardCharsets.UTF_8)));
    }

    static int run(String[] args, PrintWriter out, PrintWriter err) {
        if (args.length != 1) {
            err.println(ERROR + "usage: RunnerMain <spec.properties>");
            return 2;
        }
        try {
            Properties properties = new Properties();
            try (InputStream in = Files.newInputStream(Path.of(args[0]))) {
                properties.load(in);
            }
            RunResult result = ConformanceRunner.run(RunSpec.fromProperties(properties), out, false);
            result.print(out);
            return result.exitCode();
        } catch (UsageException e) {
            out.flush();
            e.getMessage().lines().forEach(line -> err.println(ERROR + line));
            return 2;
        } catch (IOException e) {
            err.println(ERROR + "cannot read " + args[0] + ": " + e.getMessage());
            return 2;
        }
    }
}
