package io.agentlab.engine.internal.execution;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.agentlab.report.metrics.TurnRecord;
import io.agentlab.engine.internal.suite.ProviderFault;
import io.agentlab.engine.internal.suite.Suite;
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
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import org.apiguardian.api.API;
import io.agentlab.runtime.protocol.VisibleText;

/**
 * Runs one case in one mode: a fresh kernel and plugins from the factory (plus the suite's probes, every handler
 * recorded) and a turn runtime whose calls go where the run's {@link ProviderSource} sends them (the shared replay
 * server, a live provider, or a live run's recordings; docs/engine.md#provider-sources); each turn is run afresh or,
 * for a retransmission, under an earlier turn's id. After each turn, once the kernel is quiescent, it reads the handler
 * log, the conversation's history and the plugins' port states.
 */
@API(status = INTERNAL, since = "0.1")
public final class CaseRunner {

    /** ChatAgent's persona in every suite run: identical in both modes, as the fair comparison requires. */
    public static final String PERSONA = "You are Pip, a friendly voice toy. Answer briefly.";
    private static final String PROVIDER_KEY = "conformance";
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
     * What every run shares, whatever its calls go to.
     *
     * @param factory   plugins and kernel under test
     * @param source    where the turns' model calls go (replay, live or a live run's recordings), chosen once per run
     * @param cancelled whether the engine was asked to stop
     * @param pricing   prices for cost estimates (a replayed suite's own catalog wins, see {@link ProviderSource})
     * @param agui      the AG-UI profile of the audit streams
     */
    public record Environment(KernelSource factory, ProviderSource source, BooleanSupplier cancelled,
                              PricingCatalog pricing, AguiProfile agui, Optional<RemoteRuntime> wire) {
        /** Rejects nulls. */
        public Environment {
            Objects.requireNonNull(factory, "factory");
            Objects.requireNonNull(source, "source");
            Objects.requireNonNull(cancelled, "cancelled");
            Objects.requireNonNull(pricing, "pricing");
            Objects.requireNonNull(agui, "agui");
            Objects.requireNonNull(wire, "wire");
        }

        /** An environment whose subject is the in-process kernel. */
        public Environment(KernelSource factory, ProviderSource source, BooleanSupplier cancelled,
                           PricingCatalog pricing, AguiProfile agui) {
            this(factory, source, cancelled, pricing, agui, Optional.empty());
        }

        /** An environment whose audit streams are AG-UI 1.0. */
        public Environment(KernelSource factory, ProviderSource source, BooleanSupplier cancelled,
                           PricingCatalog pricing) {
            this(factory, source, cancelled, pricing, AguiProfile.AGUI_1_0);
        }
    }

    private final Environment environment;

    /** A runner over {@code environment}. */
    public CaseRunner(Environment environment) {
        this.environment = environment;
    }

    /** Why the run stopped early on its own (a spending cap), once it has. */
    public Optional<String> stopped() {
        return environment.source().stopped();
    }

    /** Runs {@code testCase} of {@code suite} in {@code mode}: its turns in order, each read once it is over. */
    public CaseRun run(Suite suite, Suite.Case testCase, InvocationMode mode) {
        if (environment.wire().isPresent()) {
            return overTheWire(environment.wire().get(), suite, testCase, mode);
        }
        HandlerLog log = new HandlerLog();
        ProbeEvents probes = new ProbeEvents();
        List<EventPlugin> plugins = enabledPlugins(suite);
        List<EventDefinition> definitions = definitions(suite, plugins, log, probes);
        Set<String> terminal = new LinkedHashSet<>();
        definitions.stream().filter(EventDefinition::terminal).forEach(definition -> terminal.add(definition.name()));
        CaseState state = new CaseState(log, plugins, new AtomicReference<>(), new AtomicReference<>(),
                new ArrayList<>(), AguiStreamChecker.thread(environment.agui())); // ids are checked across turns
        boolean cancelled = false;
        try (TurnRuntime runtime = runtime(suite, mode, definitions, state)) {
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
                boolean interrupted = playTurn(new ProviderSource.TurnContext(suite, testCase, index, mode, runtime,
                        conversation), state);
                if (interrupted) {
                    cancelled = true;
                    break;
                }
            }
        } finally {
            probes.release();
        }
        return new CaseRun(suite, testCase, mode, state.turns(), cancelled, terminal);
    }

    /**
     * Runs the case against a runtime over the wire (docs/wire.md): the same definitions as in-process tell which events
     * are terminal, and a runtime built from them, never run, gives each turn's prompt (it shapes only the modelled
     * timing of its scripted replies; later turns read the first turn's history, the remote one is the runtime's).
     */
    private CaseRun overTheWire(RemoteRuntime wire, Suite suite, Suite.Case testCase, InvocationMode mode) {
        HandlerLog log = new HandlerLog();
        ProbeEvents probes = new ProbeEvents();
        List<EventDefinition> definitions = definitions(suite, enabledPlugins(suite), log, probes);
        Set<String> terminal = new LinkedHashSet<>();
        definitions.stream().filter(EventDefinition::terminal).forEach(definition -> terminal.add(definition.name()));
        CaseState state = new CaseState(log, List.of(), new AtomicReference<>(), new AtomicReference<>(),
                new ArrayList<>(), AguiStreamChecker.thread(environment.agui()));
        try (TurnRuntime prompts = runtime(suite, mode, definitions, state)) {
            Conversation conversation = new Conversation(suite.id() + "-" + testCase.id() + "-" + mode.wireName(),
                    suite.session().timezone(), suite.session().locale());
            List<TurnRun> turns = wire.run(suite, testCase, mode, log, terminal,
                    index -> environment.source().turn(new ProviderSource.TurnContext(suite, testCase, index, mode,
                            prompts, conversation)),
                    () -> environment.cancelled().getAsBoolean() || stopped().isPresent());
            boolean cancelled = turns.size() < testCase.turns().size()
                    && (environment.cancelled().getAsBoolean() || stopped().isPresent());
            return new CaseRun(suite, testCase, mode, turns, cancelled, terminal);
        } finally {
            probes.release();
        }
    }

    /**
     * What one run of a case holds across its turns.
     *
     * @param log      every handler call
     * @param plugins  the plugins whose port states are read
     * @param provider the current turn's provider, which the runtime's registry calls
     * @param kernel   the kernel the runtime made
     * @param turns    the turns run so far
     * @param audit    the case's AG-UI thread, every turn's stream joining it
     */
    private record CaseState(HandlerLog log, List<EventPlugin> plugins, AtomicReference<ChatProvider> provider,
                             AtomicReference<ObservedKernel> kernel, List<TurnRun> turns,
                             AguiStreamChecker.ThreadCheck audit) {
    }

    /** The case's runtime: its events, the source's configuration and prices, the kernel under test observed. */
    private TurnRuntime runtime(Suite suite, InvocationMode mode, List<EventDefinition> definitions, CaseState state) {
        ProviderRegistry registry = new ProviderRegistry().register(PROVIDER_KEY,
                (request, listener) -> state.provider().get().stream(request, listener));
        Clock clock = suite.session().clock().map(instant -> Clock.fixed(instant, suite.session().timezone()))
                .orElseGet(Clock::systemUTC);
        ProviderSource source = environment.source();
        TurnRuntime.Builder builder = TurnRuntime.builder()
                .definitions(definitions.toArray(EventDefinition[]::new))
                .providers(registry)
                .config(source.configure(RuntimeConfig.of(mode, PROVIDER_KEY, suite.provider().model(), PERSONA)))
                .limits(new KernelLimits(suite.kernel().concurrency(), suite.kernel().batchDeadline()))
                .clock(clock)
                .pricing(source.pricing(suite, environment.pricing()))
                .kernelFactory(ObservedKernel.wrap(environment.factory().kernels(), state.kernel()::set))
                .aguiProfile(environment.agui());
        suite.kernel().fallbackTimeout().ifPresent(builder::fallbackTimeout); // docs/design.md#kernel-fallback-bounded
        return builder.build();
    }

    /**
     * Plays one turn and reads what it left once the kernel is quiescent; returns whether the thread was interrupted
     * while waiting for that (the turn is recorded all the same).
     */
    private boolean playTurn(ProviderSource.TurnContext context, CaseState state) {
        Suite.Turn turn = context.turn();
        HandlerLog log = state.log();
        ProviderSource.TurnCalls calls = environment.source().turn(context);
        state.provider().set(calls.provider());
        int callsBefore = log.calls().size();
        log.resetMaxConcurrency();
        log.faults(turn.faults());
        VisibleText visible = new VisibleText(log);
        List<String> harness = new ArrayList<>();
        Conversation conversation = context.conversation();
        int historyBefore = conversation.historyView().size();
        List<StoredMessage> storedBefore = conversation.messages();
        TurnResult result;
        try {
            result = turn.interrupt().isPresent()
                    ? interrupted(context.runtime(), conversation, turn, visible, log,
                    environment.source().reportsMissedInterruptions() ? harness : new ArrayList<>())
                    : turn.retransmits().isPresent()
                    ? context.runtime().retransmit(conversation,
                    state.turns().get(turn.retransmits().get()).result().turnId(), turn.user(), visible)
                    : context.runtime().runTurn(conversation, turn.user(), visible);
        } finally {
            calls.close();
        }
        harness.addAll(calls.finished(result));
        boolean interrupted = false;
        try {
            state.kernel().get().awaitQuiescence(QUIESCENCE_BOUND).ifPresent(harness::add);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            interrupted = true;
        }
        Map<String, Map<String, Object>> states = portStates(state.plugins(), harness);
        List<String> mismatches = calls.mismatches();
        state.turns().add(new TurnRun(context.index(), turn, result, visible.text(), log.callsSince(callsBefore),
                log.maxConcurrency(), conversation.ended(), visible.firstTick(), conversation.historyView(),
                historyBefore, states, mismatches, harness, auditViolations(result, state.audit()), calls.timing(),
                historyProblems(storedBefore, conversation.messages(), result, turn.user()), Optional.empty()));
        return interrupted;
    }

    /** The text the user sees during a turn, and the handlers' tick at which its first non-blank part arrived. */
    private static final class VisibleText implements VisibleSink {

        private final HandlerLog log;
        private final StringBuilder text = new StringBuilder();
        private long firstTick = -1;

        VisibleText(HandlerLog log) {
            this.log = log;
        }

        @Override
        public synchronized void onDelta(String messageId, String part) {
            if (firstTick < 0 && !part.isBlank()) {
                // on the handlers' counter, so ordered with their starts and returns; white space alone (the line
                // break before a hidden block) shows the user nothing
                firstTick = log.tick();
            }
            text.append(part);
        }

        synchronized String text() {
            return text.toString();
        }

        synchronized long firstTick() {
            return firstTick;
        }
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
