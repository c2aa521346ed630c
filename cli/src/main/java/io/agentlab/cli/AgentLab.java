package io.agentlab.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code agentlab} command line ({@code java -jar cli/target/agentlab.jar --help}). */
@Command(name = "agentlab", mixinStandardHelpOptions = true, version = "agentlab 0.1.0-SNAPSHOT",
        description = "Agent Lab Conformance Kit: run the conformance suites in both modes and compare them.",
        subcommands = {RunCommand.class, RecordCommand.class, ResolveCommand.class, CheckStreamCommand.class,
                BaselineCommand.class})
public final class AgentLab {

    /** Runs the command line and exits with its code. */
    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    /** The configured command line (tests execute it without exiting). */
    public static CommandLine commandLine() {
        return new CommandLine(new AgentLab()).setCaseInsensitiveEnumValuesAllowed(true);
    }
}
