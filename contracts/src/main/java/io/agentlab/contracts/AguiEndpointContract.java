package io.agentlab.contracts;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.agentlab.agui.AguiProfile;
import io.agentlab.agui.AguiRules;
import io.agentlab.agui.AguiSseCodec;
import io.agentlab.agui.AguiStreamChecker;
import io.agentlab.agui.AguiStreamChecker.Violation;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * The AG-UI endpoint contract for a service team: reads the SSE stream of one run (from its events URL, or from saved
 * files) and checks it against a profile's rules ({@link AguiProfile#rules()}), then, for a URL whose frames carry
 * ids, reconnects with {@code Last-Event-ID} and requires exactly the frames after that id (ENDPOINT-05).
 *
 * <p>Reading is bounded whatever the server sends: one frame in memory at a time, at most {@link Settings#maxFrameBytes()}
 * per frame and {@link Settings#maxEvents()} events, and {@link Settings#timeout()} for the whole stream. Every input
 * gets a verdict: {@link Checked} (passes, or the broken rules) or {@link Unreadable} (one line saying what and where).
 *
 * <pre>{@code
 * AguiEndpointContract.Report report = AguiEndpointContract.check(url, Settings.defaults().withRunId(runId));
 * assertThat(report.violations()).isEmpty();
 * }</pre>
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class AguiEndpointContract {

    private AguiEndpointContract() {
    }

    /**
     * How a stream is checked. Defaults: profile {@code agui-1.0}, no run id required, 30 s for the whole stream,
     * 1 MiB per frame, 100,000 events.
     *
     * @param profile       the rule list
     * @param runId         the run the stream must be (ENDPOINT-03), or null
     * @param timeout       the whole stream's deadline (connecting, reading, and the resume read)
     * @param maxFrameBytes the longest frame, in bytes
     * @param maxEvents     the most events one stream may send
     */
    public record Settings(AguiProfile profile, String runId, Duration timeout, int maxFrameBytes, long maxEvents) {

        /** The deadline when none is given. */
        public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(30);
        /** The frame cap when none is given: 1 MiB. */
        public static final int DEFAULT_MAX_FRAME_BYTES = 1 << 20;
        /** The event cap when none is given. */
        public static final long DEFAULT_MAX_EVENTS = 100_000;

        /** Rejects nulls and caps that are not positive. */
        public Settings {
            Objects.requireNonNull(profile, "profile");
            Objects.requireNonNull(timeout, "timeout");
            if (timeout.isNegative() || timeout.isZero()) {
                throw new IllegalArgumentException("timeout must be positive, was " + timeout);
            }
            if (maxFrameBytes <= 0 || maxEvents <= 0) {
                throw new IllegalArgumentException("maxFrameBytes and maxEvents must be positive, were "
                        + maxFrameBytes + " and " + maxEvents);
            }
        }

        /** The defaults. */
        public static Settings defaults() {
            return new Settings(AguiProfile.AGUI_1_0, null, DEFAULT_TIMEOUT, DEFAULT_MAX_FRAME_BYTES,
                    DEFAULT_MAX_EVENTS);
        }

        /** The same settings with another profile. */
        public Settings withProfile(AguiProfile other) {
            return new Settings(other, runId, timeout, maxFrameBytes, maxEvents);
        }

        /** The same settings requiring run {@code id} (null: any run). */
        public Settings withRunId(String id) {
            return new Settings(profile, id, timeout, maxFrameBytes, maxEvents);
        }

        /** The same settings with another deadline. */
        public Settings withTimeout(Duration other) {
            return new Settings(profile, runId, other, maxFrameBytes, maxEvents);
        }

        /** The same settings with another frame cap. */
        public Settings withMaxFrameBytes(int bytes) {
            return new Settings(profile, runId, timeout, bytes, maxEvents);
        }

        /** The same settings with another event cap. */
        public Settings withMaxEvents(long events) {
            return new Settings(profile, runId, timeout, maxFrameBytes, events);
        }
    }

    /** The verdict on one stream. */
    public sealed interface Report permits Checked, Unreadable {
        /** The URL or file. */
        String source();

        /** The events read. */
        int events();

        /** The broken rules found (for an unreadable stream, those found before reading stopped). */
        List<Violation> violations();

        /** Whether the stream was read to its end and breaks no rule. */
        boolean passes();
    }

    /**
     * A stream read to its end.
     *
     * @param source     the URL or file
     * @param events     the events read
     * @param violations every broken rule
     */
    public record Checked(String source, int events, List<Violation> violations) implements Report {
        /** Copies the violations. */
        public Checked {
            violations = List.copyOf(violations);
        }

        @Override
        public boolean passes() {
            return violations.isEmpty();
        }
    }

    /**
     * A stream that could not be read to its end, or not at all.
     *
     * @param source     the URL or file
     * @param problem    what went wrong and where, in one line
     * @param events     the events read before that
     * @param violations the rules already broken before that
     */
    public record Unreadable(String source, String problem, int events, List<Violation> violations) implements Report {
        /** Copies the violations. */
        public Unreadable {
            violations = List.copyOf(violations);
        }

        @Override
        public boolean passes() {
            return false;
        }
    }

    /** Checks one run's stream at {@code eventsUrl}, then its {@code Last-Event-ID} resume. */
    public static Report check(String eventsUrl, Settings settings) {
        URI url = httpUrl(eventsUrl);
        if (url == null) {
            return new Unreadable(eventsUrl, "not an http or https URL", 0, List.of());
        }
        long deadline = System.nanoTime() + settings.timeout().toNanos();
        // The JDK's client, not OkHttp: a service team's test classpath gets no HTTP library from the kit
        // (docs/plugin-contract.md#artifacts).
        HttpClient http = HttpClient.newBuilder().connectTimeout(settings.timeout())
                .followRedirects(HttpClient.Redirect.NORMAL).build();
        AguiStreamChecker.StreamCheck stream = AguiStreamChecker.thread(settings.profile()).stream(settings.runId());
        List<Digest> digests = new ArrayList<>();
        Report report = read(http, url, null, settings, deadline, stream, digests);
        if (report instanceof Checked checked && digests.size() >= 2 && digests.get(0).id() != null) {
            List<Digest> resumed = new ArrayList<>();
            Report again = read(http, url, digests.get(0).id(), settings, deadline, null, resumed);
            if (again instanceof Unreadable unreadable) {
                return new Unreadable(eventsUrl, "resuming after Last-Event-ID " + digests.get(0).id() + ": "
                        + unreadable.problem(), checked.events(), checked.violations());
            }
            List<Digest> expected = digests.subList(1, digests.size());
            if (!resumed.equals(expected)) {
                List<Violation> all = new ArrayList<>(checked.violations());
                all.add(new Violation(AguiRules.ENDPOINT_05.id(), 0, null, null, "after Last-Event-ID "
                        + digests.get(0).id()
                        + " the endpoint sent " + ids(resumed) + ", expected " + ids(expected)
                        + (ids(resumed).equals(ids(expected)) ? " with the same data" : "")));
                return new Checked(eventsUrl, checked.events(), all);
            }
        }
        return report;
    }

    private static URI httpUrl(String text) {
        try {
            URI uri = new URI(text);
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            return (scheme.equals("http") || scheme.equals("https")) && uri.getHost() != null ? uri : null;
        } catch (URISyntaxException e) {
            return null;
        }
    }

    /** Checks a saved stream (an SSE body in a file); no resume. */
    public static Report checkFile(Path file, Settings settings) {
        return checkFiles(List.of(file), settings).get(0);
    }

    /**
     * Checks saved streams that are the runs of one thread, in order, so the rules that span a thread (AGUI1-14:
     * no id of an earlier run reused) hold across them; {@code settings.runId()} applies to each.
     */
    public static List<Report> checkFiles(List<Path> files, Settings settings) {
        AguiStreamChecker.ThreadCheck thread = AguiStreamChecker.thread(settings.profile());
        List<Report> reports = new ArrayList<>();
        for (Path file : files) {
            long deadline = System.nanoTime() + settings.timeout().toNanos();
            AguiStreamChecker.StreamCheck stream = thread.stream(settings.runId());
            try (InputStream in = Files.newInputStream(file)) {
                reports.add(body(file.toString(), in, settings, deadline, stream, new ArrayList<>()));
            } catch (NoSuchFileException e) {
                reports.add(new Unreadable(file.toString(), "no such file", 0, List.of()));
            } catch (IOException e) {
                reports.add(new Unreadable(file.toString(), "cannot read the file: " + describe(e), stream.position(),
                        stream.violations()));
            }
        }
        return reports;
    }

    /** One frame as the resume check compares it: its id, its event name and a digest of its data. */
    private record Digest(String id, String event, String sha256) {
    }

    private static List<String> ids(List<Digest> digests) {
        List<String> ids = digests.stream().map(Digest::id).toList();
        return ids.size() > 20 ? List.of(String.join(", ", ids.subList(0, 20)) + ", … (" + ids.size() + " frames)")
                : ids;
    }

    /** One GET of the stream; {@code stream} null reads digests only (the resume read). */
    private static Report read(HttpClient http, URI url, String lastEventId, Settings settings, long deadline,
                               AguiStreamChecker.StreamCheck stream, List<Digest> digests) {
        HttpRequest.Builder request = HttpRequest.newBuilder(url).GET().header("Accept", "text/event-stream")
                .timeout(remaining(deadline));
        if (lastEventId != null) {
            request.header("Last-Event-ID", lastEventId);
        }
        String source = url.toString();
        int port = url.getPort() != -1 ? url.getPort() : url.getScheme().equalsIgnoreCase("https") ? 443 : 80;
        InputStream in = null;
        ScheduledFuture<?> stop = null;
        try {
            HttpResponse<InputStream> response = http.send(request.build(), HttpResponse.BodyHandlers.ofInputStream());
            in = response.body();
            if (response.statusCode() != 200) {
                return new Unreadable(source, "GET answered HTTP " + response.statusCode()
                        + " (an AG-UI endpoint answers 200 with an SSE stream)", 0, List.of());
            }
            String type = response.headers().firstValue("Content-Type").orElse(null);
            if (stream != null && (type == null || !type.toLowerCase(Locale.ROOT).strip()
                    .startsWith("text/event-stream"))) {
                stream.violation(new Violation(AguiRules.ENDPOINT_01.id(), 0, null, null, "Content-Type is "
                        + (type == null ? "missing" : "'" + type + "'") + ", not text/event-stream; EventSource "
                        + "clients refuse the stream"));
            }
            // The whole stream's deadline: the JDK client bounds only the wait for headers, so the body is closed
            // when the deadline passes and the blocked read ends with an IOException
            // (docs/assertions-and-endpoints.md#limits).
            InputStream body = in;
            stop = DEADLINES.schedule(() -> closeQuietly(body), Math.max(0, deadline - System.nanoTime()),
                    TimeUnit.NANOSECONDS);
            return body(source, in, settings, deadline, stream, digests);
        } catch (HttpTimeoutException e) {
            return timedOut(source, settings, stream);
        } catch (ConnectException e) {
            return new Unreadable(source, "cannot connect to " + url.getHost() + ":" + port + " ("
                    + describe(e) + ")", 0, List.of());
        } catch (IOException e) {
            if (System.nanoTime() - deadline >= 0) {
                return timedOut(source, settings, stream);
            }
            if (e.getCause() instanceof UnknownHostException || e instanceof UnknownHostException) {
                return new Unreadable(source, "unknown host " + url.getHost(), 0, List.of());
            }
            return new Unreadable(source, "the connection failed after " + (stream == null ? 0 : stream.position())
                    + " event(s): " + describe(e), stream == null ? 0 : stream.position(),
                    stream == null ? List.of() : stream.violations());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Unreadable(source, "interrupted while reading the stream", stream == null ? 0
                    : stream.position(), stream == null ? List.of() : stream.violations());
        } finally {
            if (stop != null) {
                stop.cancel(false);
            }
            closeQuietly(in);
        }
    }

    /** One daemon timer for every stream's deadline; it only closes bodies. */
    private static final ScheduledExecutorService DEADLINES = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "agentlab-endpoint-deadline");
        t.setDaemon(true);
        return t;
    });

    private static Duration remaining(long deadline) {
        return Duration.ofNanos(Math.max(1_000_000, deadline - System.nanoTime()));
    }

    private static Unreadable timedOut(String source, Settings settings, AguiStreamChecker.StreamCheck stream) {
        return new Unreadable(source, "the stream did not end within " + describe(settings.timeout())
                + " (--timeout raises it)", stream == null ? 0 : stream.position(),
                stream == null ? List.of() : stream.violations());
    }

    private static void closeQuietly(InputStream in) {
        if (in != null) {
            try {
                in.close();
            } catch (IOException ignored) {
                // closing is all that is asked of it
            }
        }
    }

    /** Reads a body frame by frame into {@code stream} (and digests), within the caps. */
    private static Report body(String source, InputStream in, Settings settings, long deadline,
                               AguiStreamChecker.StreamCheck stream, List<Digest> digests) throws IOException {
        SseFrameReader reader = new SseFrameReader(settings.maxFrameBytes(), settings.maxEvents(), deadline,
                describe(settings.timeout()));
        // the reader takes a byte at a time: unbuffered, that was a system call per byte of a saved stream
        // (1,200 streams took 15 s); a buffer still hands on whatever a live stream has sent, as it arrives
        InputStream buffered = in instanceof BufferedInputStream ? in : new BufferedInputStream(in, 16 * 1024);
        SseFrameReader.Outcome outcome = reader.read(buffered, (frame, number) -> {
            digests.add(new Digest(frame.id(), frame.event(), sha256(frame.data())));
            if (stream != null) {
                stream.frame(frame);
            }
        });
        if (stream == null) {
            return outcome.stopped() != null ? new Unreadable(source, outcome.stopped(), outcome.frames(), List.of())
                    : new Checked(source, outcome.frames(), List.of());
        }
        if (outcome.stopped() != null) {
            return new Unreadable(source, outcome.stopped(), outcome.frames(), stream.violations());
        }
        if (outcome.crFrame() > 0 && settings.profile() == AguiProfile.AGUI_1_0) {
            stream.violation(new Violation(AguiRules.AGUI1_18.id(), outcome.crFrame(), null, null, "frame "
                    + outcome.crFrame()
                    + " ends a line with CR; the official client splits frames only at LF LF, so it runs the events "
                    + "from here on into one frame"));
        }
        if (outcome.midFrame()) {
            stream.violation(new Violation(AguiRules.ENDPOINT_02.id(), 0, null, null, "the stream closed in the middle of its "
                    + "last frame (after byte " + outcome.bytes() + ", no blank line after the frame's last line)"));
        }
        return new Checked(source, outcome.frames(), stream.finish());
    }

    private static String sha256(String data) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(data.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }

    private static String describe(Duration duration) {
        return duration.toMillis() % 1000 == 0 ? duration.toSeconds() + " s" : duration.toMillis() + " ms";
    }

    private static String describe(IOException e) {
        String message = e.getMessage();
        return e.getClass().getSimpleName() + (message == null || message.isBlank() ? "" : ": " + message);
    }
}
