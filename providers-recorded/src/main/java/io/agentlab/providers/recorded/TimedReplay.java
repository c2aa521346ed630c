package io.agentlab.providers.recorded;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.any;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;
import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.common.InputStreamSource;
import com.github.tomakehurst.wiremock.core.WireMockConfiguration;
import com.github.tomakehurst.wiremock.extension.ResponseTransformerV2;
import com.github.tomakehurst.wiremock.http.Fault;
import com.github.tomakehurst.wiremock.http.HttpHeader;
import com.github.tomakehurst.wiremock.http.HttpHeaders;
import com.github.tomakehurst.wiremock.http.Response;
import com.github.tomakehurst.wiremock.standalone.MappingsSource;
import com.github.tomakehurst.wiremock.stubbing.ServeEvent;
import com.github.tomakehurst.wiremock.stubbing.StubMapping;
import com.github.tomakehurst.wiremock.stubbing.StubMappings;
import io.agentlab.provider.openai.OpenAiCompatibleClient;
import io.agentlab.runtime.llm.Json;
import io.agentlab.tokens.PromptTokens;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Function;
import java.util.regex.Pattern;
import org.apiguardian.api.API;

/**
 * Replays recordings over real HTTP with their timing: each SSE event is written, and flushed, at its recorded offset
 * × {@code speed} after the request arrived (1.0 faithful, 0 as fast as possible). A request no recording matches
 * gets HTTP 404 with a body naming the closest recording and why it did not match; the message is also kept in
 * {@link #mismatches()}.
 *
 * <p>One server can serve many independent runs at once: {@link #scope(String, List)} registers recordings under a
 * name and returns a base URL, holding an unguessable token, whose requests only they answer, so parallel test cases
 * never see each other's streams and no other process on the machine can read them.
 *
 * <p>Recordings whose usage says {@code "@prompt_tokens@"} get the prompt tokens of the request actually received
 * ({@link PromptTokens}), so per-mode token figures reflect what the runtime really sent.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class TimedReplay implements AutoCloseable {

    /** Placeholder replaced by the received request's prompt tokens. */
    public static final String PROMPT_TOKENS = "\"@prompt_tokens@\"";
    /** Placeholder replaced by prompt tokens + the recorded completion tokens. */
    public static final String TOTAL_TOKENS_PLUS = "\"@total_tokens_plus@";

    private static final String SCOPES = "/scopes/";
    private static final String ROUTES = "/routes/";
    /** A scope's or route's name: compiled once, since every case opens a scope. */
    private static final Pattern URL_SAFE = Pattern.compile("[A-Za-z0-9._~-]+");
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final String LOOPBACK = "127.0.0.1";
    /** The longest a stalled response holds its connection when nobody closes its scope. */
    static final Duration MAX_STALL = Duration.ofMinutes(5);

    private final WireMockServer server;
    private final double speed;
    /** Routes served on a port of their own ({@link #route(String, Router, int)}), stopped with the server. */
    private final List<WireMockServer> fixedPorts = new CopyOnWriteArrayList<>();
    private final List<String> mismatches = new CopyOnWriteArrayList<>();
    private final Map<String, List<String>> scopeMismatches = new ConcurrentHashMap<>();
    /** Open scopes by the key their URL carries ({@code <name>.<token>}). */
    private final Map<String, Scope> scopes = new ConcurrentHashMap<>();
    /** Open routes by the key their URL carries ({@code <name>.<token>}). */
    private final Map<String, Router> routes = new ConcurrentHashMap<>();
    /** Open scopes' keys by name. */
    private final Map<String, String> keys = new ConcurrentHashMap<>();
    /** Released when the server closes: a stall outside any scope ends then. */
    private final CountDownLatch closed = new CountDownLatch(1);

    private TimedReplay(List<Recording> recordings, double speed) {
        if (speed < 0) {
            throw new IllegalArgumentException("speed must be >= 0, was " + speed);
        }
        this.speed = speed;
        server = started(serverOptions().dynamicPort(), "agentlab-timed-replay", event -> {
            String url = event.getRequest().getUrl();
            if (url.startsWith(ROUTES)) {
                return routed(url, speed, event);
            }
            return respond(scopeFor(url, recordings), speed, event);
        });
    }

    /** A started server whose every response is {@code answer}'s for the request's serve event. */
    private static WireMockServer started(WireMockConfiguration options, String name,
            Function<ServeEvent, Response> answer) {
        ResponseTransformerV2 transformer = new ResponseTransformerV2() {
            @Override
            public String getName() {
                return name;
            }

            @Override
            public Response transform(Response response, ServeEvent event) {
                return answer.apply(event);
            }
        };
        WireMockServer started = new WireMockServer(options.extensions(transformer));
        started.start();
        try {
            started.stubFor(any(anyUrl()).willReturn(aResponse().withStatus(200)));
        } catch (RuntimeException e) {
            started.stop();
            throw e;
        }
        return started;
    }

    /**
     * Loopback only, no request journal, and an admin API that refuses every request: the server that decides verdicts
     * must not be reachable from other hosts nor re-stubbed over HTTP (docs/limits-and-safety.md). No log line per
     * request either: WireMock formats the request and the response as JSON for it even when its notifier prints
     * nothing, 2 % of a run's CPU (docs/performance.md#per-case).
     *
     * <p>No stub but the replay's own: WireMock loads every file under {@code src/test/resources/mappings} of the
     * working directory at start by default, which in a service team's project is their own WireMock stubs (a
     * malformed one failed the run; a valid one was loaded into the server that decides the verdicts), so the
     * mappings come from an empty source (docs/limits-and-safety.md#replay-server). No response templating either, and no proxy
     * client: WireMock builds Apache HttpClient with its TLS set-up at start for proxying, which a replay never does
     * (about 200 classes before the first case can be served, docs/performance.md#start-up).
     */
    private static WireMockConfiguration serverOptions() {
        return options().bindAddress(LOOPBACK).maxLoggedResponseSize(0).gzipDisabled(true).disableRequestJournal()
                .stubRequestLoggingDisabled(true).adminAuthenticator(request -> false)
                .httpServerFactory(new SseFlushingServerFactory()).mappingSource(NO_MAPPINGS).templatingEnabled(false)
                .httpClientFactory((options, trustAll, trusted, systemProperties) -> request -> {
                    throw new IOException("the replay server proxies nothing: " + request.getUrl());
                });
    }

    /** A mappings source with nothing in it that keeps nothing: the replay's stubs live in memory only. */
    private static final MappingsSource NO_MAPPINGS = new MappingsSource() {
        @Override
        public void loadMappingsInto(StubMappings stubMappings) {
            // nothing to load
        }

        @Override
        public void save(List<StubMapping> stubMappings) {
            // nothing kept
        }

        @Override
        public void save(StubMapping stubMapping) {
            // nothing kept
        }

        @Override
        public void remove(StubMapping stubMapping) {
            // nothing kept
        }

        @Override
        public void removeAll() {
            // nothing kept
        }
    };

    /** Starts a replay server on a free loopback port. */
    public static TimedReplay start(List<Recording> recordings, double speed) {
        return new TimedReplay(List.copyOf(recordings), speed);
    }

    /** The {@code /v1} base URL to configure an OpenAI-compatible client with. */
    public String baseUrl() {
        return root() + "/v1";
    }

    /**
     * Registers recordings that only requests under the returned base URL see.
     *
     * @param name a URL-safe name unique among the open scopes
     * @return the {@code /v1} base URL of the scope
     * @throws IllegalArgumentException if the name is taken or not URL-safe
     */
    public String scope(String name, List<Recording> recordings) {
        if (!URL_SAFE.matcher(name).matches()) {
            throw new IllegalArgumentException("scope name must be URL-safe ([A-Za-z0-9._~-]), was '" + name + "'");
        }
        // the URL carries an unguessable token, not the name: another process on this machine cannot read a case's
        // recorded replies or its expected user message by trying names (docs/limits-and-safety.md#replay-server)
        String key = name + "." + token();
        if (keys.putIfAbsent(name, key) != null) {
            throw new IllegalArgumentException("scope '" + name + "' is already open");
        }
        scopes.put(key, new Scope(name, List.copyOf(recordings), new CountDownLatch(1)));
        scopeMismatches.remove(name); // a name used again starts with none
        return root() + SCOPES + key + "/v1";
    }

    /**
     * Decides, per request, which open scope answers a request made under a routed base URL
     * ({@link #route(String, Router)}).
     */
    @FunctionalInterface
    public interface Router {
        /**
         * Where the request goes.
         *
         * @param role the call's role: its {@code X-Agentlab-Call-Role} header, or read from the messages when the
         *             header is absent ({@link RequestMatcher.Received#of})
         * @param body the request body
         */
        Routed route(String role, String body);
    }

    /** Where a routed request goes. */
    public sealed interface Routed permits Routed.To, Routed.Refused {
        /**
         * To the open scope {@code scope}.
         *
         * @param scope the scope's name
         */
        record To(String scope) implements Routed {
        }

        /**
         * Nowhere: answered {@code 409} with {@code reason}.
         *
         * @param reason why, one line
         */
        record Refused(String reason) implements Routed {
        }
    }

    /**
     * A fixed base URL whose requests {@code router} sends, one by one, to an open scope: a runtime configured with one
     * provider base URL is answered by whichever scope the current turn opened (docs/wire.md#one-turn-at-a-time).
     *
     * @param name a URL-safe name unique among the open routes
     * @return the {@code /v1} base URL of the route (it carries an unguessable token, as a scope's does)
     */
    public String route(String name, Router router) {
        if (!URL_SAFE.matcher(name).matches()) {
            throw new IllegalArgumentException("route name must be URL-safe ([A-Za-z0-9._~-]), was '" + name + "'");
        }
        String key = name + "." + token();
        routes.put(key, java.util.Objects.requireNonNull(router, "router"));
        return root() + ROUTES + key + "/v1";
    }

    /**
     * A route as {@link #route(String, Router)}, served on a loopback port of its own whose base URL is
     * {@code http://127.0.0.1:<port>/v1}, the same on every run: a runtime already running can be configured with it
     * before the run (docs/wire.md#attach). That URL carries no token, so on this port any process of the machine
     * could reach the current turn's replies; the operator who fixes the port accepts that
     * (docs/limits-and-safety.md#replay-server).
     *
     * @param port the loopback port, 1 to 65535
     * @throws IllegalStateException when the port cannot be bound (one line naming it)
     */
    public String route(String name, Router router, int port) {
        String routed = route(name, router);
        String key = routed.substring(root().length() + ROUTES.length(), routed.length() - "/v1".length());
        WireMockServer fixed;
        try {
            fixed = started(serverOptions().port(port), "agentlab-timed-replay-route",
                    event -> routed(ROUTES + key + event.getRequest().getUrl(), speed, event));
        } catch (RuntimeException e) {
            throw new IllegalStateException("cannot serve the provider route on 127.0.0.1:" + port + " (in use?): "
                    + e.getMessage(), e);
        }
        fixedPorts.add(fixed);
        return "http://" + LOOPBACK + ":" + port + "/v1";
    }

    private Response routed(String url, double speed, ServeEvent event) {
        int end = url.indexOf('/', ROUTES.length());
        Router router = routes.get(url.substring(ROUTES.length(), end < 0 ? url.length() : end));
        if (router == null) {
            return error("no such route");
        }
        String body = event.getRequest().getBodyAsString();
        String role;
        try {
            role = RequestMatcher.Received.of(body, event.getRequest().getHeader(OpenAiCompatibleClient.ROLE_HEADER))
                    .role();
        } catch (RuntimeException e) {
            return error("the request body is not JSON: " + e.getMessage());
        }
        Routed routed = router.route(role, body);
        if (routed instanceof Routed.To to) {
            String key = keys.get(to.scope());
            Scope scope = key == null ? null : scopes.get(key);
            return scope == null ? refused("the turn's scope " + to.scope() + " has closed") : respond(scope, speed, event);
        }
        return refused(((Routed.Refused) routed).reason());
    }

    private static Response refused(String reason) {
        return Response.response().status(409)
                .headers(new HttpHeaders(new HttpHeader("Content-Type", "application/json")))
                .body(Json.write(Map.of("error", Map.of("message", reason, "type", "agentlab_replay_refused"))))
                .build();
    }

    /** 128 random bits, URL-safe. */
    private static String token() {
        byte[] bytes = new byte[16];
        RANDOM.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    /** The server's root URL, by address: {@code localhost} may resolve to an address the server does not bind. */
    private String root() {
        return "http://" + LOOPBACK + ":" + server.port();
    }

    /** The port the server listens on (loopback only). */
    public int port() {
        return server.port();
    }

    /** Forgets a scope's recordings (its base URL then answers 404) and ends its stalled responses. */
    public void closeScope(String name) {
        String key = keys.remove(name);
        Scope scope = key == null ? null : scopes.remove(key);
        if (scope != null) {
            scope.closed().countDown();
        }
    }

    private Scope scopeFor(String url, List<Recording> unscoped) {
        if (!url.startsWith(SCOPES)) {
            return new Scope(null, unscoped, closed);
        }
        int end = url.indexOf('/', SCOPES.length());
        String key = url.substring(SCOPES.length(), end < 0 ? url.length() : end);
        // an unknown or closed scope serves nothing and is nobody's: its 404 names no recording
        return scopes.getOrDefault(key, new Scope(null, List.of(), closed));
    }

    /** Every unmatched request's explanation, in arrival order. */
    public List<String> mismatches() {
        return List.copyOf(mismatches);
    }

    /**
     * The explanations of the unmatched requests made under one scope's base URL, in arrival order, also after the
     * scope closed: what one of several cases running at once was told, without its siblings' requests.
     */
    public List<String> mismatches(String scope) {
        return List.copyOf(scopeMismatches.getOrDefault(scope, List.of()));
    }

    @Override
    public void close() {
        closed.countDown();
        scopes.values().forEach(scope -> scope.closed().countDown());
        fixedPorts.forEach(WireMockServer::stop);
        server.stop();
    }

    private Response respond(Scope scope, double speed, ServeEvent event) {
        List<Recording> recordings = scope.recordings();
        long arrived = SseFlushingServerFactory.arrival();
        FirstRequestProbe.arrived();
        String body = event.getRequest().getBodyAsString();
        RequestMatcher.Received received;
        try {
            received = RequestMatcher.Received.of(body, event.getRequest().getHeader(OpenAiCompatibleClient.ROLE_HEADER));
        } catch (RuntimeException e) {
            return error("the request body is not JSON: " + e.getMessage());
        }
        List<Candidate> candidates = new ArrayList<>();
        for (Recording recording : recordings) {
            candidates.add(new Candidate(recording, recording.request().mismatches(received)));
        }
        Candidate best = candidates.stream().min(Comparator.comparingInt(c -> c.reasons().size())).orElse(null);
        if (best == null || !best.reasons().isEmpty()) {
            String message = "no recording matches " + received + (best == null ? "; none are loaded"
                    : "; closest is '" + best.recording().id() + "': " + String.join("; ", best.reasons()));
            mismatches.add(message);
            if (scope.name() != null) {
                scopeMismatches.computeIfAbsent(scope.name(), name -> new CopyOnWriteArrayList<>()).add(message);
            }
            return error(message);
        }
        Recording recording = best.recording();
        String fault = recording.response().fault();
        if (Recording.RESET.equals(fault) && recording.response().events().isEmpty()) {
            return Response.response().fault(Fault.CONNECTION_RESET_BY_PEER).build();
        }
        int promptTokens = body.contains("\"messages\"") ? PromptTokens.count(body) : 0;
        List<String> frames = new ArrayList<>();
        List<Long> due = new ArrayList<>();
        for (Recording.TimedEvent timed : recording.response().events()) {
            frames.add("data: " + fill(timed.data(), promptTokens) + "\n\n");
            due.add(arrived + (long) (timed.offsetMs() * speed * 1_000_000L));
        }
        List<HttpHeader> headers = new ArrayList<>();
        recording.response().headers().forEach((name, value) -> headers.add(new HttpHeader(name, value)));
        Response.Builder builder = Response.Builder.like(Response.response().build()).but()
                .status(recording.response().status())
                .headers(new HttpHeaders(headers));
        if (recording.response().body() != null) {
            return builder.body(recording.response().body()).build();
        }
        return builder.body(timedBody(frames, due, fault, scope.closed())).build();
    }

    /**
     * A recorded payload as the replay sends it: {@link #PROMPT_TOKENS} becomes {@code promptTokens} and
     * {@link #TOTAL_TOKENS_PLUS}{@code N@"} becomes {@code promptTokens + N}.
     */
    public static String fill(String data, int promptTokens) {
        return replaceTotal(data.replace(PROMPT_TOKENS, Integer.toString(promptTokens)), promptTokens);
    }

    private static String replaceTotal(String data, int promptTokens) {
        int at = data.indexOf(TOTAL_TOKENS_PLUS);
        if (at < 0) {
            return data;
        }
        int end = data.indexOf("@\"", at + TOTAL_TOKENS_PLUS.length());
        int completion = Integer.parseInt(data.substring(at + TOTAL_TOKENS_PLUS.length(), end));
        return data.substring(0, at) + (promptTokens + completion) + data.substring(end + 2);
    }

    /** A body stream that hands out one SSE frame per read, each no earlier than its due time. */
    static InputStreamSource timedBody(List<String> frames, List<Long> due) {
        return timedBody(frames, due, null, new CountDownLatch(0));
    }

    /**
     * A timed body whose end is {@code fault}'s: the end of the body (null), an aborted connection
     * ({@link Recording#RESET}: the read fails, so the server breaks off the response it already started), or silence
     * until {@code released} ({@link Recording#STALL}), then the same abort.
     */
    static InputStreamSource timedBody(List<String> frames, List<Long> due, String fault, CountDownLatch released) {
        return () -> new InputStream() {
            private int next;
            private byte[] current = new byte[0];
            private int position;

            @Override
            public int read() throws IOException {
                byte[] one = new byte[1];
                return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
            }

            @Override
            public int read(byte[] buffer, int offset, int length) throws IOException {
                if (length == 0) {
                    // WireMock's request log calls readNBytes(0) on its own copy of the stream: that must not wait
                    return 0;
                }
                if (position >= current.length) {
                    if (next >= frames.size()) {
                        return end(fault, released);
                    }
                    waitUntil(due.get(next));
                    current = frames.get(next++).getBytes(StandardCharsets.UTF_8);
                    position = 0;
                }
                int n = Math.min(length, current.length - position);
                System.arraycopy(current, position, buffer, offset, n);
                position += n;
                return n;
            }
        };
    }

    private static int end(String fault, CountDownLatch released) throws IOException {
        if (Recording.STALL.equals(fault)) {
            try {
                // silent, connection open, until the scope or the server closes; bounded so no thread is kept forever
                released.await(MAX_STALL.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("replay interrupted during a stall");
            }
            throw new IOException("stalled response released (injected fault)");
        }
        if (Recording.RESET.equals(fault)) {
            throw new IOException("connection reset after the recorded events (injected fault)");
        }
        return -1;
    }

    /** Parks until the due time; the last millisecond spins so events leave close to their offsets. */
    private static void waitUntil(long dueNanos) throws InterruptedIOException {
        long remaining;
        while ((remaining = dueNanos - System.nanoTime()) > 1_000_000L) {
            LockSupport.parkNanos(remaining - 1_000_000L);
            if (Thread.interrupted()) {
                throw new InterruptedIOException("replay interrupted");
            }
        }
        while (System.nanoTime() < dueNanos) {
            Thread.onSpinWait();
        }
    }

    private static Response error(String message) {
        return Response.response().status(404)
                .headers(new HttpHeaders(new HttpHeader("Content-Type", "application/json")))
                .body(Json.write(Map.of("error", Map.of("message", message, "type", "agentlab_replay_unmatched"))))
                .build();
    }

    private record Candidate(Recording recording, List<String> reasons) {
    }

    /** Recordings a base URL answers, and the latch that ends their stalls. */
    private record Scope(String name, List<Recording> recordings, CountDownLatch closed) {
    }
}
