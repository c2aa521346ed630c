package io.agentlab.cli;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.agentlab.engine.ConfigurationKeys;
import io.agentlab.engine.RunPreparation;
import io.agentlab.runner.UsageException;
import java.io.PrintWriter;
import java.time.DateTimeException;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.apiguardian.api.API;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;
import picocli.CommandLine.ParseResult;

/**
 * The {@code agentlab} command line ({@code java -jar cli/target/agentlab.jar --help}). Exit codes, as JUnit's console
 * launcher and promptfoo use them: 0 all passed, 1 test failures or breached gates, 2 bad usage or unreadable input —
 * the latter always one clear line per problem on standard error, never a stack trace.
 */
@Command(name = "agentlab", mixinStandardHelpOptions = true, version = "agentlab 0.1.0-SNAPSHOT",
        description = "Agent Lab Conformance Kit: run the conformance suites in both modes and compare them.")
@API(status = INTERNAL, since = "0.1")
public final class AgentLab {

    /** Exit code: bad usage or unreadable input. */
    public static final int USAGE = 2;

    /** The subcommands, in the order the help lists them. */
    private static final List<Class<?>> SUBCOMMANDS = List.of(RunCommand.class, ValidateCommand.class,
            MergeCommand.class, RecordCommand.class, ResolveCommand.class, CheckStreamCommand.class,
            BaselineCommand.class, ImportCommand.class, CommandLine.HelpCommand.class);

    /** The JDK HTTP server's switch for TCP_NODELAY, read once, when its first server starts. */
    static final String HTTP_SERVER_NODELAY = "sun.net.httpserver.nodelay";

    /** Runs the command line and exits with its code. */
    public static void main(String[] args) {
        // the application, not a library, owns its JVM's properties: before any command can start the recording
        // proxy's server (agentlab record, agentlab run --config agentlab.provider.live.record-directory=...), its
        // streamed events are sent without Nagle's delay (docs/performance.md#recording-proxy); a value the user set
        // with -D stays. The one System.setProperty of the published main code (ArchitectureGuardsTest).
        if (System.getProperty(HTTP_SERVER_NODELAY) == null) {
            System.setProperty(HTTP_SERVER_NODELAY, "true");
        }
        if (args.length > 0 && (args[0].equals("run") || args[0].equals("validate"))) {
            RunPreparation.warmDiscovery(); // beside the command line's own start-up (docs/performance.md#start-up)
        }
        System.exit(commandLine(args).execute(args));
    }

    /** The configured command line with every subcommand (tests execute it without exiting). */
    public static CommandLine commandLine() {
        return commandLine(new String[0]);
    }

    /**
     * The command line for {@code args}: when they start with a subcommand's name, only that subcommand is built —
     * picocli reads each command's annotations when it is added, about a third of the tool's start-up on its main
     * thread for the eight it does not run (docs/performance.md#start-up); otherwise (help, a version, a typo to
     * suggest a name for) all of them.
     */
    static CommandLine commandLine(String[] args) {
        CommandLine line = new CommandLine(new AgentLab());
        Optional<Class<?>> named = args.length == 0 ? Optional.empty() : SUBCOMMANDS.stream()
                .filter(command -> command != CommandLine.HelpCommand.class
                        && command.getAnnotation(Command.class).name().equals(args[0])).findFirst();
        for (Class<?> command : named.map(List::<Class<?>>of).orElse(SUBCOMMANDS)) {
            line.addSubcommand(command);
        }
        // set after the subcommands are added: picocli hands these settings only to the subcommands present
        return line.setCaseInsensitiveEnumValuesAllowed(true).setParameterExceptionHandler(AgentLab::badParameters)
                .setExecutionExceptionHandler(AgentLab::failed);
    }

