package io.agentlab.engine.internal.execution;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.agentlab.report.metrics.TurnRecord;
import io.agentlab.engine.internal.suite.ProviderFault;
import io.agentlab.engine.internal.suite.RecordingLibrary;
import io.agentlab.engine.internal.suite.Suite;
import io.agentlab.engine.internal.yaml.RoleNames;
import io.agentlab.kernel.api.EventDefinition;
import io.agentlab.kernel.api.EventPlugin;
import io.agentlab.kernel.api.InvocationMode;
import io.agentlab.kernel.api.JsonValues;
import io.agentlab.kernel.api.KernelLimits;
import io.agentlab.runtime.Conversation;
import io.agentlab.runtime.protocol.RuntimeConfig;
import io.agentlab.runtime.StoredMessage;
import io.agentlab.runtime.TurnHandle;
import io.agentlab.runtime.TurnResult;
import io.agentlab.runtime.TurnRuntime;
import io.agentlab.runtime.VisibleSink;
import io.agentlab.agui.AguiProfile;
import io.agentlab.agui.AguiSseCodec;
import io.agentlab.agui.AguiStreamChecker;
import io.agentlab.runtime.llm.CallRole;
import io.agentlab.runtime.llm.ChatProvider;
import io.agentlab.provider.openai.OpenAiCompatibleClient;
import io.agentlab.runtime.llm.ProviderRegistry;
import io.agentlab.runtime.usage.PricingCatalog;
import io.agentlab.providers.recorded.InjectedFault;
import io.agentlab.tokens.PromptTokens;
import io.agentlab.providers.recorded.ProviderFamily;
import io.agentlab.providers.recorded.Recording;
import io.agentlab.providers.recorded.StreamSynthesizer;
import io.agentlab.providers.recorded.StreamSynthesizer.Script;
import io.agentlab.providers.recorded.StreamSynthesizer.ScriptedEvent;
import io.agentlab.providers.recorded.TimedReplay;
import java.time.Clock;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import org.apiguardian.api.API;

/**
 * Runs one case in one mode: a fresh kernel and plugins from the factory (plus the suite's probes, every handler
 * recorded), a turn runtime whose provider is the shared replay server, each turn answered by its recordings or by
 * streams synthesized from its script — with the faults it declares injected into the calls it names — and run
 * afresh or, for a retransmission, under an earlier turn's id. After each turn, once the kernel is quiescent, it
 * reads the handler log, the conversation's history and the plugins' port states.
 */
@API(status = INTERNAL, since = "0.1")
public final class CaseRunner {

    /** ChatAgent's persona in every suite run: identical in both modes, as the fair comparison requires. */
    public static final String PERSONA = "You are Pip, a friendly voice toy. Answer briefly.";
    private static final String PROVIDER_KEY = "conformance";
    private static final AtomicLong SCOPES = new AtomicLong();
    /**
     * How long after a turn the engine waits for the kernel's quiescence before reading the handler log
     * (docs/limits-and-safety.md). It passes at once unless a handler ignores interruption.
     */
    public static final Duration QUIESCENCE_BOUND = Duration.ofSeconds(30);
    /** The client's idle timeout for every replayed call. */
    static final Duration IDLE_TIMEOUT = Duration.ofSeconds(30);
    /**
     * The client's idle timeout for a call the suite stalls: nothing will ever arrive, so the bound decides only how
     * long the case takes, never its verdict; every other call keeps {@link #IDLE_TIMEOUT}, so a busy machine never
     * trips them.
     */
    public static final Duration STALLED_CALL_IDLE_TIMEOUT = Duration.ofSeconds(1);
    /**
     * A stalled EventAgent call under a suite-set fallback timeout is held open this many times that timeout (see
     * {@link #stalledCallBound}): half a timeout of margin either side of the kernel's bound and of twice it.
     */
    public static final double STALLED_FALLBACK_BOUND_FACTOR = 1.5;

