package io.agentlab.engine.internal.execution;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.agentlab.report.metrics.TurnRecord;
import io.agentlab.engine.internal.suite.ProviderFault;
import io.agentlab.engine.internal.suite.RecordingLibrary;
import io.agentlab.engine.internal.suite.Suite;
import io.agentlab.engine.internal.yaml.RoleNames;
import io.agentlab.kernel.api.InvocationMode;
import io.agentlab.runtime.Conversation;
import io.agentlab.runtime.protocol.RuntimeConfig;
import io.agentlab.runtime.TurnResult;
import io.agentlab.runtime.TurnRuntime;
import io.agentlab.runtime.llm.CallRole;
import io.agentlab.runtime.llm.ChatProvider;
import io.agentlab.runtime.usage.PricingCatalog;
import io.agentlab.provider.openai.OpenAiCompatibleClient;
import io.agentlab.providers.recorded.InjectedFault;
import io.agentlab.providers.recorded.Recording;
import io.agentlab.providers.recorded.TimedReplay;
import io.agentlab.tokens.PromptTokens;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import org.apiguardian.api.API;

/**
 * Where a run's model calls go, chosen once per run (docs/engine.md#provider-sources): the shared replay server
 * answering each turn with the suite's recordings or streams synthesized from its script ({@link #replay}), the same
 * server answering with a live run's recordings in recorded order ({@link #recorded}), or a live provider
 * ({@link #live}). Each gives a turn its provider, says how the turn's timing figures are to be read and what the
 * turn leaves to report, so {@link CaseRunner} runs the same steps over any of them.
 */
