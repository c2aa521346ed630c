package io.agentlab.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import picocli.CommandLine;

/**
 * One execution of the command line in this JVM, as a user would run it: its exit code and what it printed.
 *
 * @param code the exit code
 * @param out  standard output
 * @param err  standard error
 */
record Run(int code, String out, String err) {

    /** Executes {@code agentlab <args>}. */
    static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cli = AgentLab.commandLine(args); // as main builds it: only the subcommand named, if one is
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        int code = cli.execute(args);
        return new Run(code, out.toString(), err.toString());
    }

    /** The absolute path of a test suite folder. */
    static String suites(String folder) {
        return Path.of("src/test/resources/cli-suites", folder).toAbsolutePath().toString();
    }
}
