package io.agentlab.report.controls;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.agentlab.report.metrics.Figure;
import io.agentlab.kernel.api.EventDefinition;
import io.agentlab.kernel.api.InvocationMode;
import io.agentlab.runtime.Conversation;
import io.agentlab.runtime.protocol.InvocationProtocol;
import io.agentlab.runtime.protocol.RuntimeConfig;
import io.agentlab.runtime.TurnResult;
import io.agentlab.runtime.TurnRuntime;
import io.agentlab.runtime.VisibleSink;
import io.agentlab.runtime.llm.CallRole;
import io.agentlab.provider.openai.OpenAiCompatibleClient;
import io.agentlab.runtime.llm.ProviderRegistry;
import io.agentlab.providers.recorded.LatencyModel;
import io.agentlab.tokens.PromptTokens;
import io.agentlab.providers.recorded.ProviderFamily;
import io.agentlab.providers.recorded.Recording;
import io.agentlab.providers.recorded.RequestMatcher;
import io.agentlab.providers.recorded.StreamSynthesizer;
import io.agentlab.providers.recorded.TimedReplay;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CancellationException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import org.apiguardian.api.API;

/**
 * The control matrix ({@code docs/design.md#metrics-control-matrix}): the same small-talk turns in each mode with every
 * event disabled and with every offered event enabled, through the runtime against synthesized streams on the replay
 * server. Only the capability context differs, so the difference in prompt tokens and in (modelled) first-visible TTFT
 * is what that context costs.
 */
@API(status = INTERNAL, since = "0.1")
public final class ControlMatrix {

    /** The turns of the control dataset: no event is wanted in any of them. */
    public static final List<String> DATASET = List.of("hello Pip", "how are you today", "tell me about the moon",
            "what is your favourite colour", "thank you, that was nice");

    /**
     * One cell.
     *
     * @param mode               the mode
     * @param events             enabled events (0 or all)
     * @param turns              turns run
     * @param firstVisibleTtftMs first-visible TTFT in ms (the latency model over real HTTP: always modelled)
     * @param promptTokensPerTurn mean ChatAgent prompt tokens per turn (counted from the requests sent)
     */
    public record Cell(InvocationMode mode, int events, int turns, Figure.Distribution firstVisibleTtftMs,
                       double promptTokensPerTurn) {
    }

    private static final AtomicLong SCOPES = new AtomicLong();

    private ControlMatrix() {
    }

    /** Runs the four cells. */
    public static List<Cell> run(TimedReplay replay, List<EventDefinition> all, LatencyModel latency, String model,
                                 String persona) {
        return run(replay, all, latency, model, persona, () -> false);
    }

    /**
     * Runs the four cells, checking {@code stop} before each turn: a matrix running beside the cases is stopped when
     * the run ends without a report (then it throws {@link CancellationException}), so it never outlives its replay
     * server.
     */
    public static List<Cell> run(TimedReplay replay, List<EventDefinition> all, LatencyModel latency, String model,
                                 String persona, BooleanSupplier stop) {
        List<Cell> cells = new ArrayList<>();
        for (InvocationMode mode : InvocationMode.values()) {
            for (List<EventDefinition> enabled : List.of(List.<EventDefinition>of(), all)) {
                cells.add(cell(replay, mode, enabled, latency, model, persona, stop));
            }
        }
        return cells;
    }

    private static Cell cell(TimedReplay replay, InvocationMode mode, List<EventDefinition> enabled,
                             LatencyModel latency, String model, String persona, BooleanSupplier stop) {
        StreamSynthesizer synthesizer = new StreamSynthesizer(latency, LocalDate.of(2026, 1, 1));
        List<Duration> ttft = new ArrayList<>();
        long prompt = 0;
        for (String user : DATASET) {
            if (stop.getAsBoolean()) {
                throw new CancellationException("the run ended before its control turns did");
            }
            String scope = "control-" + SCOPES.incrementAndGet();
            RuntimeConfig config = RuntimeConfig.of(mode, "control", model, persona);
            int tokens = PromptTokens.count(InvocationProtocol.of(config, enabled).firstRequest(List.of(), user));
            TurnRuntime.Builder builder = TurnRuntime.builder().definitions(enabled.toArray(EventDefinition[]::new))
                    .config(config);
            Recording synthesized = synthesizer.synthesize(new StreamSynthesizer.Script(scope, mode, CallRole.CHAT, user,
                    "That is a lovely thing to say. Let me think about it for a moment.", List.of(),
                    ProviderFamily.OPENAI, model), 1, tokens);
            // with no event enabled a tools-mode request carries no tools, so it cannot be told apart by shape
            Recording answer = new Recording(synthesized.id(), new RequestMatcher(RequestMatcher.ANY_MODE, "chat",
                    user), synthesized.response(), synthesized.metadata());
            String baseUrl = replay.scope(scope, List.of(answer));
            try (TurnRuntime runtime = builder.providers(new ProviderRegistry().register("control",
                    new OpenAiCompatibleClient(new OpenAiCompatibleClient.Config(baseUrl, null, Duration.ofSeconds(5),
                            Duration.ofSeconds(30))))).build()) {
                TurnResult result = runtime.runTurn(conversation(), user, VisibleSink.discard());
                if (result.error().isPresent()) {
                    throw new IllegalStateException("control turn \"" + user + "\" in " + mode.wireName() + " with "
                            + enabled.size() + " events ended with " + result.error().get() + "; the replay said "
                            + replay.mismatches(scope));
                }
                result.metrics().firstVisibleTtft().ifPresent(ttft::add);
                prompt += result.metrics().promptTokens(CallRole.CHAT);
            } finally {
                replay.closeScope(scope);
            }
        }
        return new Cell(mode, enabled.size(), DATASET.size(), Figure.Distribution.ofDurations(ttft),
                (double) prompt / DATASET.size());
    }

    private static Conversation conversation() {
        return new Conversation("control", ZoneId.of("UTC"), Locale.ENGLISH);
    }
}