    /**
     * What every run shares.
     *
     * @param factory    plugins and kernel under test
     * @param replay     the replay server (unused when {@code live} is set)
     * @param recordings where recording ids resolve
     * @param seed       the seed of chunk boundaries
     * @param cancelled  whether the engine was asked to stop
     * @param live       a live provider every call goes to instead of the replay
     * @param pricing    prices for cost estimates
     * @param agui       the AG-UI profile of the audit streams
     * @param liveCalls  what a live run puts around every call (models, sampling, concurrency, retries, spending)
     * @param recorded   a live run's recordings answering every turn in recorded order, instead of the suite's
     */
    public record Environment(KernelSource factory, TimedReplay replay, RecordingLibrary recordings,
                              long seed, BooleanSupplier cancelled, Optional<OpenAiCompatibleClient.Config> live,
                              PricingCatalog pricing, AguiProfile agui, LiveCalls liveCalls,
                              Optional<RecordedEvaluation> recorded) {
        /** Rejects nulls; a replay is required unless the run is live. */
        public Environment {
            Objects.requireNonNull(factory, "factory");
            Objects.requireNonNull(recordings, "recordings");
            Objects.requireNonNull(cancelled, "cancelled");
            Objects.requireNonNull(live, "live");
            Objects.requireNonNull(pricing, "pricing");
            Objects.requireNonNull(agui, "agui");
            Objects.requireNonNull(liveCalls, "liveCalls");
            Objects.requireNonNull(recorded, "recorded");
            if (live.isEmpty()) {
                Objects.requireNonNull(replay, "replay");
            }
        }

        /** An environment whose audit streams are AG-UI 1.0. */
        public Environment(KernelSource factory, TimedReplay replay, RecordingLibrary recordings, long seed,
                           BooleanSupplier cancelled, Optional<OpenAiCompatibleClient.Config> live,
                           PricingCatalog pricing) {
            this(factory, replay, recordings, seed, cancelled, live, pricing, AguiProfile.AGUI_1_0);
        }

        /** An environment with the default live settings. */
        public Environment(KernelSource factory, TimedReplay replay, RecordingLibrary recordings, long seed,
                           BooleanSupplier cancelled, Optional<OpenAiCompatibleClient.Config> live,
                           PricingCatalog pricing, AguiProfile agui) {
            this(factory, replay, recordings, seed, cancelled, live, pricing, agui,
                    new LiveCalls(LiveCalls.Settings.defaults()), Optional.empty());
        }
    }

    private final Environment environment;

    /** A runner over {@code environment}. */
    public CaseRunner(Environment environment) {
        this.environment = environment;
    }

    /** Why the run stopped early on its own (a spending cap), once it has. */
    public Optional<String> stopped() {
        return environment.live().isPresent() ? environment.liveCalls().stopped() : Optional.empty();
    }

