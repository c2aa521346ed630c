package io.agentlab.cli;

import io.agentlab.runner.RunResult;
import io.agentlab.runner.ShardMerge;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code agentlab merge}: the report folders of every shard of a run into one report, with the gates applied to the
 * whole. Exit code 0 when every test and gate passed, 1 when one failed, 2 when a shard is missing, repeated or
 * unreadable.
 */
@Command(name = "merge", mixinStandardHelpOptions = true,
        description = "Merge the report folders of shards (run --shard I/N) and apply the gates to the whole run.")
final class MergeCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "SHARD_REPORT", arity = "1..*", description = "Each shard's report folder.")
    List<Path> shards;

    @Option(names = "--out", description = "The merged report folder; default agentlab-report.")
    Path out = Path.of("agentlab-report");

    @Mixin
    GateOptions gates;

    @Override
    public Integer call() {
        Map<String, String> overrides = gates.parameters();
        PrintWriter console = spec.commandLine().getOut();
        RunResult result = ShardMerge.merge(shards, overrides, out);
        result.results().tests().stream().filter(test -> "gate".equals(test.kind())).forEach(gate -> console.printf(
                "  %-5s %s%n", switch (gate.status()) {
                    case PASSED -> "ok";
                    case SKIPPED -> "skip";
                    default -> "FAIL";
                }, gate.name()));
        result.print(console);
        return result.exitCode();
    }
}
