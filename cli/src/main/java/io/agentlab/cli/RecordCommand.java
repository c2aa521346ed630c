package io.agentlab.cli;

import io.agentlab.providers.recorded.RecordingProxy;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code agentlab record}: a recording proxy in front of a live OpenAI-compatible provider. Point a client (for
 * example {@code agentlab run --provider live --live-base-url <proxy>}) at the printed URL; its credentials stay in
 * its own environment and never reach the recordings. Stops after {@code --requests} exchanges or on Ctrl-C.
 */
@Command(name = "record", mixinStandardHelpOptions = true,
        description = "Record a live provider's streams through a local proxy (credentials stripped).")
final class RecordCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--upstream", required = true, description = "The live provider's /v1 URL.")
    String upstream;

    @Option(names = "--out", description = "Where recordings go; default recordings.")
    Path out = Path.of("recordings");

    @Option(names = "--provider-family", description = "openai, deepseek or dashscope (written to the metadata).")
    String family = "openai";

    @Option(names = "--requests", description = "Stop after this many recorded exchanges; default: run until stopped.")
    int requests = Integer.MAX_VALUE;

    @Override
    public Integer call() throws IOException, InterruptedException {
        PrintWriter console = spec.commandLine().getOut();
        try (RecordingProxy proxy = RecordingProxy.start(upstream, out, family)) {
            console.println("recording proxy for " + upstream + " at " + proxy.baseUrl() + "; recordings go to "
                    + out.toAbsolutePath());
            console.flush();
            int seen = 0;
            while (proxy.written().size() < requests) {
                synchronized (this) {
                    wait(100); // polls the proxy's count; the command has nothing else to do
                }
                if (proxy.written().size() > seen) {
                    seen = proxy.written().size();
                    console.println("  wrote " + proxy.written().get(seen - 1));
                    console.flush();
                }
            }
        }
        return 0;
    }
}
