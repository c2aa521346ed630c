package io.agentlab.runtime;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.agentlab.kernel.api.BatchExecution;
import io.agentlab.kernel.api.BatchResult;
import io.agentlab.kernel.api.Confirmation;
import io.agentlab.kernel.api.ContinuationDecision;
import io.agentlab.kernel.api.EventBatch;
import io.agentlab.kernel.api.EventDefinition;
import io.agentlab.kernel.api.EventKernel;
import io.agentlab.kernel.api.EventKernelFactory;
import io.agentlab.kernel.api.EventPlugin;
import io.agentlab.kernel.api.EventResult;
import io.agentlab.kernel.api.EventScope;
import io.agentlab.kernel.api.KernelLimits;
import io.agentlab.kernel.api.TurnContext;
import io.agentlab.kernel.reference.ReferenceKernel;
import io.agentlab.runtime.audit.AguiEmitter;
import io.agentlab.agui.AguiProfile;
import io.agentlab.runtime.llm.ChatCompletion;
import io.agentlab.runtime.llm.ChatMessage;
import io.agentlab.runtime.llm.ChatRequest;
import io.agentlab.runtime.llm.ChatRequestJson;
import io.agentlab.runtime.llm.ChatStreamListener;
import io.agentlab.runtime.llm.ProviderException;
import io.agentlab.runtime.llm.ProviderRegistry;
import io.agentlab.runtime.protocol.ProposedEvent;
import io.agentlab.runtime.protocol.VisibleText;
import io.agentlab.runtime.usage.NormalizedUsage;
import io.agentlab.runtime.usage.PricingCatalog;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.LongSupplier;
import org.apiguardian.api.API;
import io.agentlab.runtime.protocol.InvocationProtocol;
import io.agentlab.runtime.protocol.RuntimeConfig;

