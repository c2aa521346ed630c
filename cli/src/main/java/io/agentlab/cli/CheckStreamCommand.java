package io.agentlab.cli;

import io.agentlab.engine.contract.AguiEndpointContract;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code agentlab check-stream}: the AG-UI endpoint contract ({@link AguiEndpointContract}) against a service's events
 * URL for one run: stream-checker rules and {@code Last-Event-ID} resume. Exit code 0 when it passes, 1 with each
 * broken rule, 2 when the stream cannot be read.
 */
@Command(name = "check-stream", mixinStandardHelpOptions = true,
        description = "Check an AG-UI SSE endpoint's stream for one run (rules and Last-Event-ID resume).")
final class CheckStreamCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "URL", description = "The events URL of one run.")
    String url;

    @Option(names = "--run-id", required = true, description = "The run the stream belongs to.")
    String runId;

    @Option(names = "--timeout", description = "Seconds to wait for the stream to end; default 30.")
    long timeoutSeconds = 30;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        AguiEndpointContract.Report report;
        try {
            report = AguiEndpointContract.check(url, runId, Duration.ofSeconds(timeoutSeconds));
        } catch (IllegalStateException e) {
            spec.commandLine().getErr().println(e.getMessage());
            return 2;
        }
        out.println(report.frames().size() + " frames from " + url);
        report.violations().forEach(violation -> out.println("  " + violation));
        out.println(report.passes() ? "the stream passes every rule" : report.violations().size() + " rule(s) broken");
        out.flush();
        return report.passes() ? 0 : 1;
    }
}