    private static int badParameters(CommandLine.ParameterException e, String[] args) {
        CommandLine root = e.getCommandLine();
        while (root.getParent() != null) {
            root = root.getParent();
        }
        CommandLine command = e.getCommandLine();
        String message = e.getMessage();
        String attached = root.isAllowOptionsAsOptionParameters() ? "" : attached(e, args);
        if (!attached.isEmpty()) {
            // picocli refuses "--option=-x..." as it refuses "--option -x"; typed with '=', the value is the
            // option's, so it is parsed again and judged by the option's own check (docs/cli.md#accepted-values).
            // The second parse lets every option take an option-like value, so it runs only when no option is
            // followed by a separate one it would then swallow ("--report --evaluate"); that one is refused instead.
            Optional<String> swallowed = swallowed(command.getCommandSpec(), args, attached);
            if (swallowed.isEmpty()) {
                return root.setAllowOptionsAsOptionParameters(true).execute(args);
            }
            message = swallowed.get();
        }
        if (e instanceof CommandLine.UnmatchedArgumentException unmatched) {
            Optional<String> elsewhere = elsewhere(command.getCommandSpec(), unmatched.getUnmatched());
            Optional<String> closest = elsewhere.isPresent() ? Optional.empty()
                    : closest(command.getCommandSpec(), unmatched.getUnmatched());
            if (elsewhere.isPresent()) {
                message += "; " + elsewhere.get();
            } else if (closest.isPresent()) {
                message += "; did you mean " + closest.get() + "?";
            }
        }
        String name = command.getCommandSpec().qualifiedName();
        command.getErr().println(name + ": " + Values.oneLine(message) + " (see " + name + " --help)");
        command.getErr().flush();
        return USAGE;
    }

    /**
     * What a mistyped word was meant to be, as a mistyped {@code --config} key is answered (docs/cli.md#exit-codes):
     * for the first unmatched {@code --name}, the command's long option a few edits away (a third of its letters); for
     * a first word that is no option, the subcommand it is as near to ({@code agentlab rnu}). Not picocli's own
     * suggestions: they are every option sharing the first two letters, in the order declared, so {@code --repport}
     * came first to {@code --recordings}.
     */
    private static Optional<String> closest(CommandSpec spec, List<String> unmatched) {
        if (!unmatched.isEmpty() && !unmatched.get(0).startsWith("-") && !spec.subcommands().isEmpty()) {
            String word = unmatched.get(0); // the command's name: what follows it is that command's
            return ConfigurationKeys.closest(word, spec.subcommands().keySet(), Math.max(1, word.length() / 3));
        }
        Optional<String> option = unmatched.stream().filter(word -> word.startsWith("--")).findFirst()
                .map(word -> word.contains("=") ? word.substring(0, word.indexOf('=')) : word);
        if (option.isEmpty() || option.get().length() < 5) {
            return Optional.empty(); // "--x" is a few edits from every short name
        }
        String name = option.get();
        List<String> names = spec.options().stream().filter(known -> !known.hidden())
                .flatMap(known -> Arrays.stream(known.names())).filter(known -> known.startsWith("--")).toList();
        return ConfigurationKeys.closest(name, names, Math.max(1, (name.length() - 2) / 3));
    }

    /**
     * Where the first unmatched {@code --name} belongs when it is another command's option, not this one's
     * ({@code --report is an option of agentlab run, not of agentlab record}): a near name of this command's own
     * ({@code --port}) would only mislead.
     */
    private static Optional<String> elsewhere(CommandSpec spec, List<String> unmatched) {
        Optional<String> option = unmatched.stream().filter(word -> word.startsWith("--")).findFirst()
                .map(word -> word.contains("=") ? word.substring(0, word.indexOf('=')) : word);
        if (option.isEmpty() || spec.parent() == null) {
            return Optional.empty();
        }
        // every subcommand, built now: a run builds only the one it names (commandLine(String[]))
        List<String> owners = commandLine().getSubcommands().values().stream().map(CommandLine::getCommandSpec)
                .filter(other -> !other.name().equals(spec.name()) && other.optionsMap().containsKey(option.get())
                        && !other.optionsMap().get(option.get()).hidden())
                .map(CommandSpec::qualifiedName).toList();
        if (owners.isEmpty()) {
            return Optional.empty();
        }
        String last = owners.get(owners.size() - 1);
        return Optional.of(option.get() + " is an option of " + (owners.size() == 1 ? last
                : String.join(", ", owners.subList(0, owners.size() - 1)) + " or " + last) + ", not of "
                + spec.qualifiedName());
    }

