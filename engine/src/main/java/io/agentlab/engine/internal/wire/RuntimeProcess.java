package io.agentlab.engine.internal.wire;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import org.apiguardian.api.API;

/**
 * The runtime under test over the wire (docs/wire.md#start-up): attached to at a URL, or started from a command with
 * the environment of docs/wire.md#configuration, its output into {@code runtime.log} in the report folder (without
 * one, {@code agentlab-runtime-<pid>.log} in the temporary folder), polled on
 * {@code /agentlab/capabilities} until ready, started again after a crash (at most {@value #RESTARTS} times in a run)
 * and stopped at the end ({@code SIGTERM}, then killed after 5 s).
 */
@API(status = INTERNAL, since = "0.1")
public final class RuntimeProcess implements AutoCloseable {

    /** How many times a started runtime that died is started again in one run. */
    public static final int RESTARTS = 3;
    /** How long the ready probe's one request may take. */
    private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(2);

    /**
     * How the subject is chosen (docs/wire.md#configuration-keys).
     *
     * @param url          the runtime's base URL ({@code {port}} replaced by the free port chosen, with a command)
     * @param command      the command line that starts it, split; empty: attach
     * @param directory    where the command runs
     * @param aguiPath     the AG-UI endpoint's path
     * @param readyTimeout how long the runtime has to become ready
     * @param turnTimeout  the longest silence a turn's stream may keep
     * @param log          where a started runtime's output goes
     * @param providerPort the loopback port of the kit's provider route ({@code 0}: a free one with a token in its
     *                     path; docs/wire.md#attach)
     * @param portsPort    the loopback port of the port stand-ins ({@code 0}: a free one)
     */
    public record Settings(Optional<String> url, List<String> command, Optional<Path> directory, String aguiPath,
                           Duration readyTimeout, Duration turnTimeout, Path log, int providerPort, int portsPort) {
        /** Copies the command. */
        public Settings {
            command = List.copyOf(command);
        }
    }

    private final Settings settings;
    private final Map<String, String> environment;
    private final OkHttpClient client = new OkHttpClient.Builder().connectTimeout(PROBE_TIMEOUT)
            .readTimeout(PROBE_TIMEOUT).callTimeout(PROBE_TIMEOUT).build();
    private Process process;
    private String baseUrl;
    private int starts;
    /** Why the runtime is not there, once it is not: every later case fails with it. */
    private Optional<String> unavailable = Optional.empty();

    private RuntimeProcess(Settings settings, Map<String, String> environment) {
        this.settings = settings;
        this.environment = Map.copyOf(environment);
    }

    /** The environment a runtime is configured with (docs/wire.md#configuration), less where it listens. */
    public static Map<String, String> environment(String providerBaseUrl, String portsUrl) {
        Map<String, String> environment = new java.util.LinkedHashMap<>();
        environment.put("AGENTLAB_PROVIDER_BASE_URL", providerBaseUrl);
        environment.put("AGENTLAB_PROVIDER_API_KEY", "agentlab-replay");
        environment.put("AGENTLAB_PORTS_URL", portsUrl);
        return environment;
    }

    /**
     * Attaches to, or starts, the runtime; when it cannot be made ready, {@link #unavailable()} says why and the run
     * goes on, each case failing with that line.
     *
     * @param providerBaseUrl {@code AGENTLAB_PROVIDER_BASE_URL}
     * @param portsUrl        {@code AGENTLAB_PORTS_URL}
     */
    public static RuntimeProcess open(Settings settings, String providerBaseUrl, String portsUrl) {
        RuntimeProcess runtime = new RuntimeProcess(settings, environment(providerBaseUrl, portsUrl));
        if (settings.command().isEmpty()) {
            runtime.baseUrl = strip(settings.url().orElseThrow());
            runtime.unavailable = runtime.awaitReady(null);
        } else {
            runtime.start();
        }
        return runtime;
    }

    /**
     * What the report names: {@code over the wire: <url> (started: <command>)}, the URL with the port the kit chose
     * for a started runtime, not the {@code {port}} it was given.
     */
    public String describe() {
        return "over the wire: " + (baseUrl != null ? baseUrl : settings.url().orElse("http://127.0.0.1:{port}"))
                + (settings.command().isEmpty() ? "" : " (started: " + String.join(" ", settings.command()) + ")");
    }

    /** The runtime's base URL. */
    public String baseUrl() {
        return baseUrl;
    }

    /** The settings. */
    public Settings settings() {
        return settings;
    }

    /** Why the runtime cannot serve the run, once that is known. */
    public synchronized Optional<String> unavailable() {
        return unavailable;
    }

