package io.agentlab.cli;

import io.agentlab.kernel.runtime.audit.AguiSseCodec;
import io.agentlab.kernel.runtime.audit.AguiStreamChecker;
import java.io.IOException;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code agentlab check-stream}: reads a service's AG-UI SSE stream for one run and checks it with the stream checker
 * (ordering, ids, one terminal event, event name equal to the data's type, run isolation, no internal fields).
 * Exit code 0 when it passes, 1 with each broken rule, 2 when the stream cannot be read.
 */
@Command(name = "check-stream", mixinStandardHelpOptions = true,
        description = "Check an AG-UI SSE endpoint's stream for one run.")
final class CheckStreamCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "URL", description = "The events URL of one run.")
    String url;

    @Option(names = "--run-id", required = true, description = "The run the stream belongs to.")
    String runId;

    @Option(names = "--timeout", description = "Read timeout in seconds; default 30.")
    long timeoutSeconds = 30;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        OkHttpClient http = new OkHttpClient.Builder().readTimeout(Duration.ofSeconds(timeoutSeconds)).build();
        String body;
        try (Response response = http.newCall(new Request.Builder().url(url).header("Accept", "text/event-stream")
                .build()).execute()) {
            if (!response.isSuccessful()) {
                spec.commandLine().getErr().println(url + " answered HTTP " + response.code());
                return 2;
            }
            body = response.body().string();
        } catch (IOException e) {
            spec.commandLine().getErr().println("cannot read " + url + ": " + e.getMessage());
            return 2;
        }
        List<AguiSseCodec.Frame> frames = AguiSseCodec.decode(body);
        List<AguiStreamChecker.Violation> violations = AguiStreamChecker.checkFrames(frames, runId);
        out.println(frames.size() + " frames from " + url);
        violations.forEach(violation -> out.println("  " + violation));
        out.println(violations.isEmpty() ? "the stream passes every rule" : violations.size() + " rule(s) broken");
        out.flush();
        return violations.isEmpty() ? 0 : 1;
    }
}
