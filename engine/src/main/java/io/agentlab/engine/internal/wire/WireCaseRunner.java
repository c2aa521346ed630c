package io.agentlab.engine.internal.wire;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.agentlab.agui.AguiEvent;
import io.agentlab.agui.AguiProfile;
import io.agentlab.agui.AguiSseCodec;
import io.agentlab.agui.AguiStreamChecker;
import io.agentlab.engine.expect.FirstVisibleBeforeExpectation;
import io.agentlab.engine.internal.execution.HandlerLog;
import io.agentlab.engine.internal.execution.ProviderSource;
import io.agentlab.engine.internal.execution.RemoteRuntime;
import io.agentlab.engine.internal.execution.TurnRun;
import io.agentlab.engine.internal.suite.Suite;
import io.agentlab.kernel.api.EventDefinition;
import io.agentlab.kernel.api.EventPlugin;
import io.agentlab.kernel.api.InvocationMode;
import io.agentlab.kernel.api.JsonValues;
import io.agentlab.providers.recorded.TimedReplay;
import io.agentlab.runtime.TurnResult;
import io.agentlab.runtime.llm.CallRole;
import io.agentlab.runtime.llm.Json;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.function.IntFunction;
import okhttp3.Call;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;
import okio.BufferedSource;
import org.apiguardian.api.API;

/**
 * Drives a case's turns against a runtime over the wire (docs/wire.md), one turn at a time: each turn is a
 * {@code RunAgentInput} POST with the case's settings in {@code forwardedProps.agentlab}, its AG-UI stream read back
 * over SSE, its provider calls answered by the turn's replay scopes through one fixed base URL
 * ({@link #router()}), its port calls by the case's stand-ins. Each turn becomes the same {@link TurnRun} an in-process
 * turn does — a {@link TurnResult} reconstructed from outside ({@link StreamedTurn}) — so the expectations, parity and
 * metrics read it unchanged where they can.
 */
@API(status = INTERNAL, since = "0.1")
public final class WireCaseRunner implements RemoteRuntime {

    /** The connect timeout of every turn's POST (docs/wire.md#start-up). */
    public static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(2);
    /**
     * How long a stream that broke off waits for a started runtime's process to end, so the failure names its exit
     * code and the next case starts it again (docs/wire.md#bounds).
     */
    static final Duration EXIT_WAIT = Duration.ofSeconds(2);
    private static final MediaType JSON = MediaType.get("application/json");
    private static final AtomicInteger THREADS = new AtomicInteger();

    private final RuntimeProcess runtime;
    private final PortStandIns standIns;
    private final AguiProfile agui;
    private final OkHttpClient client;
    /** The turn the replay's fixed base URL serves now; null between turns (a call then gets 409). */
    private final AtomicReference<ActiveTurn> active = new AtomicReference<>();

    /**
     * A runner over the runtime and the stand-ins of the run; its turns' calls come from the caller.
     */
    public WireCaseRunner(RuntimeProcess runtime, PortStandIns standIns, AguiProfile agui) {
        this.runtime = runtime;
        this.standIns = standIns;
        this.agui = agui;
        this.client = new OkHttpClient.Builder().connectTimeout(CONNECT_TIMEOUT)
                .readTimeout(runtime.settings().turnTimeout()).build();
    }

    /** The turn now running and what its provider calls went to. */
    private record ActiveTurn(ProviderSource.TurnCalls calls, long started,
                              List<StreamedTurn.ProviderRequest> requests) {
    }