    /**
     * The refusal for the first option that takes a value and is followed by a separate argument naming an option of
     * {@code spec}, if one is (options after {@code --} are none): picocli's own words when the value is required; when
     * it is optional, picocli would read the option without one, which the second parse would not.
     */
    private static Optional<String> swallowed(CommandSpec spec, String[] args, String attached) {
        for (int i = 1; i < args.length && !args[i - 1].equals("--"); i++) {
            // exact names only: findOption also matches a name without its dashes, a folder called "suites"
            OptionSpec option = spec.optionsMap().get(args[i - 1]);
            if (option != null && option.arity().max() > 0 && namesOption(spec, args[i])) {
                return Optional.of(option.arity().min() > 0
                        ? "Expected parameter for option '" + args[i - 1] + "' but found '" + args[i] + "'"
                        : "'" + args[i - 1] + "' cannot be read without a value next to '" + attached
                                + "': write " + args[i - 1] + "=" + option.paramLabel() + " or put it last");
            }
        }
        return Optional.empty();
    }

    /**
     * Whether {@code arg} names an option of {@code spec} as picocli would read it: "--name", "--name=value", a negated
     * "--no-name" or a cluster starting "-h".
     */
    private static boolean namesOption(CommandSpec spec, String arg) {
        int separator = arg.indexOf('=');
        String name = separator > 0 ? arg.substring(0, separator) : arg;
        return arg.startsWith("-") && (spec.optionsMap().containsKey(name) || spec.negatedOptionsMap().containsKey(name)
                || arg.length() > 1 && arg.charAt(1) != '-' && spec.posixOptionsMap().containsKey(arg.charAt(1)));
    }

    /**
     * The argument {@code --option=-value} whose value picocli refused because it starts like an option
     * ({@code --speed=-V}), or "" when the refusal is about something else.
     */
    private static String attached(CommandLine.ParameterException e, String[] args) {
        if (!(e instanceof CommandLine.MissingParameterException) || e.getMessage() == null) {
            return "";
        }
        for (String arg : args) {
            if (arg.equals("--")) {
                break; // what follows is no option, whatever it looks like
            }
            int separator = arg.indexOf('=');
            if (arg.startsWith("-") && separator > 0 && arg.startsWith("-", separator + 1)
                    && e.getMessage().contains("'" + arg.substring(0, separator) + "' but found '"
                    + arg.substring(separator + 1) + "'")) {
                return arg;
            }
        }
        return "";
    }

    /** An exception out of a command: one line naming the option when one holds the bad value. */
    private static int failed(Exception e, CommandLine command, ParseResult parsed) {
        PrintWriter err = command.getErr();
        String name = command.getCommandSpec().qualifiedName();
        if (e instanceof UsageException) {
            e.getMessage().lines().forEach(line -> err.println(name + ": " + line));
        } else if (e instanceof IllegalArgumentException || e instanceof DateTimeException) {
            String message = e.getMessage() == null ? e.toString() : e.getMessage();
            err.println(name + ": " + culprit(parsed, message).map(option -> option + ": ").orElse("")
                    + Values.oneLine(message));
        } else {
            err.println(name + ": unexpected " + e.getClass().getSimpleName() + ": " + e.getMessage()
                    + " (please report it with the command line that caused it)");
        }
        err.flush();
        return USAGE;
    }

    /** The option or parameter whose value the message quotes, if one does. */
    private static Optional<String> culprit(ParseResult parsed, String message) {
        ParseResult leaf = parsed;
        while (leaf.hasSubcommand()) {
            leaf = leaf.subcommand();
        }
        for (OptionSpec option : leaf.matchedOptions()) {
            if (option.stringValues().stream().anyMatch(value -> quotes(message, value))) {
                return Optional.of(option.longestName());
            }
        }
        for (PositionalParamSpec parameter : leaf.matchedPositionals()) {
            if (parameter.stringValues().stream().anyMatch(value -> quotes(message, value))) {
                return Optional.of(parameter.paramLabel());
            }
        }
        return Optional.empty();
    }

    /** Whether {@code message} quotes {@code value} (libraries shorten long values, so a long prefix counts). */
    private static boolean quotes(String message, String value) {
        return !value.isEmpty() && (message.contains(value) || value.length() > 6
                && message.contains(value.substring(0, 6)));
    }
}
