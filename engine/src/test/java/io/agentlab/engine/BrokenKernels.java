package io.agentlab.engine;

import io.agentlab.kernel.api.ArgumentResolver;
import io.agentlab.kernel.api.BatchExecution;
import io.agentlab.kernel.api.BatchResult;
import io.agentlab.kernel.api.ConcurrencyClass;
import io.agentlab.kernel.api.Confirmation;
import io.agentlab.kernel.api.ContinuationDecision;
import io.agentlab.kernel.api.EventBatch;
import io.agentlab.kernel.api.EventDefinition;
import io.agentlab.kernel.api.EventKernel;
import io.agentlab.kernel.api.EventKernelFactory;
import io.agentlab.kernel.api.EventOutcome;
import io.agentlab.kernel.api.EventPlugin;
import io.agentlab.kernel.api.EventRequest;
import io.agentlab.kernel.api.EventResult;
import io.agentlab.kernel.api.EventScope;
import io.agentlab.kernel.api.FollowUpSummary;
import io.agentlab.kernel.api.InvocationMode;
import io.agentlab.kernel.api.PortState;
import io.agentlab.kernel.api.ResolutionReport;
import io.agentlab.kernel.api.RetryPolicy;
import io.agentlab.kernel.api.TurnContext;
import io.agentlab.kernel.reference.ReferenceKernel;
import io.agentlab.runtime.llm.Json;
import io.agentlab.plugins.calendar.CalendarPlugin;
import io.agentlab.plugins.calendar.CalendarSchedulePort;
import io.agentlab.plugins.calendar.ScheduleRequest;
import io.agentlab.plugins.calendar.ScheduledEntry;
import io.agentlab.plugins.volume.VolumePlugin;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;

/**
 * Kernels and plugins under test that each break one rule on purpose, so that every new suite-format item is shown
 * failing where it should ({@code SuiteFormatItemsTest}). Each is the reference kernel and the built-in plugins with
 * one thing changed; each changes only what its name says.
 */
public final class BrokenKernels {

    private BrokenKernels() {
    }

    /** The built-in plugins and the reference kernel; subclasses change one of them. */
    abstract static class Broken implements KernelUnderTestFactory {
        @Override
        public List<EventPlugin> plugins() {
            return new ServiceLoaderKernelFactory().plugins();
        }

        /** The reference kernel built from {@code setup}, its batches and results passed through the hooks. */
        static EventKernel wrapped(EventKernel kernel, UnaryOperator<EventBatch> in, UnaryOperator<BatchResult> out) {
            return new EventKernel() {
                @Override
                public List<EventDefinition> definitions() {
                    return kernel.definitions();
                }

                @Override
                public Optional<EventDefinition> definition(String name) {
                    return kernel.definition(name);
                }

                @Override
                public BatchExecution submit(EventBatch batch) {
                    BatchExecution execution = kernel.submit(in.apply(batch));
                    CompletableFuture<BatchResult> result = execution.result().thenApply(out);
                    return new BatchExecution() {
                        @Override
                        public CompletableFuture<BatchResult> result() {
                            return result;
                        }

                        @Override
                        public void cancel() {
                            execution.cancel();
                        }

                        @Override
                        public CompletableFuture<Void> quiescence() {
                            return execution.quiescence();
                        }
                    };
                }

                @Override
                public void close() {
                    kernel.close();
                }
            };
        }

        static EventKernelFactory changingDefinitions(UnaryOperator<EventDefinition> change) {
            return setup -> ReferenceKernel.factory().create(new EventKernelFactory.Setup(
                    setup.definitions().stream().map(change).toList(), setup.limits(), setup.fallback(),
                    setup.fallbackTimeout()));
        }

        static EventKernelFactory changingResults(UnaryOperator<BatchResult> change) {
            return setup -> wrapped(ReferenceKernel.factory().create(setup), UnaryOperator.identity(), change);
        }

        static BatchResult withResults(BatchResult result, UnaryOperator<EventResult> change) {
            return new BatchResult(result.results().stream().map(change).toList(), result.decision(),
                    result.wallTime());
        }
    }

