package io.agentlab.engine.execution;

import io.agentlab.engine.KernelUnderTestFactory;
import io.agentlab.engine.metrics.TurnRecord;
import io.agentlab.engine.suite.RecordingLibrary;
import io.agentlab.engine.suite.Suite;
import io.agentlab.kernel.api.EventDefinition;
import io.agentlab.kernel.api.EventPlugin;
import io.agentlab.kernel.api.InvocationMode;
import io.agentlab.kernel.api.KernelLimits;
import io.agentlab.kernel.runtime.Conversation;
import io.agentlab.kernel.runtime.RuntimeConfig;
import io.agentlab.kernel.runtime.TurnResult;
import io.agentlab.kernel.runtime.TurnRuntime;
import io.agentlab.kernel.runtime.audit.AguiProfile;
import io.agentlab.kernel.runtime.llm.CallRole;
import io.agentlab.kernel.runtime.llm.ChatProvider;
import io.agentlab.kernel.runtime.llm.ChatRequestJson;
import io.agentlab.kernel.runtime.llm.OpenAiCompatibleClient;
import io.agentlab.kernel.runtime.llm.ProviderRegistry;
import io.agentlab.kernel.runtime.usage.PricingCatalog;
import io.agentlab.providers.recorded.PromptTokens;
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
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;