    /**
     * The router of the replay's fixed base URL (docs/wire.md#one-turn-at-a-time): a request goes to the scope the
     * current turn gives its role's next call; outside any turn it is refused.
     */
    public TimedReplay.Router router() {
        return (role, body) -> {
            ActiveTurn turn = active.get();
            if (turn == null) {
                return new TimedReplay.Routed.Refused("no turn is running: the kit serves one turn at a time "
                        + "(docs/wire.md#one-turn-at-a-time), and this request came outside any");
            }
            CallRole callRole;
            try {
                callRole = CallRole.valueOf(role.toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                return new TimedReplay.Routed.Refused("unknown call role '" + role + "'; expected chat, follow_up or "
                        + "event_agent");
            }
            turn.requests().add(new StreamedTurn.ProviderRequest(callRole, body,
                    Duration.ofNanos(System.nanoTime() - turn.started())));
            return new TimedReplay.Routed.To(turn.calls().scopeFor(callRole));
        };
    }

    /** Runs {@code testCase} of {@code suite} in {@code mode} over the wire. */
    @Override
    public List<TurnRun> run(Suite suite, Suite.Case testCase, InvocationMode mode, HandlerLog log,
                             Set<String> terminal, IntFunction<ProviderSource.TurnCalls> turnCalls,
                             BooleanSupplier stopped) {
        String threadId = suite.id() + "-" + testCase.id() + "-" + mode.wireName() + "-" + THREADS.incrementAndGet();
        List<TurnRun> runs = new ArrayList<>();
        Optional<String> down = runtime.ensureRunning();
        try (PortStandIns.CaseStandIns stand = standIns.open(suite, log)) {
            Map<String, Object> agentlab = settings(suite, mode, stand);
            List<Map<String, Object>> messages = new ArrayList<>();
            AguiStreamChecker.ThreadCheck audit = AguiStreamChecker.thread(agui);
            boolean ended = false;
            for (int index = 0; index < testCase.turns().size() && !ended && !stopped.getAsBoolean(); index++) {
                Suite.Turn turn = testCase.turns().get(index);
                List<String> harness = new ArrayList<>();
                if (down.isPresent()) {
                    harness.add(down.get());
                    runs.add(failedTurn(index, turn, mode, threadId, harness));
                    break; // the runtime is not there: one line, and the next case tries again
                }
                ProviderSource.TurnCalls calls = turnCalls.apply(index);
                log.resetMaxConcurrency();
                log.faults(turn.faults());
                Optional<String> retransmitOf = turn.retransmits().map(i -> runs.get(i).result().turnId());
                Map<String, Object> props = new LinkedHashMap<>(agentlab);
                props.put("retransmitOf", retransmitOf.orElse(null));
                messages.add(message("user", turn.user()));
                int callsBefore = log.calls().size();
                ActiveTurn current = new ActiveTurn(calls, System.nanoTime(), new CopyOnWriteArrayList<>());
                CompletableFuture<Void> firstVisible = new CompletableFuture<>();
                stand.holdUntilVisible(firstVisibleBefore(turn, mode), firstVisible);
                active.set(current);
                Streamed streamed;
                try {
                    streamed = stream(threadId, messages, props, turn, log, audit, harness, current.started(),
                            firstVisible);
                } finally {
                    active.set(null);
                    calls.close();
                }
                StreamedTurn.Marks marks = streamed.marks();
                StreamedTurn.Rebuilt rebuilt = StreamedTurn.of(mode, threadId + "-t" + (index + 1), retransmitOf,
                        terminal, streamed.events(), List.copyOf(current.requests()), marks);
                TurnResult result = rebuilt.result();
                harness.addAll(calls.finished(result));
                ended = result.decision().filter(d -> d.kind().equals("end_session")).isPresent();
                String visible = streamed.visible();
                if (!visible.isBlank()) {
                    messages.add(message("assistant", visible));
                }
                runs.add(new TurnRun(index, turn, result, visible, log.callsSince(callsBefore),
                        log.maxConcurrency(), ended, streamed.firstTick(), List.of(), 0,
                        portStates(stand.plugins(), harness), calls.mismatches(), harness, streamed.violations(),
                        calls.timing(), List.of(), Optional.of(streamed.unobserved().map(rebuilt.sight()::unobserved)
                        .orElse(rebuilt.sight()))));
                down = runtime.exitCode().map(code -> "the runtime exited with code " + code + " during the turn; see "
                        + runtime.settings().log());
                if (down.isPresent() || streamed.unobserved().isPresent()) {
                    // one clear failure for the case; the next case starts a runtime that died again
                    // (docs/wire.md#bounds)
                    break;
                }
            }
        }
        return runs;
    }

    /**
     * The events whose port answers wait for the turn's first visible text: those its {@code firstVisibleBefore} names
     * for every mode or for {@code mode} (docs/wire.md#first-visible).
     */
    private static Set<String> firstVisibleBefore(Suite.Turn turn, InvocationMode mode) {
        Set<String> events = new java.util.LinkedHashSet<>();
        turn.expect().find(FirstVisibleBeforeExpectation.class).ifPresent(e -> events.addAll(e.events()));
        Optional.ofNullable(turn.expectByMode().get(mode)).flatMap(e -> e.find(FirstVisibleBeforeExpectation.class))
                .ifPresent(e -> events.addAll(e.events()));
        return events;
    }

    /** A turn that never ran because the runtime is not there. */
    private TurnRun failedTurn(int index, Suite.Turn turn, InvocationMode mode, String threadId, List<String> harness) {
        StreamedTurn.Rebuilt rebuilt = StreamedTurn.of(mode, threadId + "-t" + (index + 1), Optional.empty(), Set.of(),
                List.of(), List.of(), new StreamedTurn.Marks(Optional.empty(), Optional.empty(), Optional.empty(),
                        Duration.ZERO));
        return new TurnRun(index, turn, rebuilt.result(), "", List.of(), 0, false, -1, List.of(), 0, Map.of(),
                List.of(), harness, List.of(), io.agentlab.report.metrics.TurnRecord.Timing.MODELLED, List.of(),
                Optional.of(rebuilt.sight().unobserved(String.join("; ", harness))));
    }

    /**
     * What one turn's stream gave.
     *
     * @param events     the AG-UI events, decoded
     * @param visible    everything the user saw, in order
     * @param firstTick  the handler log's tick at the first non-blank text delta ({@code -1}: none)
     * @param marks      the kit-clock marks
     * @param violations how the stream breaks the profile
     * @param unobserved why the turn could not be observed at all (no stream, or one malformed, hung or broken off)
     */
    private record Streamed(List<AguiEvent> events, String visible, long firstTick, StreamedTurn.Marks marks,
                            List<String> violations, Optional<String> unobserved) {
    }

    /** POSTs the run and reads its stream to the end; what goes wrong is one harness line. */
    private Streamed stream(String threadId, List<Map<String, Object>> messages, Map<String, Object> agentlab,
                            Suite.Turn turn, HandlerLog log, AguiStreamChecker.ThreadCheck audit, List<String> harness,
                            long started, CompletableFuture<Void> visibleArrived) {
        String runId = UUID.randomUUID().toString();
        Map<String, Object> input = new LinkedHashMap<>();
        input.put("threadId", threadId);
        input.put("runId", runId);
        input.put("messages", List.copyOf(messages));
        input.put("tools", List.of());
        input.put("context", List.of());
        input.put("state", Map.of());
        input.put("forwardedProps", Map.of("agentlab", agentlab));
        String url = runtime.baseUrl() + runtime.settings().aguiPath();
        Call call = client.newCall(new Request.Builder().url(url).header("Accept", "text/event-stream")
                .post(RequestBody.create(Json.write(input), JSON)).build());
        CompletableFuture<Void> interrupt = turn.interrupt().map(i -> log.whenStarted(i.whileRunning())
                .thenRunAsync(() -> interrupt(threadId, runId, call, harness))).orElse(null);
        List<AguiEvent> events = new ArrayList<>();
        StringBuilder visible = new StringBuilder();
        long firstTick = -1;
        Optional<Duration> firstVisible = Optional.empty();
        Optional<Duration> firstAnswerEnd = Optional.empty();
        Optional<Duration> secondVisible = Optional.empty();
        List<String> violations = new ArrayList<>();
        AguiStreamChecker.StreamCheck check = null;
        boolean ended = false;
        String step = "";
        String fault = null; // why the turn could not be observed, if it could not (docs/wire.md#bounds)
        try (Response response = call.execute()) {
            if (response.code() != 200) {
                String body = response.body().string().lines().findFirst().orElse("");
                fault = "the runtime answered HTTP " + response.code() + " at " + url + ": " + body;
                harness.add(fault);
            } else {
                BufferedSource body = response.body().source();
                StringBuilder frame = new StringBuilder();
                String line;
                while ((line = body.readUtf8Line()) != null) {
                    if (!line.isEmpty()) {
                        frame.append(line).append('\n');
                        continue;
                    }
                    if (frame.length() == 0) {
                        continue;
                    }
                    List<AguiSseCodec.Frame> frames = AguiSseCodec.decode(frame + "\n");
                    frame.setLength(0);
                    for (AguiSseCodec.Frame one : frames) {
                        List<AguiEvent> decoded;
                        try {
                            decoded = AguiSseCodec.events(List.of(one));
                        } catch (RuntimeException e) {
                            fault = "the runtime's stream is malformed: frame " + (events.size() + 1) + " is not "
                                    + "an AG-UI event (" + e.getMessage() + "): " + abbreviate(one.data());
                            harness.add(fault);
                            return streamed(events, visible, firstTick, firstVisible, firstAnswerEnd, secondVisible,
                                    started, violations, fault);
                        }
                        if (check == null) {
                            check = audit.stream(decoded.isEmpty() ? null
                                    : String.valueOf(decoded.get(0).fields().get("runId")));
                        }
                        check.frame(one);
                        for (AguiEvent event : decoded) {
                            events.add(event);
                            Duration now = Duration.ofNanos(System.nanoTime() - started);
                            switch (event.type()) {
                                case AguiEvent.STEP_STARTED -> step = String.valueOf(event.fields().get("stepName"));
                                case AguiEvent.STEP_FINISHED -> {
                                    if ("chat".equals(event.fields().get("stepName"))) {
                                        firstAnswerEnd = Optional.of(now);
                                    }
                                    step = "";
                                }
                                case AguiEvent.TEXT_MESSAGE_CONTENT -> {
                                    String delta = String.valueOf(event.fields().getOrDefault("delta", ""));
                                    if (firstTick < 0 && !delta.isBlank()) {
                                        // on the stand-ins' counter, so ordered with the port calls' answers
                                        firstTick = log.tick();
                                        firstVisible = Optional.of(now);
                                        visibleArrived.complete(null); // after the tick: held answers come later
                                    }
                                    if (step.equals("follow_up") && secondVisible.isEmpty() && !delta.isEmpty()) {
                                        secondVisible = Optional.of(now);
                                    }
                                    visible.append(delta);
                                }
                                case AguiEvent.RUN_FINISHED, AguiEvent.RUN_ERROR -> ended = true;
                                default -> {
                                }
                            }
                        }
                    }
                }
                if (!ended && !call.isCanceled()) {
                    fault = "the stream ended before RUN_FINISHED or RUN_ERROR"
                            + runtime.exitCode(EXIT_WAIT).map(code -> " (the runtime exited with code " + code
                            + "; see " + runtime.settings().log() + ")").orElse("");
                    harness.add(fault);
                } else if (!ended) {
                    harness.add("the stream ended before RUN_FINISHED or RUN_ERROR");
                }
            }
        } catch (ConnectException e) {
            fault = "runtime_unreachable: " + url + ": " + e.getMessage();
            harness.add(fault);
        } catch (InterruptedIOException e) {
            fault = "the stream hung: nothing received for " + describe(runtime.settings().turnTimeout())
                    + " (agentlab.runtime.turn-timeout) at " + url;
            harness.add(fault);
        } catch (IOException e) {
            if (!call.isCanceled()) {
                fault = "the stream broke off: " + (e.getMessage() == null ? e.getClass().getSimpleName()
                        : e.getMessage()) + runtime.exitCode(EXIT_WAIT).map(code ->
                        " (the runtime exited with code " + code + "; see " + runtime.settings().log() + ")")
                        .orElse("");
                harness.add(fault);
            }
        } finally {
            if (interrupt != null) {
                interrupt.cancel(false);
            }
        }
        if (check != null) {
            for (AguiStreamChecker.Violation violation : check.finish()) {
                violations.add("the AG-UI stream (" + audit.profile() + ") breaks " + violation);
            }
        }
        return streamed(events, visible, firstTick, firstVisible, firstAnswerEnd, secondVisible, started, violations,
                fault);
    }

    private static Streamed streamed(List<AguiEvent> events, StringBuilder visible, long firstTick,
                                     Optional<Duration> firstVisible, Optional<Duration> firstAnswerEnd,
                                     Optional<Duration> secondVisible, long started, List<String> violations,
                                     String fault) {
        return new Streamed(List.copyOf(events), visible.toString(), firstTick, new StreamedTurn.Marks(firstVisible,
                firstAnswerEnd, secondVisible, Duration.ofNanos(System.nanoTime() - started)), violations,
                Optional.ofNullable(fault));
    }

    /** {@code 30 s}, or {@code 500 ms} for a bound under a whole second. */
    static String describe(Duration bound) {
        return bound.toMillis() % 1000 == 0 ? bound.toSeconds() + " s" : bound.toMillis() + " ms";
    }

    /**
     * The user stops the turn once the declared event's port call has arrived (docs/wire.md#start-up): the interrupt
     * route, or, for a runtime without it, closing the stream.
     */
    private void interrupt(String threadId, String runId, Call stream, List<String> harness) {
        Request request = new Request.Builder().url(runtime.baseUrl() + "/agentlab/interrupt")
                .post(RequestBody.create(Json.write(Map.of("threadId", threadId, "runId", runId)), JSON)).build();
        try (Response response = client.newCall(request).execute()) {
            if (response.code() == 404) {
                stream.cancel();
                synchronized (harness) {
                    harness.add("the runtime has no /agentlab/interrupt route: the kit closed the stream instead");
                }
            }
        } catch (IOException e) {
            stream.cancel();
        }
    }

    /** The case's {@code forwardedProps.agentlab} (docs/wire.md#conventions), identical on every run of the thread. */
    private static Map<String, Object> settings(Suite suite, InvocationMode mode, PortStandIns.CaseStandIns stand) {
        Map<String, Object> agentlab = new LinkedHashMap<>();
        agentlab.put("contract", "agentlab-wire/1");
        agentlab.put("mode", mode.wireName());
        List<String> events = new ArrayList<>();
        for (EventPlugin plugin : stand.plugins()) {
            String name = plugin.definition().name();
            if (suite.kernel().events().isEmpty() || suite.kernel().events().contains(name)) {
                events.add(name);
            }
        }
        List<Map<String, Object>> probes = new ArrayList<>();
        for (Suite.Probe probe : suite.probes()) {
            events.add(probe.name());
            EventDefinition definition = stand.probes().get(probe.name());
            Map<String, Object> wire = new LinkedHashMap<>();
            wire.put("name", probe.name());
            wire.put("description", definition.description());
            wire.put("schema", Json.object(Json.tree(definition.argumentsSchema())));
            wire.put("policy", probe.policy().wireName());
            wire.put("terminal", probe.terminal());
            wire.put("readOnly", probe.readOnly());
            wire.put("timeoutMs", probe.timeout().toMillis());
            wire.put("conflictKeys", probe.conflictKeys());
            wire.put("requiredFields", probe.traits().requiredFields());
            wire.put("fallback", probe.traits().fallback());
            wire.put("failureVisible", probe.traits().failureVisible());
            wire.put("resolves", probe.traits().resolves());
            wire.put("confirmation", probe.traits().confirmation().orElse(null));
            probes.add(wire);
        }
        agentlab.put("events", events);
        agentlab.put("probes", probes);
        Map<String, Object> kernel = new LinkedHashMap<>();
        kernel.put("concurrency", suite.kernel().concurrency());
        kernel.put("batchDeadlineMs", suite.kernel().batchDeadline().toMillis());
        kernel.put("fallbackTimeoutMs", suite.kernel().fallbackTimeout().map(Duration::toMillis).orElse(null));
        agentlab.put("kernel", kernel);
        Map<String, Object> session = new LinkedHashMap<>();
        session.put("timezone", suite.session().timezone().getId());
        session.put("locale", suite.session().locale().toLanguageTag());
        session.put("clock", suite.session().clock().map(Object::toString).orElse(null));
        agentlab.put("session", session);
        agentlab.put("model", suite.provider().model());
        agentlab.put("persona", io.agentlab.engine.internal.execution.CaseRunner.PERSONA);
        return agentlab;
    }

    private static Map<String, Object> message(String role, String content) {
        return Map.of("id", UUID.randomUUID().toString(), "role", role, "content", content);
    }

    /** Each plugin's port state, read from the stand-ins' adapters. */
    private static Map<String, Map<String, Object>> portStates(List<EventPlugin> plugins, List<String> harness) {
        Map<String, Map<String, Object>> states = new LinkedHashMap<>();
        for (EventPlugin plugin : plugins) {
            plugin.portState().ifPresent(state -> states.put(plugin.definition().name(),
                    JsonValues.copyObject(state.snapshot())));
        }
        return states;
    }

    private static String abbreviate(String text) {
        String value = String.valueOf(text);
        return value.length() > 120 ? value.substring(0, 120) + "..." : value;
    }
}