@API(status = INTERNAL, since = "0.1")
public abstract sealed class ProviderSource permits ProviderSource.Replayed, ProviderSource.Recorded,
        ProviderSource.Live {

    private static final AtomicLong SCOPES = new AtomicLong();

    private ProviderSource() {
    }

    /**
     * The replay server answering each turn with its recordings, or with streams synthesized from its script.
     *
     * @param replay     the shared replay server
     * @param recordings where recording ids resolve
     * @param seed       the seed of chunk boundaries
     */
    public static ProviderSource replay(TimedReplay replay, RecordingLibrary recordings, long seed) {
        return new Replayed(replay, recordings, seed);
    }

    /**
     * The replay server answering each turn with a live run's recordings, in recorded order
     * ({@code agentlab.recordings.replay-directory}); declared faults are still injected.
     *
     * @param replay     the shared replay server
     * @param recordings where the suite's recording ids resolve
     * @param seed       the seed of chunk boundaries of the faulted streams
     * @param evaluation the live run's recordings
     */
    public static ProviderSource recorded(TimedReplay replay, RecordingLibrary recordings, long seed,
                                          RecordedEvaluation evaluation) {
        return new Recorded(replay, recordings, seed, evaluation);
    }

    /**
     * A live provider every call goes to.
     *
     * @param config where the provider is
     * @param calls  what the run puts around every call (models, sampling, concurrency, retries, spending)
     */
    public static ProviderSource live(OpenAiCompatibleClient.Config config, LiveCalls calls) {
        return new Live(config, calls);
    }

    /** The turns' runtime configuration. */
    RuntimeConfig configure(RuntimeConfig config) {
        return config;
    }

    /** The catalog cost figures are priced with, given the run's configured one. */
    PricingCatalog pricing(Suite suite, PricingCatalog configured) {
        // a suite's own catalog wins over a replay's: its cost expectations are written against it
        // (usage-catalog-fallback)
        return suite.provider().pricing().orElse(configured);
    }

    /** Why the run stopped early on its own (a spending cap), once it has. */
    Optional<String> stopped() {
        return Optional.empty();
    }

    /** Whether a declared interruption that never happened is reported: the replies follow the suite. */
    boolean reportsMissedInterruptions() {
        return true;
    }

    /** What one turn's calls go to; called before the turn starts. */
    abstract TurnCalls turn(TurnContext context);

    /**
     * The turn a source serves.
     *
     * @param suite        the suite
     * @param testCase     the case
     * @param index        the turn's index in the case
     * @param mode         the mode
     * @param runtime      the case's runtime
     * @param conversation the case's conversation, before the turn
     */
    public record TurnContext(Suite suite, Suite.Case testCase, int index, InvocationMode mode, TurnRuntime runtime,
                       Conversation conversation) {

        /** The turn. */
        public Suite.Turn turn() {
            return testCase.turns().get(index);
        }
    }

    /** One turn's calls, from before the turn starts until the engine reads what it left. */
    public interface TurnCalls {

        /** The provider the turn's calls go to. */
        ChatProvider provider();

        /** How the turn's timing figures are to be read. */
        TurnRecord.Timing timing();

        /** Releases what the turn held, whether it ended or failed. */
        void close();

        /** After the turn: the harness problems it leaves (a declared fault never injected). */
        List<String> finished(TurnResult result);

        /** After the turn: the requests no recording answered. */
        List<String> mismatches();

        /**
         * The replay scope that answers the turn's next call of {@code role}, for a runtime over the wire whose calls
         * reach the replay by one fixed base URL (docs/wire.md#one-turn-at-a-time).
         *
         * @throws UnsupportedOperationException for a source whose calls do not go to the replay (a live provider)
         */
        default String scopeFor(CallRole role) {
            throw new UnsupportedOperationException("this provider source does not serve a runtime over the wire");
        }
    }

    /** Replayed turns over the shared server: the suite's recordings, or streams synthesized from the script. */
    static final class Replayed extends ProviderSource {

        private final TimedReplay replay;
        private final RecordingLibrary recordings;
        private final long seed;

        private Replayed(TimedReplay replay, RecordingLibrary recordings, long seed) {
            this.replay = Objects.requireNonNull(replay, "replay");
            this.recordings = Objects.requireNonNull(recordings, "recordings");
            this.seed = seed;
        }

        @Override
        TurnCalls turn(TurnContext context) {
            Suite.Turn turn = context.turn();
            // the recordings a scripted turn gets are synthesized by the latency model; a recording's own offsets are
            // measured only when its metadata says "recorded" (an import without timing states the model it used,
            // docs/recording.md#format)
            TurnRecord.Timing timing = turn.recordings().isEmpty() || anyModelled(recordings, turn)
                    ? TurnRecord.Timing.MODELLED : TurnRecord.Timing.RECORDED;
            return new ScopedTurn(replay, context, seed, scripts -> turn.recordings().isEmpty()
                    ? scripts.synthesized() : named(turn), timing);
        }

        private List<Recording> named(Suite.Turn turn) {
            List<Recording> named = new ArrayList<>();
            for (String id : turn.recordings()) {
                recordings.find(id).ifPresent(named::add); // discovery checked every id
            }
            return named;
        }
    }

    /** Replayed turns answered by a live run's recordings, in recorded order. */
    static final class Recorded extends ProviderSource {

        private final TimedReplay replay;
        private final RecordingLibrary recordings;
        private final long seed;
        private final RecordedEvaluation evaluation;

        private Recorded(TimedReplay replay, RecordingLibrary recordings, long seed, RecordedEvaluation evaluation) {
            this.replay = Objects.requireNonNull(replay, "replay");
            this.recordings = Objects.requireNonNull(recordings, "recordings");
            this.seed = seed;
            this.evaluation = Objects.requireNonNull(evaluation, "evaluation");
        }

        @Override
        TurnCalls turn(TurnContext context) {
            Suite.Turn turn = context.turn();
            // read as recorded unless a recording the suite names for the turn says otherwise
            TurnRecord.Timing timing = anyModelled(recordings, turn) ? TurnRecord.Timing.MODELLED
                    : TurnRecord.Timing.RECORDED;
            return new ScopedTurn(replay, context, seed, scripts -> evaluation.next(context.mode(), turn.user()),
                    timing);
        }
    }

    /** Every call to a live provider, within the run's limits and spending cap. */
    static final class Live extends ProviderSource {

        private final OpenAiCompatibleClient.Config config;
        private final LiveCalls calls;

        private Live(OpenAiCompatibleClient.Config config, LiveCalls calls) {
            this.config = Objects.requireNonNull(config, "config");
            this.calls = Objects.requireNonNull(calls, "calls");
        }

        @Override
        RuntimeConfig configure(RuntimeConfig runtime) {
            return calls.configure(runtime);
        }

        @Override
        PricingCatalog pricing(Suite suite, PricingCatalog configured) {
            return configured; // a live run spends real money: the configured catalog stays, for the cap
        }

        @Override
        Optional<String> stopped() {
            return calls.stopped();
        }

        @Override
        boolean reportsMissedInterruptions() {
            return false; // a live model that proposes no such event leaves the interruption out
        }

        @Override
        TurnCalls turn(TurnContext context) {
            ChatProvider provider = calls.wrap(new OpenAiCompatibleClient(config));
            return new TurnCalls() {
                @Override
                public ChatProvider provider() {
                    return provider;
                }

                @Override
                public TurnRecord.Timing timing() {
                    return TurnRecord.Timing.LIVE;
                }

                @Override
                public void close() {
                }

                @Override
                public List<String> finished(TurnResult result) {
                    calls.spent(context.suite().id() + "/" + context.testCase().id() + " turn " + (context.index() + 1)
                            + " (" + context.mode().wireName() + ")", result.metrics().cost());
                    return List.of();
                }

                @Override
                public List<String> mismatches() {
                    return List.of();
                }
            };
        }
    }

    /** Whether a recording the turn names has modelled, not recorded, timing. */
    private static boolean anyModelled(RecordingLibrary recordings, Suite.Turn turn) {
        return turn.recordings().stream().flatMap(id -> recordings.find(id).stream())
                .anyMatch(recording -> !"recorded".equals(recording.metadata().timing()));
    }

    /**
     * A turn over the replay: its recordings in one scope, and each call with a declared fault routed to a scope of
     * its own that serves the faulted stream. Its scopes are its own: cases running at once share the server.
     */
    private static final class ScopedTurn implements TurnCalls {

        private final TimedReplay replay;
        private final TurnRecord.Timing timing;
        private final List<String> scopes = new ArrayList<>();
        private final Map<String, ProviderFault> unusedFaults = new ConcurrentHashMap<>();
        private final ChatProvider provider;
        private final String normalScope;
        private final Map<String, OpenAiCompatibleClient> clients = new HashMap<>();
        private final Map<String, String> faultScopes = new HashMap<>();
        private final Map<CallRole, AtomicInteger> counts = new EnumMap<>(CallRole.class);

        ScopedTurn(TimedReplay replay, TurnContext context, long seed, Function<Scripts, List<Recording>> answers,
                   TurnRecord.Timing timing) {
            this.replay = replay;
            this.timing = timing;
            Suite suite = context.suite();
            Suite.Turn turn = context.turn();
            InvocationMode mode = context.mode();
            int promptTokens = PromptTokens.count(context.runtime().firstRequest(context.conversation(), turn.user()));
            Scripts scripts = Scripts.of(suite, context.testCase(), context.index(), mode, seed, promptTokens,
                    suite.provider().family());
            normalScope = "s" + SCOPES.incrementAndGet();
            scopes.add(normalScope);
            clients.put(normalScope, client(replay.scope(normalScope, answers.apply(scripts)), CaseRunner.IDLE_TIMEOUT));
            for (ProviderFault fault : turn.providerFaults()) {
                if (fault.fault() instanceof InjectedFault.InvalidToolArguments && mode == InvocationMode.DUAL_AGENT) {
                    continue; // a dual_agent model sends no arguments to break
                }
                String faultScope = "s" + SCOPES.incrementAndGet();
                scopes.add(faultScope);
                Recording recording = fault.fault().response(scripts.synthesize(
                        fault.fault().script(scripts.of(fault.call()))));
                Duration idle = fault.fault() instanceof InjectedFault.AfterEvents after
                        && after.ending() == InjectedFault.Ending.STALL ? CaseRunner.stalledCallBound(suite, fault)
                        : CaseRunner.IDLE_TIMEOUT;
                clients.put(faultScope, client(replay.scope(faultScope, List.of(recording)), idle));
                faultScopes.put(fault.describeCall(), faultScope);
                unusedFaults.put(fault.describeCall(), fault);
            }
            for (CallRole role : CallRole.values()) {
                counts.put(role, new AtomicInteger());
            }
            this.provider = (request, listener) -> clients.get(scopeFor(request.role())).stream(request, listener);
        }

        /**
         * The scope that answers the turn's next call of {@code role}: a declared fault's for the call it names
         * ({@code follow-up call 1}), else the turn's; counted per role, so a fault reaches the call it names whatever
         * came first, in-process and over the wire (docs/wire.md#one-turn-at-a-time).
         */
        @Override
        public String scopeFor(CallRole role) {
            String call = RoleNames.roleName(role) + " call " + counts.get(role).incrementAndGet();
            unusedFaults.remove(call);
            return faultScopes.getOrDefault(call, normalScope);
        }

        @Override
        public ChatProvider provider() {
            return provider;
        }

        @Override
        public TurnRecord.Timing timing() {
            return timing;
        }

        @Override
        public void close() {
            scopes.forEach(replay::closeScope);
        }

        @Override
        public List<String> finished(TurnResult result) {
            // a fault the turn never reached would let the case pass without testing what it declares
            return unusedFaults.values().stream().map(fault -> "the provider fault declared at " + fault.at()
                    + " was never injected: the turn made no " + fault.describeCall()).toList();
        }

        @Override
        public List<String> mismatches() {
            return scopes.stream().flatMap(scope -> replay.mismatches(scope).stream()).toList();
        }

        private static OpenAiCompatibleClient client(String baseUrl, Duration idle) {
            return new OpenAiCompatibleClient(new OpenAiCompatibleClient.Config(baseUrl, null, Duration.ofSeconds(5),
                    idle));
        }
    }
}
