package io.agentlab.cli;

import io.agentlab.runner.JvmOptions;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
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

    /**
     * The command that starts {@code mainClass} in a JVM of its own, as the launcher starts one (a JVM that lives
     * seconds: {@link JvmOptions#SHORT_RUN}) on this JVM's class path; a mutable list, for its arguments.
     */
    static List<String> javaCommand(List<String> jvmOptions, Class<?> mainClass) {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString()));
        command.addAll(JvmOptions.SHORT_RUN);
        command.addAll(jvmOptions);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), mainClass.getName()));
        return command;
    }

    /** The absolute path of a test suite folder. */
    static String suites(String folder) {
        return Path.of("src/test/resources/cli-suites", folder).toAbsolutePath().toString();
    }
}
