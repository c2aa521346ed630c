package io.agentlab.cli;

import io.agentlab.report.gates.Baseline;
import io.agentlab.report.render.RunReports;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code agentlab baseline}: accepts a finished run's figures as the new baseline — the deliberate step after an
 * intended change, instead of a run that rewrites its own reference. Exit code 0 written, 2 unreadable input or a
 * partial launch's figures (unless {@code --allow-partial}).
 */
@Command(name = "baseline", mixinStandardHelpOptions = true,
        description = "Write a run's per-mode figures (its metrics.json) as the baseline the gates compare against.")
final class BaselineCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--from", paramLabel = "METRICS_JSON",
            description = "The run's metrics.json; default agentlab-report/metrics.json.")
    Path from = Path.of("agentlab-report", RunReports.METRICS_FILE);

    @Option(names = "--to", paramLabel = "BASELINE_JSON", required = true,
            description = "The baseline file to write (replaced), e.g. conformance-suites/baseline.json.")
    Path to;

    @Option(names = "--allow-partial",
            description = "Accept the figures of a partial launch too (a tag, --case, rerun or shard run), whose "
                    + "baseline the next whole run would be held to.")
    boolean allowPartial;

    @Override
    public Integer call() {
        try {
            Baseline.refresh(from, to, allowPartial);
        } catch (UncheckedIOException | IllegalArgumentException e) {
            spec.commandLine().getErr().println("agentlab baseline: " + e.getMessage());
            return 2;
        }
        Baseline written = Baseline.read(to);
        spec.commandLine().getOut().println("wrote " + to + " from " + from + ": " + String.join(", ",
                written.figures().keySet()) + "; commit it with the change it accepts");
        return 0;
    }
}
