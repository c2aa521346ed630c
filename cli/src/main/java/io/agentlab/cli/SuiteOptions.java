package io.agentlab.cli;

import io.agentlab.engine.Constants;
import io.agentlab.kernel.api.InvocationMode;
import io.agentlab.runner.RunSpec;
import io.agentlab.runner.UsageException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The options {@code run} and {@code validate} share: which suites, in which modes, with which provider and
 * configuration. Each value is checked before anything runs; a bad one is a {@link UsageException} naming the option.
 */
final class SuiteOptions {

    /**
     * Cases run at once at {@code --speed 0} unless --parallel says otherwise, as promptfoo's default concurrency: no
     * timing figure means anything there, so cases may share the machine. At any other speed they run one after
     * another by default, so the timings stay each case's own (docs/cli.md#parallel).
     */
    static final int DEFAULT_PARALLEL_AT_SPEED_0 = 4;

    @Option(names = "--suites", paramLabel = "DIR|FILE|classpath:FOLDER",
            description = "Suite folders or files to run (repeatable); default classpath:agentlab/suites, the shipped suites.")
    List<String> suites = new ArrayList<>();

    @Option(names = "--modes", split = ",", paramLabel = "MODE",
            description = "Modes to run: dual_agent, chat_agent_tools or both (default).")
    List<String> modes = new ArrayList<>(List.of("dual_agent", "chat_agent_tools"));

    @Option(names = "--provider", description = "recorded (default), synthesized or live.")
    String provider = "recorded";

    @Option(names = "--speed", converter = Values.Speed.class, description = "Replay speed, 0 to 10: recorded "
            + "offsets times speed, 1.0 faithful (default), 0 as fast as possible, 2 twice as slow.")
    double speed = 1.0;

    @Option(names = "--live-base-url", paramLabel = "URL", converter = Values.HttpUrl.class,
            description = "The live provider's /v1 URL, http or https (--provider live).")
    String liveBaseUrl;

    @Option(names = "--live-api-key-env", description = "Environment variable holding the live key; "
            + "default AGENTLAB_API_KEY.")
    String liveApiKeyEnv = "AGENTLAB_API_KEY";

    @Option(names = "--parallel", paramLabel = "N", converter = Values.Parallel.class, description = "Cases run at "
            + "once, 1 to " + Values.MAX_PARALLEL + "; 1 runs them one after another. Default "
            + DEFAULT_PARALLEL_AT_SPEED_0 + " at --speed 0, else 1. Verdicts equal a serial run's; with N > 1 the cases"
            + " share the machine, and so do their timing figures.")
    Integer parallel;

    @Option(names = "--runtime", paramLabel = "URL", converter = Values.RuntimeUrl.class,
            description = "Judge a runtime over the wire instead of the in-process kernel (docs/wire.md): attach to it "
                    + "at URL (loopback), or with --runtime-command the URL it will listen on ({port}: a free port). "
                    + "Cases then run one at a time.")
    String runtime;

    @Option(names = "--runtime-command", paramLabel = "CMD", converter = Values.CommandLine.class,
            description = "Start the runtime over the wire with this command line (\"...\" quotes a word with "
                    + "spaces), configured by the environment of docs/wire.md#configuration; its output goes to "
                    + "runtime.log in the report folder.")
    String runtimeCommand;

    @Option(names = "--recordings", paramLabel = "DIR", description = "A folder of recordings (<id>.json, as "
            + "agentlab record writes them) searched before the classpath; repeatable.")
    List<Path> recordings = new ArrayList<>();

    @Mixin
    GateOptions gates;

    /** Whether the subject is a runtime over the wire ({@code --runtime}, {@code --runtime-command}). */
    boolean overTheWire() {
        return runtime != null || runtimeCommand != null;
    }

    /**
     * What the console's first line says of the subject: {@code over the wire: <url> (started: <command>), one case
     * at a time}, saying when {@code --parallel} is ignored; empty in-process.
     */
    Optional<String> subject() {
        if (!overTheWire()) {
            return Optional.empty();
        }
        return Optional.of("over the wire: " + (runtime == null ? "http://127.0.0.1:{port}" : runtime)
                + (runtimeCommand == null ? "" : " (started: " + runtimeCommand + ")") + ", one case at a time"
                + (parallel != null && parallel > 1 ? " (--parallel " + parallel + " ignored: a runtime over the wire "
                + "is served one turn at a time, docs/wire.md#one-turn-at-a-time)" : ""));
    }

    /** A spec builder with these options applied and checked. */
    RunSpec.Builder spec() {
        return spec(false);
    }

    /**
     * A spec builder with these options applied and checked; when {@code evaluating}, the gates are off unless the
     * options turn them on (an evaluation measures, the gates judge).
     */
    RunSpec.Builder spec(boolean evaluating) {
        for (String mode : modes) {
            try {
                InvocationMode.fromWireName(mode.strip());
            } catch (IllegalArgumentException e) {
                throw new UsageException("--modes: " + Values.oneLine(e.getMessage()));
            }
        }
        if (!List.of("recorded", "synthesized", "live").contains(provider.toLowerCase(Locale.ROOT))) {
            throw new UsageException("--provider: expected recorded, synthesized or live, got '"
                    + Values.oneLine(provider) + "'");
        }
        if ("live".equalsIgnoreCase(provider) && liveBaseUrl == null) {
            throw new UsageException("--provider live needs --live-base-url (the provider's /v1 URL)");
        }
        RunSpec.Builder builder = RunSpec.builder().suites(suites)
                .configuration(Constants.MODES, String.join(",", modes))
                .configuration(Constants.PROVIDER, provider.toLowerCase(Locale.ROOT))
                .configuration(Constants.REPLAY_SPEED, Double.toString(speed))
                .configuration(Constants.LIVE_API_KEY_ENV, liveApiKeyEnv)
                .configuration(Constants.GATES_ENABLED, Boolean.toString(!evaluating));
        // a runtime over the wire is served one turn at a time (docs/wire.md#one-turn-at-a-time)
        int cases = overTheWire() ? 1 : parallel != null ? parallel : speed == 0 ? DEFAULT_PARALLEL_AT_SPEED_0 : 1;
        builder.configuration(Constants.PARALLEL, Boolean.toString(cases > 1));
        if (cases > 1) {
            builder.configuration(Constants.PARALLEL_CONFIG_PREFIX + "strategy", "fixed")
                    .configuration(Constants.PARALLEL_CONFIG_PREFIX + "fixed.parallelism",
                            Integer.toString(cases));
        }
        if (liveBaseUrl != null) {
            builder.configuration(Constants.LIVE_BASE_URL, liveBaseUrl);
        }
        if (overTheWire() && "live".equalsIgnoreCase(provider)) {
            throw new UsageException("--runtime and --runtime-command judge a runtime against the kit's replay; "
                    + "--provider live cannot serve it");
        }
        if (runtime != null) {
            builder.configuration(Constants.RUNTIME_URL, runtime);
        }
        if (runtimeCommand != null) {
            builder.configuration(Constants.RUNTIME_COMMAND, runtimeCommand);
        }
        for (Path folder : recordings) {
            if (!Files.isDirectory(folder)) {
                throw new UsageException("--recordings: no such folder: "
                        + Values.oneLine(folder.toAbsolutePath().toString()));
            }
        }
        if (!recordings.isEmpty()) {
            builder.configuration(Constants.RECORDING_DIRECTORIES, String.join(",", recordings.stream()
                    .map(Path::toString).toList()));
        }
        gates.parameters().forEach(builder::configuration);
        return builder;
    }
}