/**
 * One runtime for every invocation protocol ({@code docs/design.md#modes-same-batch}): stream ChatAgent's first answer
 * to the visible sink through the protocol's filter, collect the protocol's proposals into one ordered batch only when
 * the stream has ended, run it through the kernel, apply the continuation decision (end the session; keep the first
 * answer; template confirmations; or exactly one follow-up ChatAgent call with the compact results), and record the
 * audit stream ({@link AguiEmitter}) and the metrics ({@code TurnMeter}). What differs between the modes is the
 * {@link InvocationProtocol}'s; this class has no mode of its own.
 *
 * <pre>{@code
 * TurnRuntime runtime = TurnRuntime.builder()
 *         .plugins(BuiltInPlugins.withInMemoryPorts())
 *         .providers(new ProviderRegistry().register("main", new OpenAiCompatibleClient(Config.of(url))))
 *         .config(RuntimeConfig.of(InvocationMode.DUAL_AGENT, "main", "deepseek-chat", persona))
 *         .build();
 * TurnResult result = runtime.runTurn(conversation, "turn it down a bit", sink);
 * }</pre>
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class TurnRuntime implements AutoCloseable {

    private final EventKernel kernel;
    private final ProviderRegistry providers;
    private final RuntimeConfig config;
    private final InvocationProtocol protocol;
    private final PricingCatalog pricing;
    private final LongSupplier nanoTime;
    private final Clock clock;
    private final AguiProfile aguiProfile;
    private final Map<String, List<CallRecord>> callsByTurn = new ConcurrentHashMap<>();
    /** Each running turn's start on {@link #nanoTime}, so a call (the EventAgent's too) knows its offset. */
    private final Map<String, Long> turnStarts = new ConcurrentHashMap<>();
    private final ExecutorService turns = Executors.newCachedThreadPool(runnable -> {
        Thread thread = new Thread(runnable, "agentlab-turn");
        thread.setDaemon(true);
        return thread;
    });

    private TurnRuntime(Builder builder) {
        this.providers = Objects.requireNonNull(builder.providers, "providers");
        this.config = Objects.requireNonNull(builder.config, "config");
        this.pricing = builder.pricing;
        this.nanoTime = builder.nanoTime;
        this.clock = builder.clock;
        this.aguiProfile = builder.aguiProfile;
        LlmEventAgent eventAgent = new LlmEventAgent(this::callForText, config.eventAgentModel(),
                config.eventAgentMaxTokens(), config.seed());
        this.kernel = builder.kernelFactory.create(new EventKernelFactory.Setup(builder.definitions, builder.limits,
                eventAgent, builder.fallbackTimeout));
        // after the kernel, so its registration errors (duplicates, schemas) come before alias collisions
        this.protocol = InvocationProtocol.of(config, kernel.definitions());
    }

    /** Starts a runtime configuration. */
    public static Builder builder() {
        return new Builder();
    }

    /** The kernel the runtime drives. */
    public EventKernel kernel() {
        return kernel;
    }

    /** The configuration. */
    public RuntimeConfig config() {
        return config;
    }

    /** The invocation protocol of the configured mode, over the kernel's definitions. */
    public InvocationProtocol protocol() {
        return protocol;
    }

    /** ChatAgent's first request for a turn, as this mode builds it (for prompt-cost measurements). */
    public ChatRequest firstRequest(Conversation conversation, String userText) {
        return protocol.firstRequest(conversation.context(), userText);
    }

    /** Runs one turn on the calling thread. */
    public TurnResult runTurn(Conversation conversation, String userText, VisibleSink sink) {
        return new Turn(conversation, conversation.nextTurnId(), userText, sink, new TurnControl()).run();
    }

    /**
     * Runs a retransmission on the calling thread: a client re-sending a turn it got no answer for runs it again
     * under the turn's id, so the kernel's replay protection (scope, event id and canonical arguments,
     * {@code docs/design.md#batch-replay-scope}) reports the events that already executed as {@code replayed}, and
     * idempotency keys, which derive from the turn, reach the ports unchanged. Apart from its id it is a turn like
     * any other: ChatAgent is called again and the turn's messages are stored again.
     *
     * @param turnId the id of a turn this conversation has run ({@link TurnResult#turnId()})
     * @throws IllegalArgumentException if the conversation never ran a turn with that id
     */
    public TurnResult retransmit(Conversation conversation, String turnId, String userText, VisibleSink sink) {
        if (!conversation.hasTurn(turnId)) {
            throw new IllegalArgumentException("conversation " + conversation.sessionId() + " never ran turn '"
                    + turnId + "'; a retransmission re-sends a turn it ran");
        }
        return new Turn(conversation, turnId, userText, sink, new TurnControl()).run();
    }

    /** Starts a turn on a runtime thread; the handle can interrupt or cancel it. */
    public TurnHandle start(Conversation conversation, String userText, VisibleSink sink) {
        TurnControl control = new TurnControl();
        CompletableFuture<TurnResult> result = new CompletableFuture<>();
        turns.execute(() -> {
            control.bind();
            try {
                result.complete(new Turn(conversation, conversation.nextTurnId(), userText, sink, control).run());
            } catch (RuntimeException | Error e) {
                result.completeExceptionally(e);
            } finally {
                control.release();
            }
        });
        return new TurnHandle() {
            @Override
            public CompletableFuture<TurnResult> result() {
                return result;
            }

            @Override
            public void interrupt() {
                control.interrupt();
            }

            @Override
            public void cancel() {
                control.delete();
            }
        };
    }

    @Override
    public void close() {
        turns.shutdownNow();
        kernel.close();
    }

    /** A model call recorded under its turn; returns the completion. */
    private ChatCompletion call(String turnId, ChatRequest request, ChatStreamListener listener) {
        List<CallRecord> calls = callsByTurn.computeIfAbsent(turnId, id -> new CopyOnWriteArrayList<>());
        String body = ChatRequestJson.write(request);
        long now = nanoTime.getAsLong();
        Duration started = Duration.ofNanos(Math.max(0, now - turnStarts.getOrDefault(turnId, now)));
        try {
            ChatCompletion completion = providers.get(config.providerKey()).stream(request, listener);
            calls.add(new CallRecord(turnId, request.role(), request.model(), body, completion.content(),
                    completion.toolCalls(), completion.usage(),
                    NormalizedUsage.of(completion.usage(), Map.of()), started, completion.firstItem(),
                    completion.total(), Optional.empty()));
            return completion;
        } catch (ProviderException e) {
            calls.add(new CallRecord(turnId, request.role(), request.model(), body, "", List.of(), Map.of(),
                    NormalizedUsage.absent(), started,
                    Duration.ZERO, Duration.ZERO, Optional.of(e.code())));
            throw e;
        }
    }

    private String callForText(String turnId, ChatRequest request) {
        return call(turnId, request, delta -> { }).content();
    }

    /** One turn's state. */
    private final class Turn {
        private final Conversation conversation;
        private final String userText;
        private final VisibleSink sink;
        private final TurnControl control;
        private final String turnId;
        private final String runId;
        private final TurnMeter meter;
        private final AguiEmitter agui;
        private final InvocationProtocol.FirstAnswer reader = protocol.firstAnswer();
        private final List<StoredMessage> produced = new ArrayList<>();
        private final List<String> confirmations = new ArrayList<>();
        private final StringBuilder firstAnswer = new StringBuilder();
        private ChatCompletion first;
        private List<ProposedEvent> proposals = List.of();
        private BatchResult batch;
        private Optional<String> followUp = Optional.empty();

        Turn(Conversation conversation, String turnId, String userText, VisibleSink sink, TurnControl control) {
            this.conversation = conversation;
            this.userText = userText;
            this.sink = sink;
            this.control = control;
            this.turnId = turnId;
            this.runId = conversation.nextRunId(turnId);
            this.agui = new AguiEmitter(aguiProfile, conversation.sessionId(), runId, sink::onAguiEvent);
            this.meter = new TurnMeter(nanoTime);
        }

        TurnResult run() {
            if (conversation.ended()) {
                throw new IllegalStateException("session " + conversation.sessionId() + " has ended");
            }
            turnStarts.put(turnId, meter.start());
            agui.runStarted();
            agui.stepStarted("chat");
            String firstId = agui.textMessageStarted();
            try {
                first = call(turnId, firstRequest(conversation, userText), delta ->
                        firstVisible(firstId, reader.accept(delta)));
                firstVisible(firstId, reader.finish());
            } catch (ProviderException e) {
                return failedFirstCall(e);
            }
            meter.firstAnswerEnded();
            agui.textMessageEnded(firstId);
            agui.stepFinished("chat");

            proposals = reader.proposals(first);
            store(ChatMessage.user(userText), StoredMessage.VISIBLE);
            store(protocol.answerMessage(firstAnswer.toString().strip(), first), StoredMessage.VISIBLE);
            if (proposals.isEmpty()) {
                return finish(null, Optional.empty());
            }
            try {
                batch = runBatch(firstId);
            } catch (CancellationException e) {
                return interrupted();
            }
            protocol.resultMessages(first, batch).forEach(message -> store(message, StoredMessage.CONTEXT_ASSEMBLY));
            ContinuationDecision decision = batch.decision();
            for (Confirmation confirmation : decision.confirmations()) {
                String id = agui.textMessageStarted();
                show(id, confirmation.text());
                agui.textMessageEnded(id);
                confirmations.add(confirmation.text());
                store(ChatMessage.assistant(confirmation.text()), StoredMessage.VISIBLE);
            }
            if (decision instanceof ContinuationDecision.EndSession) {
                conversation.end();
            }
            if (decision instanceof ContinuationDecision.FollowUp follow) {
                try {
                    followUp = Optional.of(followUp(follow));
                } catch (ProviderException e) {
                    if (control.stopped()) {
                        return interrupted();
                    }
                    conversation.append(produced);
                    agui.runError("the follow-up answer failed: " + e.getMessage(), e.code());
                    return result(decision, Optional.of(e.code()));
                }
            }
            return finish(decision, Optional.empty());
        }

        private void store(ChatMessage message, int visibility) {
            produced.add(new StoredMessage(message, visibility, turnId, null));
        }

        private BatchResult runBatch(String firstId) {
            agui.stepStarted("events");
            TurnContext context = new TurnContext(new EventScope(conversation.sessionId(), turnId),
                    clock.instant(), conversation.timezone(), conversation.locale(), userText,
                    conversation.visibleText());
            EventBatch.Builder builder = EventBatch.builder(context, protocol.mode());
            Set<String> ids = new HashSet<>();
            for (ProposedEvent proposal : proposals) {
                String id = proposal.id() == null || proposal.id().isBlank() || !ids.add(proposal.id())
                        ? "e" + (ids.size() + 1) : proposal.id();
                ids.add(id);
                builder.event(id, proposal.name(), proposal.arguments());
                agui.toolCallStarted(id, proposal.name(), firstId);
            }
            EventBatch events = builder.build();
            meter.batchSubmitted();
            BatchExecution execution = kernel.submit(events);
            BatchResult result;
            try {
                result = execution.result().get();
            } catch (InterruptedException e) {
                execution.cancel();
                throw new CancellationException("the turn was interrupted while its events ran");
            } catch (ExecutionException e) {
                throw new IllegalStateException("the kernel failed the batch", e.getCause());
            }
            for (EventResult event : result.results()) {
                agui.toolCallArgs(event);
                agui.toolCallEnded(event.eventId());
                agui.toolCallResult(event);
            }
            agui.stepFinished("events");
            return result;
        }

        private String followUp(ContinuationDecision.FollowUp follow) {
            agui.stepStarted("follow_up");
            List<ChatMessage> context = new ArrayList<>(conversation.context());
            for (StoredMessage stored : produced) {
                if (stored.has(StoredMessage.CONTEXT_ASSEMBLY)) {
                    context.add(stored.message());
                }
            }
            ChatRequest request = protocol.followUpRequest(context, follow);
            String id = agui.textMessageStarted();
            VisibleText filter = protocol.followUpText();
            StringBuilder text = new StringBuilder();
            call(turnId, request, delta -> text.append(secondVisible(id, filter.accept(delta))));
            text.append(secondVisible(id, filter.finish()));
            agui.textMessageEnded(id);
            agui.stepFinished("follow_up");
            store(ChatMessage.assistant(text.toString()), StoredMessage.VISIBLE);
            return text.toString();
        }

        private String secondVisible(String id, String text) {
            if (!text.isEmpty()) {
                meter.secondVisible();
                show(id, text);
            }
            return text;
        }

        private void firstVisible(String messageId, String text) {
            if (!text.isEmpty()) {
                meter.firstVisible();
                firstAnswer.append(text);
                show(messageId, text);
            }
        }

        private void show(String messageId, String text) {
            if (!text.isEmpty()) {
                sink.onDelta(messageId, text);
                agui.textMessageContent(messageId, text);
            }
        }

        private TurnResult failedFirstCall(ProviderException e) {
            if (control.stopped()) {
                return interrupted();
            }
            // History unchanged: the user's message is not stored either, so the next turn starts clean.
            agui.runError("the model call failed: " + e.getMessage(), e.code());
            meter.firstAnswerEnded();
            return result(null, Optional.of(e.code()));
        }

        private TurnResult interrupted() {
            boolean deleted = control.deleted();
            meter.firstAnswerEnded();
            if (!deleted) {
                if (produced.isEmpty()) {
                    store(ChatMessage.user(userText), StoredMessage.VISIBLE);
                    produced.add(new StoredMessage(ChatMessage.assistant(firstAnswer.toString()),
                            StoredMessage.VISIBLE, turnId, "interrupted"));
                }
                conversation.append(produced);
            }
            agui.runCancelled(deleted ? "run canceled" : "run canceled by user");
            batch = null;
            followUp = Optional.empty();
            return result(null, Optional.of("RUN_CANCELED"));
        }

        private TurnResult finish(ContinuationDecision decision, Optional<String> error) {
            conversation.append(produced);
            agui.runFinished();
            return result(decision, error);
        }

        private TurnResult result(ContinuationDecision decision, Optional<String> error) {
            List<CallRecord> calls = List.copyOf(callsByTurn.getOrDefault(turnId, List.of()));
            TurnMetrics metrics = meter.metrics(protocol.mode(), turnId, calls, batch,
                    first != null && first.contentAfterToolCalls(), pricing);
            callsByTurn.remove(turnId);
            turnStarts.remove(turnId);
            return new TurnResult(turnId, runId, firstAnswer.toString().strip(), List.copyOf(confirmations), followUp,
                    List.copyOf(proposals), first == null ? "" : reader.hiddenBlock(), Optional.ofNullable(batch),
                    Optional.ofNullable(decision), agui.events(), calls, metrics, error);
        }
    }

    /** Runtime configuration. */
    public static final class Builder {
        private final List<EventDefinition> definitions = new ArrayList<>();
        private ProviderRegistry providers;
        private RuntimeConfig config;
        private KernelLimits limits = KernelLimits.defaults();
        private Duration fallbackTimeout = ReferenceKernel.Builder.DEFAULT_FALLBACK_TIMEOUT;
        private PricingCatalog pricing = PricingCatalog.empty();
        private LongSupplier nanoTime = System::nanoTime;
        private Clock clock = Clock.systemUTC();
        private AguiProfile aguiProfile = AguiProfile.AGUI_1_0;
        private EventKernelFactory kernelFactory = ReferenceKernel.factory();

        private Builder() {
        }

        /** The plugins whose events the kernel runs. */
        public Builder plugins(List<? extends EventPlugin> plugins) {
            plugins.forEach(plugin -> definitions.add(plugin.definition()));
            return this;
        }

        /** Definitions the kernel runs. */
        public Builder definitions(EventDefinition... more) {
            definitions.addAll(List.of(more));
            return this;
        }

        /** The kernel under test; default {@link ReferenceKernel#factory()}. */
        public Builder kernelFactory(EventKernelFactory factory) {
            this.kernelFactory = Objects.requireNonNull(factory, "factory");
            return this;
        }

        /** The provider seam. */
        public Builder providers(ProviderRegistry providers) {
            this.providers = providers;
            return this;
        }

        /** Mode, provider, model, persona, sampling. */
        public Builder config(RuntimeConfig config) {
            this.config = config;
            return this;
        }

        /** Kernel limits. */
        public Builder limits(KernelLimits limits) {
            this.limits = limits;
            return this;
        }

        /** Bound of the EventAgent fallback call. */
        public Builder fallbackTimeout(Duration timeout) {
            this.fallbackTimeout = timeout;
            return this;
        }

        /** Prices for cost estimates; default empty (costs unknown). */
        public Builder pricing(PricingCatalog pricing) {
            this.pricing = pricing;
            return this;
        }

        /** The monotonic clock for metrics (tests inject one). */
        public Builder nanoTime(LongSupplier nanoTime) {
            this.nanoTime = nanoTime;
            return this;
        }

        /** The wall clock for captured request times. */
        public Builder clock(Clock clock) {
            this.clock = clock;
            return this;
        }

        /** The wire shape of the AG-UI audit stream; default {@link AguiProfile#AGUI_1_0}. */
        public Builder aguiProfile(AguiProfile profile) {
            this.aguiProfile = Objects.requireNonNull(profile, "profile");
            return this;
        }

        /**
         * The runtime.
         *
         * @throws io.agentlab.kernel.reference.RegistrationException for duplicate names, invalid schemas, or names whose
         *                                                       provider-safe aliases collide
         */
        public TurnRuntime build() {
            return new TurnRuntime(this);
        }
    }
}
