package io.agentlab.cli;

import io.agentlab.contracts.AguiEndpointContract;
import io.agentlab.contracts.AguiEndpointContract.Report;
import io.agentlab.contracts.AguiEndpointContract.Settings;
import io.agentlab.contracts.AguiEndpointContract.Unreadable;
import io.agentlab.agui.AguiProfile;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code agentlab check-stream}: the AG-UI endpoint contract ({@link AguiEndpointContract}) against a service's events
 * URL for one run (the profile's rules, then {@code Last-Event-ID} resume), or against saved SSE files (the runs of one
 * thread, in order). Exit code 0 when every stream passes, 1 with each broken rule, 2 with one line per stream that
 * cannot be read; reading is bounded by the deadline, the frame cap and the event cap.
 */
@Command(name = "check-stream", mixinStandardHelpOptions = true,
        description = {"Check an AG-UI SSE stream: a run's events URL (rules, then Last-Event-ID resume), or saved SSE "
                + "files, the runs of one thread in order.",
                "Exit code: 0 every stream passes, 1 a rule is broken, 2 a stream cannot be read."})
final class CheckStreamCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "URL|FILE", arity = "1..*",
            description = "The events URL of one run (http or https), or SSE files of one thread's runs.")
    List<String> sources;

    @Option(names = "--profile", paramLabel = "PROFILE",
            description = "The rule list: agui-1.0 (default) or social-dialect.")
    String profile = AguiProfile.AGUI_1_0.id();

    @Option(names = "--run-id", description = "The run the stream must be (checked on RUN_STARTED).")
    String runId;

    @Option(names = "--timeout", paramLabel = "SECONDS", converter = Values.TimeoutSeconds.class,
            description = "Seconds each stream may take, connecting and reading included: 1 to 3600, default 30.")
    long timeoutSeconds = AguiEndpointContract.Settings.DEFAULT_TIMEOUT.toSeconds();

    @Option(names = "--max-frame-bytes", paramLabel = "BYTES", converter = Values.PositiveInt.class,
            description = "The longest SSE frame read, 1 or more; default 1048576 (1 MiB).")
    int maxFrameBytes = AguiEndpointContract.Settings.DEFAULT_MAX_FRAME_BYTES;

    @Option(names = "--max-events", paramLabel = "N", converter = Values.PositiveLong.class,
            description = "The most events one stream may send, 1 or more; default 100000.")
    long maxEvents = AguiEndpointContract.Settings.DEFAULT_MAX_EVENTS;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        String name = spec.qualifiedName();
        Settings settings;
        try {
            settings = new Settings(AguiProfile.fromId(profile), runId, Duration.ofSeconds(timeoutSeconds),
                    maxFrameBytes, maxEvents);
        } catch (IllegalArgumentException e) {
            err.println(name + ": " + e.getMessage());
            return 2;
        }
        List<Report> reports;
        try {
            reports = check(settings, err, name);
        } catch (RuntimeException e) { // a verdict for every input: never a stack trace
            err.println(name + ": cannot check " + String.join(" ", sources) + ": " + e);
            return 2;
        }
        if (reports == null) {
            return 2;
        }
        int code = 0;
        for (Report report : reports) {
            out.println(report.source() + ": " + report.events() + " event(s), profile " + settings.profile());
            report.violations().forEach(violation -> out.println("  " + violation));
            if (report instanceof Unreadable unreadable) {
                err.println(name + ": cannot read " + unreadable.source() + ": " + unreadable.problem());
                code = 2;
            } else {
                out.println(report.passes() ? "  the stream passes every rule"
                        : "  " + report.violations().size() + " rule(s) broken");
                code = Math.max(code, report.passes() ? 0 : 1);
            }
        }
        out.flush();
        err.flush();
        return code;
    }

    private List<Report> check(Settings settings, PrintWriter err, String name) {
        boolean url = sources.get(0).matches("(?i)https?://.*");
        if (url) {
            if (sources.size() > 1) {
                err.println(name + ": URL|FILE: give one events URL, or files only");
                return null;
            }
            return List.of(AguiEndpointContract.check(sources.get(0), settings));
        }
        List<Path> files = new ArrayList<>();
        for (String source : sources) {
            if (source.matches("(?i)https?://.*")) {
                err.println(name + ": URL|FILE: give one events URL, or files only");
                return null;
            }
            Path file = Path.of(source);
            if (!Files.isRegularFile(file)) {
                err.println(name + ": URL|FILE: '" + source + "' is neither an http or https URL nor a file");
                return null;
            }
            files.add(file);
        }
        return AguiEndpointContract.checkFiles(files, settings);
    }
}