    /** Forgets what it executed: every batch runs under a scope of its own, so a retransmission runs again. */
    public static final class NoReplayProtection extends Broken {
        @Override
        public EventKernelFactory kernels() {
            AtomicInteger batches = new AtomicInteger();
            return setup -> wrapped(ReferenceKernel.factory().create(setup), batch -> {
                TurnContext turn = batch.turn();
                TurnContext fresh = new TurnContext(new EventScope(turn.scope().sessionId(),
                        turn.scope().turnId() + "#" + batches.incrementAndGet()), turn.requestedAt(), turn.timezone(),
                        turn.locale(), turn.userText(), turn.history());
                InvocationMode mode = batch.requests().isEmpty() ? InvocationMode.DUAL_AGENT
                        : batch.requests().get(0).sourceMode();
                EventBatch.Builder builder = EventBatch.builder(fresh, mode);
                for (EventRequest request : batch.requests()) {
                    builder.event(request.eventId(), request.name(), request.proposedArguments());
                }
                return builder.build();
            }, UnaryOperator.identity());
        }
    }

    /** Swallows a failing EventAgent and guesses the missing fields instead of asking. */
    public static final class GuessingFallback extends Broken {
        @Override
        public EventKernelFactory kernels() {
            return setup -> ReferenceKernel.factory().create(new EventKernelFactory.Setup(setup.definitions(),
                    setup.limits(), request -> {
                        try {
                            return setup.fallback().complete(request);
                        } catch (Exception e) {
                            Map<String, Object> guess = new LinkedHashMap<>();
                            request.missingFields().forEach(field -> guess.put(field, "guessed"));
                            return guess;
                        }
                    }, setup.fallbackTimeout()));
        }
    }

    /** Reports an event name nobody registered as invalid arguments instead of an unknown event. */
    public static final class UnknownAsInvalid extends Broken {
        @Override
        public EventKernelFactory kernels() {
            return changingResults(result -> withResults(result, event -> event.outcome()
                    instanceof EventOutcome.Rejected rejected && rejected.reason() == EventOutcome.RejectionReason.UNKNOWN_EVENT
                    ? new EventResult(event.eventId(), event.name(), event.orderIndex(), event.arguments(),
                    event.resolution(), event.timings(), new EventOutcome.Rejected(
                    EventOutcome.RejectionReason.INVALID_ARGUMENTS, rejected.message(), rejected.violations()))
                    : event));
        }
    }

    /** A volume plugin that silently clamps an out-of-range level instead of asking or refusing. */
    public static final class ClampingVolume extends Broken {
        @Override
        public List<EventPlugin> plugins() {
            List<EventPlugin> plugins = new ArrayList<>();
            for (EventPlugin plugin : super.plugins()) {
                EventDefinition definition = plugin.definition();
                if (!definition.name().equals(VolumePlugin.NAME)) {
                    plugins.add(plugin);
                    continue;
                }
                EventDefinition clamping = definition.toBuilder().normalizer(arguments -> {
                    Map<String, Object> normalized = new LinkedHashMap<>(definition.normalizer().normalize(arguments));
                    if (normalized.get("value") instanceof Number value && value.intValue() > 100) {
                        normalized.put("value", 100);
                    }
                    return normalized;
                }).build();
                plugins.add(() -> clamping);
            }
            return plugins;
        }
    }

    /** Retries side-effecting events after a transient failure (it calls them read-only). */
    public static final class RetriesSideEffects extends Broken {
        @Override
        public EventKernelFactory kernels() {
            return changingDefinitions(d -> d.concurrencyClass() == ConcurrencyClass.SIDE_EFFECTING
                    ? d.toBuilder().concurrencyClass(ConcurrencyClass.READ_ONLY)
                    .retryPolicy(RetryPolicy.onceOnTransientFailure()).build() : d);
        }
    }

    /** Never times an event out on its own timeout: a hanging handler holds the batch until its deadline. */
    public static final class IgnoresEventTimeouts extends Broken {
        @Override
        public EventKernelFactory kernels() {
            return changingDefinitions(d -> d.toBuilder().timeout(Duration.ofSeconds(60)).build());
        }
    }

    /** Claims every event's arguments were valid as proposed whenever they are valid after normalization. */
    public static final class MisreportsValidity extends Broken {
        @Override
        public EventKernelFactory kernels() {
            return changingResults(result -> withResults(result, event -> {
                ResolutionReport r = event.resolution();
                return new EventResult(event.eventId(), event.name(), event.orderIndex(), event.arguments(),
                        new ResolutionReport(r.outcome(), r.fallbackUsed(), r.validAfterNormalization(),
                                r.validAfterNormalization()), event.timings(), event.outcome());
            }));
        }
    }

