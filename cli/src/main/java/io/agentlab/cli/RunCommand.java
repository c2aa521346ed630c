package io.agentlab.cli;

import io.agentlab.engine.Constants;
import io.agentlab.runner.ConformanceRunner;
import io.agentlab.runner.RunResult;
import io.agentlab.runner.RunResults;
import io.agentlab.runner.RunSpec;
import io.agentlab.runner.Shard;
import io.agentlab.runner.UsageException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code agentlab run}: the suites through the JUnit Launcher and the conformance engine; prints progress, every
 * failure, the mode comparison and the report's path, and writes {@code results.json} and JUnit XML. Exit code 0 when
 * every case, parity node and gate passed, 1 when one failed or no case executed, 2 on bad usage or unreadable input.
 */
@Command(name = "run", mixinStandardHelpOptions = true,
        description = "Run conformance suites in both modes and print the comparison (default: the shipped suites).")
final class RunCommand implements Callable<Integer> {

    /** How progress is shown. */
    enum ProgressStyle {
        /** A counter on a terminal, plain lines otherwise. */
        AUTO,
        /** The counter, rewritten in place. */
        TERMINAL,
        /** One line per test. */
        PLAIN
    }

    @Spec
    CommandSpec spec;

    @Mixin
    SuiteOptions options;

    @Option(names = "--report", description = "Report folder (metrics.json, report.md, index.html, results.json, "
            + "junit/); default agentlab-report.")
    Path report = Path.of("agentlab-report");

    @Option(names = "--tag", paramLabel = "EXPRESSION",
            description = "Run only tests whose suite or case tags match (JUnit tag expression, repeatable).")
    List<String> tags = new ArrayList<>();

    @Option(names = "--exclude-tag", paramLabel = "EXPRESSION", description = "Leave out matching tests (repeatable).")
    List<String> excludeTags = new ArrayList<>();

    @Option(names = "--case", paramLabel = "NAME|UNIQUE_ID",
            description = "Run only this case: its id, suite/case, or a node's unique id (repeatable).")
    List<String> cases = new ArrayList<>();

    @Option(names = "--rerun-failed", arity = "0..1", paramLabel = "RESULTS",
            description = "Run only the cases that failed last time, from RESULTS (default: the report folder's "
                    + "results.json).", fallbackValue = "")
    String rerunFailed;

    @Option(names = "--shard", paramLabel = "I/N",
            description = "Run only shard I of N (a stable share of the cases by unique id); combine with merge.")
    String shard;

    @Option(names = "--evaluate", description = "Evaluation mode: expectations become labels the model is scored "
            + "against; only the kernel's guarantees fail a case; figures with spread and 95 %% intervals in "
            + "evaluation.md. Gates are off unless --config agentlab.gates.enabled=true.")
    boolean evaluate;

    @Option(names = "--repetitions", paramLabel = "N", converter = Values.Repetitions.class,
            description = "With --evaluate: run each case N times per mode (1 to " + Values.MAX_REPETITIONS
                    + ", default 1).")
    Integer repetitions;

    @Option(names = "--progress", description = "auto (default: a counter on a terminal, plain lines otherwise), "
            + "terminal or plain.")
    ProgressStyle progress = ProgressStyle.AUTO;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        if (repetitions != null && !evaluate) {
            throw new UsageException("--repetitions needs --evaluate");
        }
        RunSpec.Builder builder = options.spec(evaluate).includeTags(tags).excludeTags(excludeTags).cases(cases)
                .reportDirectory(report);
        if (evaluate) {
            builder.configuration(Constants.EVALUATE, "true").configuration(Constants.REPETITIONS,
                    Integer.toString(repetitions == null ? 1 : repetitions));
        }
        if (shard != null) {
            builder.shard(Shard.parse(shard));
        }
        if (rerunFailed != null) {
            builder.rerunFailed(rerunFailed.isEmpty() ? report.resolve(RunResults.FILE) : Path.of(rerunFailed));
        }
        RunSpec run = builder.build();
        out.println("agentlab run: " + String.join(", ", run.suites()) + " in " + String.join(", ", options.modes)
                + " (" + options.provider + ", speed " + options.speed + ")" + (shard == null ? "" : ", shard " + shard)
                + (evaluate ? ", evaluating with " + (repetitions == null ? 1 : repetitions) + " repetition(s)" : "")
                + options.subject().map(subject -> "; " + subject).orElse(""));
        out.flush();
        boolean terminal = progress == ProgressStyle.TERMINAL
                || progress == ProgressStyle.AUTO && System.console() != null;
        RunResult result = ConformanceRunner.run(run, out, terminal);
        result.print(out);
        return result.exitCode();
    }
}
