package io.agentlab.report;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apiguardian.api.API;

/**
 * How a run was made, shown at the top of every report and written into {@code metrics.json}'s {@code run}.
 *
 * @param startedAt     when the execution started
 * @param finishedAt    when the suites and gates had finished
 * @param kitVersion    the engine's version
 * @param commit        the commit of the project that ran ({@code git describe --always --dirty}, or the CI's
 *                      variable), if it could be told
 * @param provider      {@code recorded}, {@code synthesized} or {@code live} (with the host)
 * @param replaySpeed   recorded and modelled offsets × this
 * @param modes         the modes the run asked for
 * @param models        the models the run's calls named
 * @param kernelFactory the kernel under test's factory class; no kernel of the kit's is under test when the subject is
 *                      {@linkplain #overTheWire() over the wire}, and the reports leave it out then
 * @param machine       operating system, architecture, processors and Java version
 * @param coverage      what the launch covered: whole suites, or which part of them ({@link Coverage#describe()})
 * @param subject       what the suites judged: {@code in-process: <factory>}, or {@code over the wire: <url>
 *                      (started: <command>)} (docs/wire.md#configuration-keys)
 * @param notObservable over the wire, per expectation kind, how many expectations (or parts of one) the runtime's
 *                      wire could not show, so none was judged (docs/wire.md#observability); empty in-process
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record RunMetadata(Instant startedAt, Instant finishedAt, String kitVersion, Optional<String> commit,
                          String provider, double replaySpeed, List<String> modes, List<String> models,
                          String kernelFactory, String machine, String coverage, String subject,
                          Map<String, Long> notObservable) {

    /** Copies the lists and the counts (sorted by kind). */
    public RunMetadata {
        modes = List.copyOf(modes);
        models = List.copyOf(models);
        notObservable = Collections.unmodifiableMap(new TreeMap<>(notObservable));
    }

    /** The metadata of a run whose subject is the in-process kernel of {@code kernelFactory}. */
    public RunMetadata(Instant startedAt, Instant finishedAt, String kitVersion, Optional<String> commit,
                       String provider, double replaySpeed, List<String> modes, List<String> models,
                       String kernelFactory, String machine, String coverage) {
        this(startedAt, finishedAt, kitVersion, commit, provider, replaySpeed, modes, models, kernelFactory, machine,
                coverage, inProcess(kernelFactory), Map.of());
    }

    /** The subject of a run in-process: {@code in-process: <factory>}. */
    public static String inProcess(String kernelFactory) {
        return "in-process: " + kernelFactory;
    }

    /**
     * Whether the subject is a runtime over the wire ({@code over the wire: ...}, docs/wire.md): the kit judged its
     * stream, not a kernel of its own, so the reports show no kernel under test and {@code metrics.json} writes
     * {@code kernelFactory} null.
     */
    public boolean overTheWire() {
        return subject.startsWith("over the wire");
    }

    /** The counts of {@link #notObservable()} in one phrase ({@code ...: history 4, usage 12}); empty without any. */
    public Optional<String> notObservableSummary() {
        if (notObservable.isEmpty()) {
            return Optional.empty();
        }
        long total = notObservable.values().stream().mapToLong(Long::longValue).sum();
        return Optional.of(total + " expectation(s) or parts not observable over the wire, not judged: "
                + notObservable.entrySet().stream().map(e -> e.getKey() + " " + e.getValue())
                .collect(Collectors.joining(", ")));
    }

    /** CI variables that carry the commit, checked in this order before asking git. */
    static final List<String> COMMIT_VARIABLES = List.of("GITHUB_SHA", "CI_COMMIT_SHA", "GIT_COMMIT",
            "BUILD_VCS_NUMBER");

    /** The engine's version, from the resource the build writes; {@code unknown} outside a build. */
    public static String engineVersion() {
        try (InputStream in = RunMetadata.class.getResourceAsStream("/io/agentlab/engine/version.properties")) {
            if (in == null) {
                return "unknown";
            }
            Properties properties = new Properties();
            properties.load(new java.io.InputStreamReader(in, StandardCharsets.UTF_8));
            return properties.getProperty("version", "unknown");
        } catch (IOException e) {
            return "unknown";
        }
    }

    /** This machine, without its name: OS, architecture, processors, Java. */
    public static String thisMachine() {
        return System.getProperty("os.name") + " " + System.getProperty("os.version") + " ("
                + System.getProperty("os.arch") + "), " + Runtime.getRuntime().availableProcessors() + " processors, Java "
                + System.getProperty("java.version");
    }

    /**
     * The commit the run was made from: a CI variable when one is set, else {@code git describe --always --dirty}
     * in the working directory, waited for at most two seconds; empty when neither tells.
     */
    public static Optional<String> currentCommit() {
        for (String variable : COMMIT_VARIABLES) {
            String value = System.getenv(variable);
            if (value != null && !value.isBlank()) {
                return Optional.of(value.strip().substring(0, Math.min(12, value.strip().length())));
            }
        }
        try {
            Process git = new ProcessBuilder("git", "describe", "--always", "--dirty", "--abbrev=12")
                    .redirectErrorStream(true).start();
            git.getOutputStream().close();
            if (!git.waitFor(2, TimeUnit.SECONDS)) {
                git.destroyForcibly();
                return Optional.empty();
            }
            String out = new String(git.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            return git.exitValue() == 0 && out.matches("[0-9A-Za-z._/+-]{4,80}") ? Optional.of(out) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty(); // no git on this machine
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }

    /**
     * The metadata {@link #toMap()} wrote, read back (a merge reports the run its shards were); what is missing reads
     * as unknown.
     */
    public static RunMetadata fromMap(Map<String, Object> map) {
        Instant started = instant(map.get("startedAt"));
        Map<String, Long> notObservable = new TreeMap<>();
        if (map.get("notObservable") instanceof Map<?, ?> counts) {
            counts.forEach((kind, count) -> {
                if (count instanceof Number number) {
                    notObservable.put(kind.toString(), number.longValue());
                }
            });
        }
        return new RunMetadata(started, map.containsKey("finishedAt") ? instant(map.get("finishedAt")) : started,
                text(map.get("kitVersion")), Optional.ofNullable(map.get("commit")).map(Object::toString),
                text(map.get("provider")), map.get("replaySpeed") instanceof Number speed ? speed.doubleValue() : 1.0,
                strings(map.get("modes")), strings(map.get("models")), text(map.get("kernelFactory")),
                text(map.get("machine")), "merged shards: whole suites", map.get("subject") == null
                        ? inProcess(text(map.get("kernelFactory"))) : map.get("subject").toString(), notObservable);
    }

    private static Instant instant(Object value) {
        try {
            return value == null ? Instant.EPOCH : Instant.parse(value.toString());
        } catch (java.time.format.DateTimeParseException e) {
            return Instant.EPOCH;
        }
    }

    private static String text(Object value) {
        return value == null ? "unknown" : value.toString();
    }

    private static List<String> strings(Object value) {
        return value instanceof List<?> list ? list.stream().map(Object::toString).toList() : List.of();
    }

    /** The metadata as {@code metrics.json} writes it. */
    public Map<String, Object> toMap() {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("startedAt", startedAt.toString());
        map.put("finishedAt", finishedAt.toString());
        map.put("kitVersion", kitVersion);
        map.put("commit", commit.orElse(null));
        map.put("provider", provider);
        map.put("replaySpeed", replaySpeed);
        map.put("modes", modes);
        map.put("models", models);
        map.put("kernelFactory", overTheWire() ? null : kernelFactory);
        map.put("machine", machine);
        map.put("subject", subject);
        if (!notObservable.isEmpty()) {
            map.put("notObservable", new LinkedHashMap<>(notObservable));
        }
        return map;
    }
}
