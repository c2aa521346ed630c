package io.agentlab.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;

/**
 * Renders {@code --help} of every command and subcommand, as a user would ask for it, in a JVM of its own
 * ({@code BadValuesTest#helpHasNoPicocliWarnings} reads its stderr); prints each command's name on stdout and exits
 * with the highest exit code.
 */
final class HelpPages {

    private HelpPages() {
    }

    public static void main(String[] args) {
        int worst = 0;
        for (List<String> path : commands(AgentLab.commandLine(), new ArrayList<>())) {
            CommandLine cli = AgentLab.commandLine();
            StringWriter page = new StringWriter();
            cli.setOut(new PrintWriter(page, true));
            List<String> line = new ArrayList<>(path);
            line.add("--help");
            worst = Math.max(worst, cli.execute(line.toArray(String[]::new)));
            System.out.println(String.join(" ", List.of("agentlab", String.join(" ", path))).strip());
        }
        System.exit(worst);
    }

    /** Every command's path below {@code cli} (the top command's is empty). */
    private static List<List<String>> commands(CommandLine cli, List<String> path) {
        List<List<String>> all = new ArrayList<>();
        all.add(List.copyOf(path));
        cli.getSubcommands().forEach((name, sub) -> {
            List<String> next = new ArrayList<>(path);
            next.add(name);
            all.addAll(commands(sub, next));
        });
        return all;
    }
}