    /** Sends the follow-up only the first result that needs it; the others are dropped. */
    public static final class DropsFollowUpResults extends Broken {
        @Override
        public EventKernelFactory kernels() {
            return changingResults(result -> {
                if (!(result.decision() instanceof ContinuationDecision.FollowUp follow)) {
                    return result;
                }
                List<?> items = Json.MAPPER.convertValue(Json.tree(follow.summary().json()), List.class);
                FollowUpSummary first = new FollowUpSummary(follow.summary().eventIds().subList(0, 1),
                        Json.write(items.subList(0, 1)));
                return new BatchResult(result.results(), new ContinuationDecision.FollowUp(follow.confirmations(),
                        follow.reasons(), first), result.wallTime());
            });
        }
    }

    /** Announces "All done." before a follow-up is even made, so the history holds an answer nobody gave. */
    public static final class AnnouncesBeforeFollowUp extends Broken {
        @Override
        public EventKernelFactory kernels() {
            return changingResults(result -> {
                if (!(result.decision() instanceof ContinuationDecision.FollowUp follow)) {
                    return result;
                }
                List<Confirmation> confirmations = new ArrayList<>(follow.confirmations());
                confirmations.add(new Confirmation(follow.summary().eventIds().get(0), "All done."));
                return new BatchResult(result.results(), new ContinuationDecision.FollowUp(confirmations,
                        follow.reasons(), follow.summary()), result.wallTime());
            });
        }
    }

    /** A calendar adapter that stores the local time as if it were UTC (it ignores the entry's zone). */
    public static final class UtcCalendar extends Broken {
        @Override
        public List<EventPlugin> plugins() {
            List<EventPlugin> plugins = new ArrayList<>();
            for (EventPlugin plugin : super.plugins()) {
                plugins.add(plugin.definition().name().equals(CalendarPlugin.NAME)
                        ? new CalendarPlugin(new UtcPort()) : plugin);
            }
            return plugins;
        }

        private static final class UtcPort implements CalendarSchedulePort, PortState {
            private final Map<String, ScheduledEntry> entries = new LinkedHashMap<>();
            private final Map<String, ScheduleRequest> requests = new LinkedHashMap<>();

            @Override
            public synchronized ScheduledEntry create(ScheduleRequest request) {
                ScheduledEntry entry = entries.computeIfAbsent(request.idempotencyKey(), key -> new ScheduledEntry(
                        "utc-" + (entries.size() + 1), request.date().atTime(request.time()).atOffset(ZoneOffset.UTC),
                        true));
                requests.putIfAbsent(request.idempotencyKey(), request);
                return entry;
            }

            @Override
            public synchronized Map<String, Object> snapshot() {
                List<Object> list = new ArrayList<>();
                entries.forEach((key, entry) -> {
                    ScheduleRequest request = requests.get(key);
                    var start = entry.start().atZoneSameInstant(request.timezone());
                    list.add(Map.of("title", request.title(), "date", start.toLocalDate().toString(),
                            "time", String.format("%02d:%02d", start.getHour(), start.getMinute()),
                            "timezone", request.timezone().getId()));
                });
                return Map.of("entries", list);
            }
        }
    }

    /** In chat_agent_tools the kernel trusts the model's arguments and skips the deterministic resolver. */
    public static final class ToolsModeSkipsResolver extends Broken {
        @Override
        public EventKernelFactory kernels() {
            return setup -> {
                EventKernel reference = ReferenceKernel.factory().create(setup);
                EventKernel trusting = changingDefinitions(d -> d.toBuilder()
                        .resolver(ArgumentResolver.none()).build()).create(setup);
                return new EventKernel() {
                    @Override
                    public List<EventDefinition> definitions() {
                        return reference.definitions();
                    }

                    @Override
                    public Optional<EventDefinition> definition(String name) {
                        return reference.definition(name);
                    }

                    @Override
                    public BatchExecution submit(EventBatch batch) {
                        boolean tools = !batch.requests().isEmpty()
                                && batch.requests().get(0).sourceMode() == InvocationMode.CHAT_AGENT_TOOLS;
                        return (tools ? trusting : reference).submit(batch);
                    }

                    @Override
                    public void close() {
                        reference.close();
                        trusting.close();
                    }
                };
            };
        }
    }

    /** A deduplicated event names itself as the event it duplicates, not the earlier one it shares an outcome with. */
    public static final class DeduplicatedNamesItself extends Broken {
        @Override
        public EventKernelFactory kernels() {
            return changingResults(result -> withResults(result, event -> event.outcome()
                    instanceof EventOutcome.Deduplicated deduplicated
                    ? new EventResult(event.eventId(), event.name(), event.orderIndex(), event.arguments(),
                    event.resolution(), event.timings(),
                    new EventOutcome.Deduplicated(event.eventId(), deduplicated.primaryOutcome()))
                    : event));
        }
    }
}
