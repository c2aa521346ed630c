package io.agentlab.kernel.runtime;

import io.agentlab.kernel.api.BatchExecution;
import io.agentlab.kernel.api.BatchResult;
import io.agentlab.kernel.api.Confirmation;
import io.agentlab.kernel.api.ContinuationDecision;
import io.agentlab.kernel.api.EventBatch;
import io.agentlab.kernel.api.EventDefinition;
import io.agentlab.kernel.api.EventKernel;
import io.agentlab.kernel.api.EventKernelFactory;
import io.agentlab.kernel.api.EventOutcome;
import io.agentlab.kernel.api.EventPlugin;
import io.agentlab.kernel.api.EventResult;
import io.agentlab.kernel.api.EventScope;
import io.agentlab.kernel.api.InvocationMode;
import io.agentlab.kernel.api.KernelLimits;
import io.agentlab.kernel.api.ResolutionReport;
import io.agentlab.kernel.api.TurnContext;
import io.agentlab.kernel.core.ReferenceKernel;
import io.agentlab.kernel.runtime.audit.AguiEmitter;
import io.agentlab.kernel.runtime.audit.AguiProfile;
import io.agentlab.kernel.runtime.llm.CallRole;
import io.agentlab.kernel.runtime.llm.ChatCompletion;
import io.agentlab.kernel.runtime.llm.ChatMessage;
import io.agentlab.kernel.runtime.llm.ChatRequest;
import io.agentlab.kernel.runtime.llm.ChatRequestJson;
import io.agentlab.kernel.runtime.llm.ChatStreamListener;
import io.agentlab.kernel.runtime.llm.Json;
import io.agentlab.kernel.runtime.llm.ProviderException;
import io.agentlab.kernel.runtime.llm.ProviderRegistry;
import io.agentlab.kernel.runtime.llm.ToolSpec;
import io.agentlab.kernel.runtime.protocol.HiddenEventBlockParser;
import io.agentlab.kernel.runtime.protocol.ProposedEvent;
import io.agentlab.kernel.runtime.protocol.ToolCallEvents;
import io.agentlab.kernel.runtime.protocol.ToolNames;
import io.agentlab.kernel.runtime.usage.NormalizedUsage;
import io.agentlab.kernel.runtime.usage.PricingCatalog;
import io.agentlab.kernel.runtime.usage.TurnCost;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.LongSupplier;

