package io.agentlab.cli;

import io.agentlab.providers.recorded.ProviderFamily;
import io.agentlab.providers.recorded.RecordingProxy;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.BindException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code agentlab record}: a recording proxy in front of a live OpenAI-compatible provider. Point a client (for
 * example {@code agentlab run --provider live --live-base-url <proxy>}) at the printed URL; its credentials stay in
 * its own environment and never reach the recordings. Stops after {@code --requests} exchanges or on Ctrl-C; exits 1
 * when an exchange was forwarded but could not be recorded (each is printed with its reason: a response holding a
 * secret redaction cannot remove is not written). A request carrying a credential shorter than 16 characters is
 * refused before it is forwarded: one line on stderr naming the header or parameter and the bound, then exit 2
 * (docs/limits-and-safety.md#credentials).
 */
@Command(name = "record", mixinStandardHelpOptions = true,
        description = "Record a live provider's streams through a local proxy (credentials stripped).")
final class RecordCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--upstream", paramLabel = "URL", required = true, converter = Values.HttpUrl.class,
            description = "The live provider's /v1 URL, http or https.")
    String upstream;

    @Option(names = "--out", paramLabel = "DIR", description = "The folder recordings go to (made if missing); "
            + "default recordings.")
    Path out = Path.of("recordings");

    @Option(names = "--provider-family", description = "openai (default), deepseek, dashscope, llamacpp, "
            + "openai-compatible, or a family described on the classpath (agentlab/families/NAME.json): written to the "
            + "metadata; loading notes where a recording departs from that family's usual shape.")
    String family = "openai";

    @Option(names = "--port", paramLabel = "PORT", converter = Values.Port.class,
            description = "The loopback port the proxy listens on, 1 to 65535; default: a free one, printed at start.")
    int port;

    @Option(names = "--requests", paramLabel = "N", converter = Values.PositiveInt.class,
            description = "Stop after N exchanges (1 or more); default: run until stopped.")
    int requests = Integer.MAX_VALUE;

    @Override
    public Integer call() throws IOException, InterruptedException {
        try {
            ProviderFamily.fromWireName(family);
        } catch (IllegalArgumentException e) {
            // a usage error, before anything is forwarded: a mistyped family would label every recording wrongly
            throw new ParameterException(spec.commandLine(), "--provider-family: " + e.getMessage());
        }
        if (Files.exists(out) && !Files.isDirectory(out)) {
            // before the proxy starts, instead of the folder's creation failing inside it (docs/cli.md#accepted-values)
            throw new ParameterException(spec.commandLine(), "--out: '" + out + "' is a file; give a folder for "
                    + "the recordings (it is made if missing)");
        }
        PrintWriter console = spec.commandLine().getOut();
        // stops after --requests exchanges, or at once when one is refused
        CountDownLatch stop = new CountDownLatch(1);
        AtomicInteger exchanges = new AtomicInteger();
        Runnable counted = () -> {
            if (exchanges.incrementAndGet() >= requests) {
                stop.countDown();
            }
        };
        AtomicInteger failed = new AtomicInteger();
        AtomicReference<String> refused = new AtomicReference<>();
        PrintWriter errors = spec.commandLine().getErr();
        RecordingProxy.Listener listener = new RecordingProxy.Listener() {
            @Override
            public void recorded(Path file) {
                synchronized (console) {
                    console.println("  wrote " + file);
                    console.flush();
                }
                counted.run();
            }

            @Override
            public void notRecorded(String exchange, String reason) {
                failed.incrementAndGet();
                synchronized (console) {
                    console.println("  not recorded: " + exchange + ": " + reason);
                    console.flush();
                }
                counted.run();
            }

            @Override
            public void refused(String exchange, String reason) {
                // a usage error: nothing this client sends can be recorded safely, so stop
                // (docs/limits-and-safety.md#credentials)
                if (refused.compareAndSet(null, reason)) {
                    synchronized (console) {
                        errors.println("agentlab record: refused " + exchange + ": " + reason);
                        errors.flush();
                    }
                }
                stop.countDown();
            }
        };
        RecordingProxy started;
        try {
            started = RecordingProxy.start(upstream, out, family, listener, port);
        } catch (BindException e) {
            throw new ParameterException(spec.commandLine(), "--port: 127.0.0.1:" + port + " is in use; give "
                    + "another port, or none for a free one");
        }
        try (RecordingProxy proxy = started) {
            console.println("recording proxy for " + upstream + " at " + proxy.baseUrl() + "; recordings go to "
                    + out.toAbsolutePath());
            console.flush();
            stop.await(); // each exchange is counted once its response has been sent in full
        }
        return refused.get() != null ? 2 : failed.get() == 0 ? 0 : 1;
    }
}