    /** Runs {@code testCase} of {@code suite} in {@code mode}. */
    public CaseRun run(Suite suite, Suite.Case testCase, InvocationMode mode) {
        HandlerLog log = new HandlerLog();
        ProbeEvents probes = new ProbeEvents();
        AtomicReference<ChatProvider> provider = new AtomicReference<>();
        AtomicReference<ObservedKernel> kernel = new AtomicReference<>();
        ProviderRegistry registry = new ProviderRegistry().register(PROVIDER_KEY,
                (request, listener) -> provider.get().stream(request, listener));
        Clock clock = suite.session().clock().map(instant -> Clock.fixed(instant, suite.session().timezone()))
                .orElseGet(Clock::systemUTC);
        List<EventPlugin> plugins = enabledPlugins(suite);
        List<TurnRun> turns = new ArrayList<>();
        boolean cancelled = false;
        List<EventDefinition> definitions = definitions(suite, plugins, log, probes);
        Set<String> terminal = new LinkedHashSet<>();
        definitions.stream().filter(EventDefinition::terminal).forEach(definition -> terminal.add(definition.name()));
        boolean live = environment.live().isPresent();
        RuntimeConfig config = RuntimeConfig.of(mode, PROVIDER_KEY, suite.provider().model(), PERSONA);
        TurnRuntime.Builder builder = TurnRuntime.builder()
                .definitions(definitions.toArray(EventDefinition[]::new))
                .providers(registry)
                .config(live ? environment.liveCalls().configure(config) : config)
                .limits(new KernelLimits(suite.kernel().concurrency(), suite.kernel().batchDeadline()))
                .clock(clock)
                // a suite's own catalog wins over a replay's: its cost expectations are written against it
                // (usage-catalog-fallback); a live run spends real money, so the configured catalog stays, for the cap
                .pricing(live ? environment.pricing() : suite.provider().pricing().orElse(environment.pricing()))
                .kernelFactory(ObservedKernel.wrap(environment.factory().kernels(), kernel::set))
                .aguiProfile(environment.agui());
        suite.kernel().fallbackTimeout().ifPresent(builder::fallbackTimeout); // docs/design.md#kernel-fallback-bounded
        try (TurnRuntime runtime = builder.build()) {
            // every turn's stream joins the case's thread, whatever the turn expects, so ids are checked across turns
            AguiStreamChecker.ThreadCheck audit = AguiStreamChecker.thread(environment.agui());
            Conversation conversation = new Conversation(suite.id() + "-" + testCase.id() + "-" + mode.wireName(),
                    suite.session().timezone(), suite.session().locale());
            for (int index = 0; index < testCase.turns().size(); index++) {
                if (environment.cancelled().getAsBoolean() || stopped().isPresent()) {
                    cancelled = true;
                    break;
                }
                if (conversation.ended()) {
                    break; // a model that ended the session early: the later turns cannot run (CaseRun says how many)
                }
                Suite.Turn turn = testCase.turns().get(index);
                List<String> scopes = new ArrayList<>();
                Map<String, ProviderFault> unusedFaults = new ConcurrentHashMap<>();
                TurnRecord.Timing timing = TurnRecord.Timing.LIVE;
                if (environment.live().isPresent()) {
                    provider.set(environment.liveCalls().wrap(new OpenAiCompatibleClient(environment.live().get())));
                } else {
                    provider.set(replayed(suite, testCase, turn, index, mode, runtime, conversation, scopes,
                            unusedFaults));
                    // the recordings a scripted turn gets are synthesized by the latency model; a recording's own
                    // offsets are measured only when its metadata says "recorded" (an import without timing states
                    // the model it used, docs/recording.md#format)
                    timing = environment.recorded().isEmpty() && turn.recordings().isEmpty() || turn.recordings().stream()
                            .flatMap(id -> environment.recordings().find(id).stream())
                            .anyMatch(recording -> !"recorded".equals(recording.metadata().timing()))
                            ? TurnRecord.Timing.MODELLED : TurnRecord.Timing.RECORDED;
                }
                int callsBefore = log.calls().size();
                log.resetMaxConcurrency();
                log.faults(turn.faults());
                StringBuilder visible = new StringBuilder();
                AtomicLong firstVisible = new AtomicLong(-1);
                VisibleSink sink = (messageId, text) -> {
                    synchronized (visible) {
                        if (firstVisible.get() < 0 && !text.isBlank()) {
                            // on the handlers' counter, so ordered with their starts and returns; white space alone
                            // (the line break before a hidden block) shows the user nothing
                            firstVisible.set(log.tick());
                        }
                        visible.append(text);
                    }
                };
                List<String> harness = new ArrayList<>();
                int historyBefore = conversation.historyView().size();
                List<StoredMessage> storedBefore = conversation.messages();
                TurnResult result;
                try {
                    result = turn.interrupt().isPresent()
                            ? interrupted(runtime, conversation, turn, sink, log, live ? new ArrayList<>() : harness)
                            : turn.retransmits().isPresent()
                            ? runtime.retransmit(conversation, turns.get(turn.retransmits().get()).result().turnId(),
                            turn.user(), sink)
                            : runtime.runTurn(conversation, turn.user(), sink);
                } finally {
                    scopes.forEach(scope -> environment.replay().closeScope(scope)); // none when live
                }
                if (live) {
                    environment.liveCalls().spent(suite.id() + "/" + testCase.id() + " turn " + (index + 1) + " ("
                            + mode.wireName() + ")", result.metrics().cost());
                }
                // a fault the turn never reached would let the case pass without testing what it declares
                unusedFaults.values().forEach(fault -> harness.add("the provider fault declared at " + fault.at()
                        + " was never injected: the turn made no " + fault.describeCall()));
                try {
                    kernel.get().awaitQuiescence(QUIESCENCE_BOUND).ifPresent(harness::add);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    cancelled = true;
                }
                Map<String, Map<String, Object>> states = portStates(plugins, harness);
                // this turn's own scopes only: cases running at once share the replay server (none when live)
                List<String> mismatches = scopes.stream()
                        .flatMap(scope -> environment.replay().mismatches(scope).stream()).toList();
                String text;
                synchronized (visible) {
                    text = visible.toString();
                }
                turns.add(new TurnRun(index, turn, result, text, log.callsSince(callsBefore), log.maxConcurrency(),
                        conversation.ended(), firstVisible.get(), conversation.historyView(), historyBefore, states,
                        mismatches, harness,
                        auditViolations(result, audit), timing,
                        historyProblems(storedBefore, conversation.messages(), result, turn.user())));
                if (cancelled) {
                    break;
                }
            }
        } finally {
            probes.release();
        }
        return new CaseRun(suite, testCase, mode, turns, cancelled, terminal);
    }