/**
 * Runs one case in one mode: a fresh kernel and plugins from the factory (plus the suite's probes, every handler
 * recorded), a turn runtime whose provider is the shared replay server, each turn answered by its recordings or by
 * streams synthesized from its script.
 */
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
     */
    public record Environment(KernelUnderTestFactory factory, TimedReplay replay, RecordingLibrary recordings,
                              long seed, BooleanSupplier cancelled, Optional<OpenAiCompatibleClient.Config> live,
                              PricingCatalog pricing, AguiProfile agui) {
        /** Rejects nulls; a replay is required unless the run is live. */
        public Environment {
            Objects.requireNonNull(factory, "factory");
            Objects.requireNonNull(recordings, "recordings");
            Objects.requireNonNull(cancelled, "cancelled");
            Objects.requireNonNull(live, "live");
            Objects.requireNonNull(pricing, "pricing");
            Objects.requireNonNull(agui, "agui");
            if (live.isEmpty()) {
                Objects.requireNonNull(replay, "replay");
            }
        }

        /** An environment whose audit streams are AG-UI 1.0. */
        public Environment(KernelUnderTestFactory factory, TimedReplay replay, RecordingLibrary recordings, long seed,
                           BooleanSupplier cancelled, Optional<OpenAiCompatibleClient.Config> live,
                           PricingCatalog pricing) {
            this(factory, replay, recordings, seed, cancelled, live, pricing, AguiProfile.AGUI_1_0);
        }
    }

    private final Environment environment;

    /** A runner over {@code environment}. */
    public CaseRunner(Environment environment) {
        this.environment = environment;
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
        List<TurnRun> turns = new ArrayList<>();
        boolean cancelled = false;
        try (TurnRuntime runtime = TurnRuntime.builder()
                .definitions(definitions(suite, log, probes).toArray(EventDefinition[]::new))
                .providers(registry)
                .config(RuntimeConfig.of(mode, PROVIDER_KEY, suite.provider().model(), PERSONA))
                .limits(new KernelLimits(suite.kernel().concurrency(), suite.kernel().batchDeadline()))
                .clock(clock)
                .pricing(environment.pricing())
                .kernelFactory(ObservedKernel.wrap(environment.factory().kernels(), kernel::set))
                .aguiProfile(environment.agui())
                .build()) {
            Conversation conversation = new Conversation(suite.id() + "-" + testCase.id() + "-" + mode.wireName(),
                    suite.session().timezone(), suite.session().locale());
            for (int index = 0; index < testCase.turns().size(); index++) {
                if (environment.cancelled().getAsBoolean()) {
                    cancelled = true;
                    break;
                }
                Suite.Turn turn = testCase.turns().get(index);
                String scope = "s" + SCOPES.incrementAndGet();
                int problemsBefore = 0;
                TurnRecord.Timing timing = TurnRecord.Timing.LIVE;
                if (environment.live().isPresent()) {
                    provider.set(new OpenAiCompatibleClient(environment.live().get()));
                } else {
                    List<Recording> recordings = recordings(suite, testCase, turn, index, mode, runtime, conversation);
                    timing = recordings.stream().anyMatch(r -> r.metadata().synthesized())
                            ? TurnRecord.Timing.MODELLED : TurnRecord.Timing.RECORDED;
                    provider.set(new OpenAiCompatibleClient(new OpenAiCompatibleClient.Config(
                            environment.replay().scope(scope, recordings), null, Duration.ofSeconds(5),
                            Duration.ofSeconds(30))));
                    problemsBefore = environment.replay().mismatches().size();
                }
                int callsBefore = log.calls().size();
                log.resetMaxConcurrency();
                log.faults(turn.faults());
                StringBuilder visible = new StringBuilder();
                TurnResult result;
                try {
                    result = runtime.runTurn(conversation, turn.user(), (messageId, text) -> {
                        synchronized (visible) {
                            visible.append(text);
                        }
                    });
                } finally {
                    if (environment.live().isEmpty()) {
                        environment.replay().closeScope(scope);
                    }
                }
                List<String> harness = new ArrayList<>();
                try {
                    kernel.get().awaitQuiescence(QUIESCENCE_BOUND).ifPresent(harness::add);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    cancelled = true;
                }
                List<String> mismatches = environment.live().isPresent() ? List.of() : environment.replay().mismatches();
                turns.add(new TurnRun(index, turn, result, visible.toString(), log.callsSince(callsBefore),
                        log.maxConcurrency(), conversation.ended(),
                        mismatches.subList(Math.min(problemsBefore, mismatches.size()), mismatches.size()), harness,
                        timing));
                if (cancelled) {
                    break;
                }
            }
        } finally {
            probes.release();
        }
        return new CaseRun(suite, testCase, mode, turns, cancelled);
    }

    private List<EventDefinition> definitions(Suite suite, HandlerLog log, ProbeEvents probes) {
        Set<String> enabled = new LinkedHashSet<>(suite.kernel().events());
        List<EventDefinition> definitions = new ArrayList<>();
        for (EventPlugin plugin : environment.factory().plugins()) {
            EventDefinition definition = plugin.definition();
            if (enabled.isEmpty() || enabled.contains(definition.name())) {
                definitions.add(log.wrap(definition));
            }
        }
        for (Suite.Probe probe : suite.probes()) {
            definitions.add(log.wrap(probes.definition(probe)));
        }
        return definitions;
    }

    private List<Recording> recordings(Suite suite, Suite.Case testCase, Suite.Turn turn, int index,
                                       InvocationMode mode, TurnRuntime runtime, Conversation conversation) {
        if (!turn.recordings().isEmpty()) {
            List<Recording> recordings = new ArrayList<>();
            for (String id : turn.recordings()) {
                environment.recordings().find(id).ifPresent(recordings::add); // discovery checked every id
            }
            return recordings;
        }
        int promptTokens = PromptTokens.count(ChatRequestJson.write(runtime.firstRequest(conversation, turn.user())));
        return synthesizedTurn(suite, testCase, index, mode, environment.seed(), promptTokens, suite.provider().family());
    }

    /**
     * The streams a scripted turn's calls are answered with: the chat call, then the follow-up and the EventAgent call
     * when the turn scripts them, synthesized in {@code family}'s shape (a run uses the suite's family; the provider
     * stream export writes every family). The payloads depend only on the run seed, the suite, case, turn, mode and
     * family.
     *
     * @param index        the turn's index in the case
     * @param runSeed      the run's seed of chunk boundaries
     * @param promptTokens the chat request's prompt tokens (they set the modelled timing, not the payloads)
     * @param family       the provider family whose stream shape is written
     */
    public static List<Recording> synthesizedTurn(Suite suite, Suite.Case testCase, int index, InvocationMode mode,
                                                  long runSeed, int promptTokens, ProviderFamily family) {
        Suite.Turn turn = testCase.turns().get(index);
        StreamSynthesizer synthesizer = new StreamSynthesizer(suite.provider().latency(), LocalDate.of(2026, 1, 1));
        // the mode's wire name, not the enum: an enum's hash differs between JVMs, and a seed must reproduce a run
        long seed = runSeed ^ Objects.hash(suite.id(), testCase.id(), index, mode.wireName());
        String id = suite.id() + "." + testCase.id() + ".t" + index + "." + mode.wireName();
        String model = suite.provider().model();
        Suite.Reply reply = turn.replies().get(mode);
        List<Recording> recordings = new ArrayList<>();
        recordings.add(synthesizer.synthesize(new Script(id + ".chat", mode, CallRole.CHAT, turn.user(),
                reply.visible(), reply.events().stream()
                .map(event -> new ScriptedEvent(event.name(), event.argumentsJson())).toList(),
                family, model), seed, promptTokens));
        turn.followUp().ifPresent(text -> recordings.add(synthesizer.synthesize(new Script(id + ".follow_up", mode,
                CallRole.FOLLOW_UP, turn.user(), text, List.of(), family, model), seed + 1, promptTokens)));
        // The EventAgent's request never carries tools, so its recording answers the dual_agent request shape.
        turn.eventAgent().ifPresent(json -> recordings.add(synthesizer.synthesize(new Script(id + ".event_agent",
                InvocationMode.DUAL_AGENT, CallRole.EVENT_AGENT, turn.user(), json, List.of(), family, model),
                seed + 2, promptTokens / 2)));
        return recordings;
    }
}