/**
 * One runtime for both invocation modes ({@code docs/design.md#modes-same-batch}): stream ChatAgent's first answer to
 * the visible sink, collect the events (hidden block or native tool calls) into one ordered batch only when the stream
 * has ended, run it through the kernel, apply the continuation decision (end the session; keep the first answer;
 * template confirmations; or exactly one follow-up ChatAgent call with the compact results), and record the audit
 * stream and the metrics.
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
public final class TurnRuntime implements AutoCloseable {

    private static final String DUAL_INSTRUCTION = """
            You can trigger actions for the user. Always answer the user first, naturally and briefly.
            If the request needs actions, end your message with a new line that starts with %s followed by the \
            action names, comma-separated, in the order they should run. Never mention that line or the action \
            names to the user.
            Actions:
            %s""";
    private static final String TOOLS_INSTRUCTION = """
            You can call tools for the user. Always answer the user first, naturally and briefly, then call the \
            tools the request needs.""";
    private static final String FOLLOW_UP_INSTRUCTION = """
            The actions have finished; their results follow and the user has not seen them. Answer the user once \
            more, briefly: use the results, correct your first answer if needed, and do not repeat it. If an action \
            failed, say so plainly; if one needs clarification, ask its question.""";

    private final EventKernel kernel;
    private final ProviderRegistry providers;
    private final RuntimeConfig config;
    private final PricingCatalog pricing;
    private final LongSupplier nanoTime;
    private final Clock clock;
    private final AguiProfile aguiProfile;
    private final ToolNames toolNames;
    private final List<ToolSpec> tools;
    private final String catalog;
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
                config.eventAgentMaxTokens());
        this.kernel = builder.kernelFactory.create(new EventKernelFactory.Setup(builder.definitions, builder.limits,
                eventAgent, builder.fallbackTimeout));
        List<String> names = kernel.definitions().stream().map(EventDefinition::name).toList();
        this.toolNames = ToolNames.of(names);
        List<ToolSpec> specs = new ArrayList<>();
        StringBuilder lines = new StringBuilder();
        for (EventDefinition definition : kernel.definitions()) {
            specs.add(new ToolSpec(toolNames.alias(definition.name()), definition.description(),
                    definition.argumentsSchema()));
            lines.append("- ").append(definition.name()).append(": ").append(definition.description()).append('\n');
        }
        this.tools = List.copyOf(specs);
        this.catalog = lines.toString().strip();
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

    /** ChatAgent's first request for a turn, as this mode builds it (for prompt-cost measurements). */
    public ChatRequest firstRequest(Conversation conversation, String userText) {
        List<ChatMessage> messages = new ArrayList<>();
        messages.add(ChatMessage.system(systemPrompt()));
        messages.addAll(conversation.context());
        messages.add(ChatMessage.user(userText));
        return new ChatRequest(config.model(), messages, config.mode() == InvocationMode.CHAT_AGENT_TOOLS ? tools
                : List.of(), config.temperature(), config.maxTokens(), config.includeUsage(), CallRole.CHAT);
    }

    private String systemPrompt() {
        if (tools.isEmpty()) {
            // no capability enabled: the mode-specific instruction is none (docs/design.md#modes-minimal-instruction)
            return config.persona();
        }
        return config.persona() + "\n\n" + (config.mode() == InvocationMode.DUAL_AGENT
                ? String.format(DUAL_INSTRUCTION, HiddenEventBlockParser.MARKER, catalog) : TOOLS_INSTRUCTION);
    }

    /** Runs one turn on the calling thread. */
    public TurnResult runTurn(Conversation conversation, String userText, VisibleSink sink) {
        return new Turn(conversation, conversation.nextTurnId(), userText, sink, new boolean[2]).run();
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
        return new Turn(conversation, turnId, userText, sink, new boolean[2]).run();
    }

    /** Starts a turn on a runtime thread; the handle can interrupt or cancel it. */
    public TurnHandle start(Conversation conversation, String userText, VisibleSink sink) {
        boolean[] flags = new boolean[2]; // [interrupted, deleted], guarded by itself
        CompletableFuture<TurnResult> result = new CompletableFuture<>();
        Thread[] runner = new Thread[1];
        turns.execute(() -> {
            synchronized (flags) {
                runner[0] = Thread.currentThread();
            }
            try {
                result.complete(new Turn(conversation, conversation.nextTurnId(), userText, sink, flags).run());
            } catch (RuntimeException | Error e) {
                result.completeExceptionally(e);
            } finally {
                synchronized (flags) {
                    runner[0] = null;
                    Thread.interrupted();
                }
            }
        });
        return new TurnHandle() {
            @Override
            public CompletableFuture<TurnResult> result() {
                return result;
            }

            @Override
            public void interrupt() {
                stop(0);
            }

            @Override
            public void cancel() {
                stop(1);
            }

            private void stop(int flag) {
                synchronized (flags) {
                    flags[flag] = true;
                    if (runner[0] != null) {
                        runner[0].interrupt();
                    }
                }
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
        List<CallRecord> calls = callsByTurn.computeIfAbsent(turnId, id -> new java.util.concurrent.CopyOnWriteArrayList<>());
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
        private final boolean[] flags;
        private final String turnId;
        private final long start;
        private final AguiEmitter agui;
        private final List<StoredMessage> produced = new ArrayList<>();
        private final List<String> confirmations = new ArrayList<>();
        private final StringBuilder firstAnswer = new StringBuilder();
        private Long firstVisible;
        private Long secondVisible;
        private long firstAnswerEnd;
        private long batchSubmitted;

        Turn(Conversation conversation, String turnId, String userText, VisibleSink sink, boolean[] flags) {
            this.conversation = conversation;
            this.userText = userText;
            this.sink = sink;
            this.flags = flags;
            this.turnId = turnId;
            this.agui = new AguiEmitter(aguiProfile, conversation.sessionId(), turnId);
            this.start = nanoTime.getAsLong();
        }

        TurnResult run() {
            if (conversation.ended()) {
                throw new IllegalStateException("session " + conversation.sessionId() + " has ended");
            }
            turnStarts.put(turnId, start);
            agui.runStarted();
            ChatCompletion first;
            HiddenEventBlockParser parser = new HiddenEventBlockParser();
            boolean dual = config.mode() == InvocationMode.DUAL_AGENT;
            agui.stepStarted("chat");
            String firstId = agui.textMessageStarted();
            try {
                first = call(turnId, firstRequest(conversation, userText), delta ->
                        visible(firstId, dual ? parser.accept(delta) : delta, true));
                if (dual) {
                    visible(firstId, parser.finish(), true);
                }
            } catch (ProviderException e) {
                return failedFirstCall(e, firstId);
            }
            firstAnswerEnd = nanoTime.getAsLong();
            agui.textMessageEnded(firstId);
            agui.stepFinished("chat");

            List<ProposedEvent> proposals = dual ? dualProposals(parser.eventNames())
                    : ToolCallEvents.of(first.toolCalls(), toolNames);
            produced.add(new StoredMessage(ChatMessage.user(userText), StoredMessage.VISIBLE, turnId, null));
            String answer = firstAnswer.toString().strip();
            if (dual || first.toolCalls().isEmpty()) {
                produced.add(new StoredMessage(ChatMessage.assistant(answer), StoredMessage.VISIBLE, turnId, null));
            } else {
                produced.add(new StoredMessage(ChatMessage.assistantToolCalls(answer,
                        first.toolCalls()), StoredMessage.VISIBLE, turnId, null));
            }
            if (proposals.isEmpty()) {
                return finish(first, proposals, parser.rawBlock(), null, null, Optional.empty(), Optional.empty());
            }

            BatchResult batch;
            try {
                batch = runBatch(proposals, firstId);
            } catch (CancellationException e) {
                return interrupted(first, proposals, parser.rawBlock());
            }
            ContinuationDecision decision = batch.decision();
            if (!dual) {
                Map<String, String> compact = compactById(decision);
                for (int i = 0; i < proposals.size(); i++) {
                    EventResult result = batch.results().get(i);
                    produced.add(new StoredMessage(ChatMessage.tool(first.toolCalls().get(i).id(),
                            compact.getOrDefault(result.eventId(), Json.write(Map.of("status", result.status())))),
                            StoredMessage.CONTEXT_ASSEMBLY, turnId, null));
                }
            }
            for (Confirmation confirmation : decision.confirmations()) {
                String id = agui.textMessageStarted();
                visible(id, confirmation.text(), false);
                agui.textMessageEnded(id);
                confirmations.add(confirmation.text());
                produced.add(new StoredMessage(ChatMessage.assistant(confirmation.text()), StoredMessage.VISIBLE,
                        turnId, null));
            }
            if (decision instanceof ContinuationDecision.EndSession) {
                conversation.end();
            }
            Optional<String> followUp = Optional.empty();
            if (decision instanceof ContinuationDecision.FollowUp follow) {
                try {
                    followUp = Optional.of(followUp(first, follow));
                } catch (ProviderException e) {
                    if (isStopped()) {
                        return interrupted(first, proposals, parser.rawBlock());
                    }
                    conversation.append(produced);
                    agui.runError("the follow-up answer failed: " + e.getMessage(), e.code());
                    return result(first, proposals, parser.rawBlock(), batch, decision, followUp, Optional.of(e.code()));
                }
            }
            return finish(first, proposals, parser.rawBlock(), batch, decision, followUp, Optional.empty());
        }

        private List<ProposedEvent> dualProposals(List<String> names) {
            List<ProposedEvent> proposals = new ArrayList<>();
            for (String name : names) {
                proposals.add(new ProposedEvent("e" + (proposals.size() + 1), toolNames.eventName(name), Map.of(),
                        "", null));
            }
            return proposals;
        }

        private BatchResult runBatch(List<ProposedEvent> proposals, String firstId) {
            agui.stepStarted("events");
            TurnContext context = new TurnContext(new EventScope(conversation.sessionId(), turnId),
                    clock.instant(), conversation.timezone(), conversation.locale(), userText,
                    conversation.visibleText());
            EventBatch.Builder builder = EventBatch.builder(context, config.mode());
            Set<String> ids = new HashSet<>();
            for (ProposedEvent proposal : proposals) {
                String id = proposal.id() == null || proposal.id().isBlank() || !ids.add(proposal.id())
                        ? "e" + (ids.size() + 1) : proposal.id();
                ids.add(id);
                builder.event(id, proposal.name(), proposal.arguments());
                agui.toolCallStarted(id, proposal.name(), firstId);
            }
            EventBatch batch = builder.build();
            batchSubmitted = nanoTime.getAsLong();
            BatchExecution execution = kernel.submit(batch);
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


        private String followUp(ChatCompletion first, ContinuationDecision.FollowUp follow) {
            agui.stepStarted("follow_up");
            List<ChatMessage> messages = new ArrayList<>();
            messages.add(ChatMessage.system(systemPrompt()));
            messages.addAll(conversation.context());
            for (StoredMessage stored : produced) {
                if (stored.has(StoredMessage.CONTEXT_ASSEMBLY)) {
                    messages.add(stored.message());
                }
            }
            messages.add(ChatMessage.system(FOLLOW_UP_INSTRUCTION + (config.mode() == InvocationMode.DUAL_AGENT
                    ? "\nResults: " + follow.summary().json() : "")));
            ChatRequest request = new ChatRequest(config.model(), messages,
                    config.mode() == InvocationMode.CHAT_AGENT_TOOLS ? tools : List.of(), config.temperature(),
                    config.maxTokens(), config.includeUsage(), CallRole.FOLLOW_UP);
            String id = agui.textMessageStarted();
            HiddenEventBlockParser parser = new HiddenEventBlockParser(); // a block in the second answer is ignored
            StringBuilder text = new StringBuilder();
            call(turnId, request, delta -> {
                String visible = parser.accept(delta);
                text.append(visible);
                secondVisible(id, visible);
            });
            String rest = parser.finish();
            text.append(rest);
            secondVisible(id, rest);
            agui.textMessageEnded(id);
            agui.stepFinished("follow_up");
            produced.add(new StoredMessage(ChatMessage.assistant(text.toString()), StoredMessage.VISIBLE, turnId, null));
            return text.toString();
        }

        private void secondVisible(String id, String text) {
            if (!text.isEmpty()) {
                if (secondVisible == null) {
                    secondVisible = nanoTime.getAsLong();
                }
                sink.onDelta(id, text);
                agui.textMessageContent(id, text);
            }
        }

        private void visible(String messageId, String text, boolean firstAnswerText) {
            if (text.isEmpty()) {
                return;
            }
            if (firstAnswerText) {
                if (firstVisible == null) {
                    firstVisible = nanoTime.getAsLong();
                }
                firstAnswer.append(text);
            }
            sink.onDelta(messageId, text);
            agui.textMessageContent(messageId, text);
        }

        private TurnResult failedFirstCall(ProviderException e, String firstId) {
            if (isStopped()) {
                return interrupted(null, List.of(), "");
            }
            // History unchanged: the user's message is not stored either, so the next turn starts clean.
            agui.runError("the model call failed: " + e.getMessage(), e.code());
            firstAnswerEnd = nanoTime.getAsLong();
            return result(null, List.of(), "", null, null, Optional.empty(), Optional.of(e.code()));
        }

        private TurnResult interrupted(ChatCompletion first, List<ProposedEvent> proposals, String block) {
            boolean deleted;
            synchronized (flags) {
                deleted = flags[1];
            }
            if (firstAnswerEnd == 0) {
                firstAnswerEnd = nanoTime.getAsLong();
            }
            if (!deleted) {
                if (produced.isEmpty()) {
                    produced.add(new StoredMessage(ChatMessage.user(userText), StoredMessage.VISIBLE, turnId, null));
                    produced.add(new StoredMessage(ChatMessage.assistant(firstAnswer.toString()),
                            StoredMessage.VISIBLE, turnId, "interrupted"));
                }
                conversation.append(produced);
            }
            agui.runCancelled(deleted ? "run canceled" : "run canceled by user");
            return result(first, proposals, block, null, null, Optional.empty(), Optional.of("RUN_CANCELED"));
        }

        private boolean isStopped() {
            synchronized (flags) {
                return flags[0] || flags[1];
            }
        }

        private TurnResult finish(ChatCompletion first, List<ProposedEvent> proposals, String block, BatchResult batch,
                                  ContinuationDecision decision, Optional<String> followUp, Optional<String> error) {
            conversation.append(produced);
            agui.runFinished();
            return result(first, proposals, block, batch, decision, followUp, error);
        }



        private Map<String, String> compactById(ContinuationDecision decision) {
            Map<String, String> compact = new LinkedHashMap<>();
            if (decision instanceof ContinuationDecision.FollowUp follow) {
                for (var item : Json.tree(follow.summary().json())) {
                    compact.put(item.path("id").asString(), Json.write(Json.MAPPER.convertValue(item, Object.class)));
                }
            }
            return compact;
        }

        private TurnResult result(ChatCompletion first, List<ProposedEvent> proposals, String block, BatchResult batch,
                                  ContinuationDecision decision, Optional<String> followUp, Optional<String> error) {
            long end = nanoTime.getAsLong();
            List<CallRecord> calls = List.copyOf(callsByTurn.getOrDefault(turnId, List.of()));
            callsByTurn.remove(turnId);
            turnStarts.remove(turnId);
            Map<CallRole, Integer> perRole = new EnumMap<>(CallRole.class);
            List<TurnMetrics.CallMetrics> callMetrics = new ArrayList<>();
            List<TurnCost.Call> priced = new ArrayList<>();
            for (CallRecord call : calls) {
                perRole.merge(call.role(), 1, Integer::sum);
                callMetrics.add(new TurnMetrics.CallMetrics(call.role(), call.firstItem(), call.total(),
                        call.usage().inputTokens(), call.usage().outputTokens(), call.usage().cachedPromptTokens()));
                priced.add(new TurnCost.Call(call.model(), call.usage()));
            }
            Map<String, Duration> dispatch = new LinkedHashMap<>();
            Map<String, Duration> latency = new LinkedHashMap<>();
            int validBefore = 0;
            int validAfter = 0;
            int succeeded = 0;
            if (batch != null) {
                for (EventResult event : batch.results()) {
                    event.timings().dispatchOffset().ifPresent(offset -> dispatch.put(event.eventId(),
                            Duration.ofNanos(batchSubmitted - firstAnswerEnd).plus(offset)));
                    event.timings().execution().ifPresent(execution -> latency.put(event.eventId(), execution));
                    ResolutionReport report = event.resolution();
                    validBefore += report.validBeforeNormalization() ? 1 : 0;
                    validAfter += report.validAfterNormalization() ? 1 : 0;
                    succeeded += event.outcome() instanceof EventOutcome.Succeeded ? 1 : 0;
                }
            }
            TurnCost cost = TurnCost.of(priced, pricing);
            TurnMetrics metrics = new TurnMetrics(config.mode(), turnId,
                    Optional.ofNullable(firstVisible).map(t -> Duration.ofNanos(t - start)),
                    Duration.ofNanos((firstAnswerEnd == 0 ? end : firstAnswerEnd) - start),
                    Optional.ofNullable(secondVisible).map(t -> Duration.ofNanos(t - start)), dispatch, latency,
                    Duration.ofNanos(end - start), callMetrics, perRole, perRole.getOrDefault(CallRole.EVENT_AGENT, 0),
                    batch == null ? 0 : batch.results().size(), validBefore, validAfter, succeeded, cost.amount(),
                    cost.source(), first != null && first.contentAfterToolCalls(),
                    batch == null ? Optional.empty() : Optional.of(Duration.ofNanos(batchSubmitted - start)));
            return new TurnResult(turnId, firstAnswer.toString().strip(), List.copyOf(confirmations), followUp,
                    List.copyOf(proposals), block, Optional.ofNullable(batch), Optional.ofNullable(decision),
                    agui.events(), calls, metrics, error);
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
         * @throws io.agentlab.kernel.core.RegistrationException for duplicate names, invalid schemas, or names whose
         *                                                       provider-safe aliases collide
         */
        public TurnRuntime build() {
            return new TurnRuntime(this);
        }
    }
}