    /**
     * Runs a turn the user interrupts (docs/design.md#audit-run-canceled): started on the runtime's thread, interrupted
     * as soon as a handler of the declared event has started — an order of events, not a delay — and awaited. A turn
     * that ends before that handler starts was never interrupted, which the case reports — when the reply is scripted:
     * a live model that proposes no such event leaves the interruption out, as it leaves a label unmet.
     */
    private static TurnResult interrupted(TurnRuntime runtime, Conversation conversation, Suite.Turn turn,
                                          VisibleSink sink, HandlerLog log, List<String> harness) {
        Suite.Interruption interrupt = turn.interrupt().orElseThrow();
        CompletableFuture<Void> running = log.whenStarted(interrupt.whileRunning());
        TurnHandle handle = runtime.start(conversation, turn.user(), sink);
        try {
            CompletableFuture.anyOf(running, handle.result()).join();
            if (running.isDone()) {
                handle.interrupt();
            } else {
                harness.add("the interruption declared at " + interrupt.at() + " never happened: the turn ended "
                        + "before a handler of " + interrupt.whileRunning() + " started");
            }
            return handle.result().join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException cause) {
                throw cause;
            }
            if (e.getCause() instanceof Error cause) {
                throw cause;
            }
            throw e;
        }
    }

    /** How the history broke during a turn, if it did ({@code docs/design.md#modes-same-history}). */
    private static List<String> historyProblems(List<StoredMessage> before, List<StoredMessage> after,
                                                TurnResult result, String user) {
        if (after.size() < before.size() || !after.subList(0, before.size()).equals(before)) {
            return List.of("the history changed: a message stored before the turn was altered or removed");
        }
        boolean firstCallFailed = result.batch().isEmpty() && result.firstAnswer().isBlank()
                && result.error().filter(code -> code.startsWith("provider_")).isPresent();
        if (firstCallFailed && after.size() != before.size()) {
            return List.of("the first model call failed, yet the turn stored " + (after.size() - before.size())
                    + " message(s)");
        }
        if (after.size() > before.size() && !user.equals(after.get(before.size()).message().content())) {
            return List.of("the turn's first stored message is not the user's");
        }
        return List.of();
    }

    /** The factory's plugins (fresh ones) whose events the suite enables. */
    private List<EventPlugin> enabledPlugins(Suite suite) {
        Set<String> enabled = new LinkedHashSet<>(suite.kernel().events());
        List<EventPlugin> plugins = new ArrayList<>();
        for (EventPlugin plugin : environment.factory().plugins()) {
            if (enabled.isEmpty() || enabled.contains(plugin.definition().name())) {
                plugins.add(plugin);
            }
        }
        return plugins;
    }

    private static List<EventDefinition> definitions(Suite suite, List<EventPlugin> plugins, HandlerLog log,
                                                     ProbeEvents probes) {
        List<EventDefinition> definitions = new ArrayList<>();
        for (EventPlugin plugin : plugins) {
            definitions.add(log.wrap(plugin.definition()));
        }
        for (Suite.Probe probe : suite.probes()) {
            definitions.add(log.wrap(probes.definition(probe)));
        }
        return definitions;
    }

    /** How the turn's AG-UI stream, encoded and decoded as SSE frames as a client receives it, breaks the profile. */
    private static List<String> auditViolations(TurnResult result, AguiStreamChecker.ThreadCheck audit) {
        List<String> violations = new ArrayList<>();
        List<AguiSseCodec.Frame> frames = AguiSseCodec.decode(AguiSseCodec.encode(result.audit(), 1));
        // the run the turn produced: a retransmission is a new run of the same turn (docs/design.md#audit-events)
        AguiStreamChecker.StreamCheck stream = audit.stream(result.runId());
        frames.forEach(stream::frame);
        for (AguiStreamChecker.Violation violation : stream.finish()) {
            violations.add("the AG-UI stream (" + audit.profile() + ") breaks " + violation);
        }
        if (!AguiSseCodec.events(frames).equals(result.audit())) {
            violations.add("the AG-UI stream does not survive SSE encoding unchanged");
        }
        return violations;
    }

    /** Each plugin's port state, read when no handler runs; a port that cannot be read is a harness problem. */
    private static Map<String, Map<String, Object>> portStates(List<EventPlugin> plugins, List<String> harness) {
        Map<String, Map<String, Object>> states = new LinkedHashMap<>();
        for (EventPlugin plugin : plugins) {
            String name = plugin.definition().name();
            try {
                plugin.portState().ifPresent(state -> states.put(name, JsonValues.copyObject(state.snapshot())));
            } catch (RuntimeException e) {
                harness.add("the port state of " + name + " could not be read: " + e);
            }
        }
        return states;
    }

    /**
     * The turn's provider over the replay: its recordings (or streams synthesized from its script) in one scope, and
     * each call with a declared fault routed to a scope of its own that serves the faulted stream.
     */
    private ChatProvider replayed(Suite suite, Suite.Case testCase, Suite.Turn turn, int index, InvocationMode mode,
                                  TurnRuntime runtime, Conversation conversation, List<String> scopes,
                                  Map<String, ProviderFault> unusedFaults) {
        Scripts scripts = scripts(suite, testCase, index, mode, runtime, conversation);
        String scope = "s" + SCOPES.incrementAndGet();
        scopes.add(scope);
        OpenAiCompatibleClient normal = client(environment.replay().scope(scope, recordings(turn, mode, scripts)),
                IDLE_TIMEOUT);
        Map<String, OpenAiCompatibleClient> faulted = new HashMap<>();
        for (ProviderFault fault : turn.providerFaults()) {
            if (fault.fault() instanceof InjectedFault.InvalidToolArguments && mode == InvocationMode.DUAL_AGENT) {
                continue; // a dual_agent model sends no arguments to break
            }
            String faultScope = "s" + SCOPES.incrementAndGet();
            scopes.add(faultScope);
            Recording recording = fault.fault().response(scripts.synthesize(fault.fault().script(scripts.of(fault.call()))));
            Duration idle = fault.fault() instanceof InjectedFault.AfterEvents after
                    && after.ending() == InjectedFault.Ending.STALL ? stalledCallBound(suite, fault) : IDLE_TIMEOUT;
            faulted.put(fault.describeCall(), client(environment.replay().scope(faultScope, List.of(recording)), idle));
            unusedFaults.put(fault.describeCall(), fault);
        }
        Map<CallRole, AtomicInteger> counts = new EnumMap<>(CallRole.class);
        for (CallRole role : CallRole.values()) {
            counts.put(role, new AtomicInteger());
        }
        return (request, listener) -> {
            int n = counts.get(request.role()).incrementAndGet();
            String call = RoleNames.roleName(request.role()) + " call " + n;
            unusedFaults.remove(call);
            return faulted.getOrDefault(call, normal).stream(request, listener);
        };
    }

    /**
     * How long the client holds a stalled call open: {@link #STALLED_CALL_IDLE_TIMEOUT}, except for an EventAgent call
     * in a suite that sets its fallback timeout, which is held {@link #STALLED_FALLBACK_BOUND_FACTOR} times that
     * timeout, so the kernel's bound ends the call first (recorded as {@code provider_cancelled}) and a bound that
     * fires late lets the client's end it instead ({@code provider_deadline}) — a verdict without a wall-time
     * threshold ({@code docs/design.md#kernel-fallback-bounded}).
     */
    static Duration stalledCallBound(Suite suite, ProviderFault fault) {
        return fault.call() == CallRole.EVENT_AGENT ? suite.kernel().fallbackTimeout()
                .map(timeout -> Duration.ofNanos((long) (timeout.toNanos() * STALLED_FALLBACK_BOUND_FACTOR)))
                .orElse(STALLED_CALL_IDLE_TIMEOUT) : STALLED_CALL_IDLE_TIMEOUT;
    }

    private static OpenAiCompatibleClient client(String baseUrl, Duration idle) {
        return new OpenAiCompatibleClient(new OpenAiCompatibleClient.Config(baseUrl, null, Duration.ofSeconds(5), idle));
    }

    /**
     * What the scripted model says in each call of a turn, and how to turn a script into a stream.
     *
     * @param turn         the turn
     * @param chat         the chat call's script
     * @param followUp     the follow-up call's script (empty text when the turn scripts none)
     * @param eventAgent   the EventAgent call's script (empty text when the turn scripts none)
     * @param synthesizer  makes the streams
     * @param seed         their chunking seed
     * @param promptTokens the first request's prompt tokens (for the latency model)
     */
    private record Scripts(Suite.Turn turn, Script chat, Script followUp, Script eventAgent,
                           StreamSynthesizer synthesizer, long seed, int promptTokens) {

        static Scripts of(Suite suite, Suite.Case testCase, int index, InvocationMode mode, long runSeed,
                          int promptTokens, ProviderFamily family) {
            Suite.Turn turn = testCase.turns().get(index);
            StreamSynthesizer synthesizer = new StreamSynthesizer(suite.provider().latency(), LocalDate.of(2026, 1, 1));
            // the mode's wire name, not the enum: an enum's hash differs between JVMs, and a seed must reproduce a run
            long seed = runSeed ^ Objects.hash(suite.id(), testCase.id(), index, mode.wireName());
            String id = suite.id() + "." + testCase.id() + ".t" + index + "." + mode.wireName();
            String model = suite.provider().model();
            Suite.Reply reply = turn.replies().get(mode);
            Script chat = new Script(id + ".chat", mode, CallRole.CHAT, turn.user(), reply == null ? "" : reply.visible(),
                    reply == null ? List.of() : reply.events().stream().map(event -> new ScriptedEvent(event.name(),
                            // a made-up name has no alias: the model sends it as it is
                            event.argumentsJson(), event.unknown() ? event.name() : event.name().replace('.', '_'),
                            event.callId())).toList(), family, model);
            Script followUp = new Script(id + ".follow_up", mode, CallRole.FOLLOW_UP, turn.user(),
                    turn.followUp().orElse(""), List.of(), family, model);
            // The EventAgent's request never carries tools, so its recording answers the dual_agent request shape.
            Script eventAgent = new Script(id + ".event_agent", InvocationMode.DUAL_AGENT, CallRole.EVENT_AGENT,
                    turn.user(), turn.eventAgent().orElse(""), List.of(), family, model);
            return new Scripts(turn, chat, followUp, eventAgent, synthesizer, seed, promptTokens);
        }

        Script of(CallRole role) {
            return switch (role) {
                case CHAT -> chat;
                case FOLLOW_UP -> followUp;
                case EVENT_AGENT -> eventAgent;
            };
        }

        /** The chat call's stream, then the follow-up's and the EventAgent's when the turn scripts them. */
        List<Recording> synthesized() {
            List<Recording> recordings = new ArrayList<>();
            recordings.add(synthesize(chat));
            turn.followUp().ifPresent(text -> recordings.add(synthesize(followUp)));
            turn.eventAgent().ifPresent(json -> recordings.add(synthesize(eventAgent)));
            return recordings;
        }

        Recording synthesize(Script script) {
            // each call its own chunking: seed, seed + 1 and seed + 2 for the chat, follow-up and EventAgent calls
            int offset = switch (script.role()) {
                case CHAT -> 0;
                case FOLLOW_UP -> 1;
                case EVENT_AGENT -> 2;
            };
            return synthesizer.synthesize(script, seed + offset,
                    script.role() == CallRole.EVENT_AGENT ? promptTokens / 2 : promptTokens);
        }
    }

    private Scripts scripts(Suite suite, Suite.Case testCase, int index, InvocationMode mode, TurnRuntime runtime,
                            Conversation conversation) {
        Suite.Turn turn = testCase.turns().get(index);
        int promptTokens = PromptTokens.count(runtime.firstRequest(conversation, turn.user()));
        return Scripts.of(suite, testCase, index, mode, environment.seed(), promptTokens, suite.provider().family());
    }

    /** The turn's recordings, or the streams synthesized from its script. */
    private List<Recording> recordings(Suite.Turn turn, InvocationMode mode, Scripts scripts) {
        if (environment.recorded().isPresent()) {
            return environment.recorded().get().next(mode, turn.user()); // a live run's recordings, in recorded order
        }
        if (turn.recordings().isEmpty()) {
            return scripts.synthesized();
        }
        List<Recording> recordings = new ArrayList<>();
        for (String id : turn.recordings()) {
            environment.recordings().find(id).ifPresent(recordings::add); // discovery checked every id
        }
        return recordings;
    }

    /**
     * The streams a scripted turn's calls are answered with: the chat call, then the follow-up and the EventAgent call
     * when the turn scripts them, synthesized in {@code family}'s shape (a run uses the suite's family; the provider
     * stream export writes every family). The payloads depend only on the run seed, the suite, case, turn, mode and
     * family. Injected faults are not applied here: they replace the streams of the calls they name.
     *
     * @param index        the turn's index in the case
     * @param runSeed      the run's seed of chunk boundaries
     * @param promptTokens the chat request's prompt tokens (they set the modelled timing, not the payloads)
     * @param family       the provider family whose stream shape is written
     */
    public static List<Recording> synthesizedTurn(Suite suite, Suite.Case testCase, int index, InvocationMode mode,
                                                  long runSeed, int promptTokens, ProviderFamily family) {
        return Scripts.of(suite, testCase, index, mode, runSeed, promptTokens, family).synthesized();
    }
}