    /**
     * Before a case: a started runtime that has died is started again (at most {@value #RESTARTS} times in a run).
     *
     * @return why it cannot serve the case, if it cannot
     */
    public synchronized Optional<String> ensureRunning() {
        if (unavailable.isPresent() || process == null || process.isAlive()) {
            return unavailable;
        }
        if (starts > RESTARTS) {
            unavailable = Optional.of("the runtime started by '" + String.join(" ", settings.command())
                    + "' died again (exit code " + process.exitValue() + ") after " + RESTARTS + " restarts; see "
                    + settings.log());
            return unavailable;
        }
        start();
        return unavailable;
    }

    /**
     * The exit code of a started runtime that has died or dies within {@code wait}: after its stream broke off, the
     * process's end may not have been seen yet (docs/wire.md#bounds).
     */
    public Optional<Integer> exitCode(Duration wait) {
        Process started;
        synchronized (this) {
            started = process;
        }
        if (started == null) {
            return Optional.empty();
        }
        try {
            return started.waitFor(wait.toMillis(), TimeUnit.MILLISECONDS) ? Optional.of(started.exitValue())
                    : Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return exitCode();
        }
    }

    /** The exit code of a started runtime that has died, if it has. */
    public synchronized Optional<Integer> exitCode() {
        return process != null && !process.isAlive() ? Optional.of(process.exitValue()) : Optional.empty();
    }

    private void start() {
        starts++;
        int port;
        try {
            port = LoopbackPorts.unassigned();
        } catch (IOException e) {
            unavailable = Optional.of("no free loopback port for the runtime: " + e.getMessage());
            return;
        }
        baseUrl = strip(settings.url().orElse("http://127.0.0.1:{port}").replace("{port}", Integer.toString(port)));
        ProcessBuilder builder = new ProcessBuilder(settings.command());
        settings.directory().ifPresent(directory -> builder.directory(directory.toFile()));
        builder.environment().putAll(environment);
        builder.environment().put("AGENTLAB_RUNTIME_HOST", "127.0.0.1");
        builder.environment().put("AGENTLAB_RUNTIME_PORT", Integer.toString(port));
        builder.redirectErrorStream(true);
        try {
            Files.createDirectories(settings.log().toAbsolutePath().getParent());
            builder.redirectOutput(ProcessBuilder.Redirect.appendTo(settings.log().toFile()));
            process = builder.start();
        } catch (IOException e) {
            unavailable = Optional.of("the runtime command '" + String.join(" ", settings.command())
                    + "' cannot start: " + e.getMessage() + "; see " + settings.log());
            return;
        }
        unavailable = awaitReady(process);
    }

    /**
     * Polls the ready probe until it answers 200, the process exits or the ready bound passes; returns why it never
     * became ready, or empty.
     */
    private Optional<String> awaitReady(Process started) {
        long deadline = System.nanoTime() + settings.readyTimeout().toNanos();
        String last = "no answer";
        while (System.nanoTime() < deadline) {
            if (started != null && !started.isAlive()) {
                return Optional.of("the runtime started by '" + String.join(" ", settings.command())
                        + "' exited with code " + started.exitValue() + " before it was ready at " + baseUrl
                        + "; see " + settings.log());
            }
            try (Response response = client.newCall(new Request.Builder()
                    .url(baseUrl + "/agentlab/capabilities").get().build()).execute()) {
                if (response.code() == 200) {
                    return Optional.empty();
                }
                last = "HTTP " + response.code();
            } catch (IOException e) {
                last = e.getMessage();
            }
            try {
                // the ready probe's poll interval: a runtime's start-up has nothing to signal the kit with but this
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return Optional.of("interrupted while waiting for the runtime at " + baseUrl);
            }
        }
        return Optional.of("the runtime at " + baseUrl + (started == null ? "" : " (started by '"
                + String.join(" ", settings.command()) + "')") + " was not ready within "
                + settings.readyTimeout().toSeconds() + " s (agentlab.runtime.ready-timeout): " + last
                + (started == null ? "" : "; see " + settings.log()));
    }

    /** Splits a command line on white space, {@code "..."} quoting a part with spaces. */
    public static List<String> split(String commandLine) {
        List<String> parts = new ArrayList<>();
        StringBuilder part = new StringBuilder();
        boolean quoted = false;
        boolean any = false;
        for (char c : commandLine.toCharArray()) {
            if (c == '"') {
                quoted = !quoted;
                any = true;
            } else if (Character.isWhitespace(c) && !quoted) {
                if (any) {
                    parts.add(part.toString());
                    part.setLength(0);
                    any = false;
                }
            } else {
                part.append(c);
                any = true;
            }
        }
        if (quoted) {
            throw new IllegalArgumentException("the command line has an unclosed quote: " + commandLine);
        }
        if (any) {
            parts.add(part.toString());
        }
        return List.copyOf(parts);
    }

    private static String strip(String url) {
        return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
    }

    @Override
    public synchronized void close() {
        if (process != null && process.isAlive()) {
            process.destroy(); // SIGTERM: the runtime may shut down cleanly
            try {
                if (!process.waitFor(5, TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                process.destroyForcibly();
            }
        }
    }
}
