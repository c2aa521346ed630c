package io.agentlab.runtime.service;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.agentlab.kernel.api.ConcurrencyClass;
import io.agentlab.kernel.api.ConflictKeys;
import io.agentlab.kernel.api.EventDefinition;
import io.agentlab.kernel.api.EventPlugin;
import io.agentlab.kernel.api.HandlerResult;
import io.agentlab.kernel.api.KernelLimits;
import io.agentlab.kernel.api.Resolution;
import io.agentlab.kernel.api.RetryPolicy;
import io.agentlab.plugins.BuiltInPlugins;
import io.agentlab.plugins.port.PortException;
import io.agentlab.provider.openai.OpenAiCompatibleClient;
import io.agentlab.runtime.Conversation;
import io.agentlab.runtime.TurnRuntime;
import io.agentlab.runtime.llm.ProviderRegistry;
import io.agentlab.runtime.protocol.RuntimeConfig;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import org.apiguardian.api.API;

/**
 * One AG-UI thread: its conversation (history, session, idempotency scope) and the turn runtime built from the
 * thread's settings (docs/wire.md#conventions) — the enabled built-in events with HTTP ports, the thread's probe events,
 * the batch limits, the session clock and zone, ChatAgent's model and persona.
 *
 * @param settings     the thread's settings, as its first run sent them
 * @param conversation the thread's conversation
 * @param runtime      the thread's turn runtime
 */
@API(status = INTERNAL, since = "0.1")
public record WireThread(WireSettings settings, Conversation conversation, TurnRuntime runtime) {

    private static final String PROVIDER_KEY = "wire";

    /** A new thread {@code threadId} whose runtime calls {@code provider} and {@code ports}. */
    public static WireThread open(String threadId, WireSettings settings, OpenAiCompatibleClient.Config provider,
                                  HttpPorts ports) {
        List<EventDefinition> definitions = new ArrayList<>();
        for (EventPlugin plugin : BuiltInPlugins.builder().session(ports).volume(ports).calendar(ports).search(ports)
                .build()) {
            // exactly the enabled events: a built-in the thread does not enable is not offered (docs/wire.md#conventions)
            if (settings.events().contains(plugin.definition().name())) {
                definitions.add(plugin.definition());
            }
        }
        settings.probes().forEach(probe -> definitions.add(probe(probe, ports)));
        // the thread's clock: every "now" of the thread reads the session clock the suite fixed, in its zone
        Clock clock = settings.clock().map(instant -> Clock.fixed(instant, settings.timezone()))
                .orElseGet(Clock::systemUTC);
        TurnRuntime.Builder builder = TurnRuntime.builder()
                .definitions(definitions.toArray(EventDefinition[]::new))
                .providers(new ProviderRegistry().register(PROVIDER_KEY, new OpenAiCompatibleClient(provider)))
                .config(RuntimeConfig.of(settings.mode(), PROVIDER_KEY, settings.model(), settings.persona()))
                .limits(new KernelLimits(settings.concurrency(), settings.batchDeadline()))
                .clock(clock);
        settings.fallbackBound().ifPresent(builder::fallbackTimeout);
        return new WireThread(settings, new Conversation(threadId, settings.timezone(), settings.locale()),
                builder.build());
    }

    /**
     * A probe event as the kit defines it (docs/wire.md#probes): its traits from the settings, a resolver returning the
     * declared fixed arguments with no source, and a handler that makes exactly one port call,
     * {@code POST /ports/probe/<name>}; the kit's stand-in decides how it ends.
     */
    private static EventDefinition probe(WireSettings.Probe probe, HttpPorts ports) {
        return EventDefinition.builder(probe.name()).schemaVersion("1.0.0")
                .description(probe.description())
                .argumentsSchema(probe.schema())
                .resolver(input -> Resolution.of(probe.resolves()))
                .requiredFields(probe.requiredFields().toArray(String[]::new))
                .fallbackAllowed(probe.fallback())
                .failureVisibleToChatAgent(probe.failureVisible())
                .handler(invocation -> {
                    try {
                        return HandlerResult.success(ports.probe(probe.name(), invocation.turn().scope().sessionId(),
                                invocation.arguments(), invocation.idempotencyKey()));
                    } catch (PortException e) {
                        return new HandlerResult.Failure(e.code(), e.getMessage(), e.isTransient());
                    }
                })
                .resultPolicy(probe.policy())
                .confirmationTemplate((arguments, payload, locale) -> probe.confirmation()
                        .orElse(probe.name() + " done."))
                .timeout(probe.timeout())
                .concurrencyClass(probe.readOnly() ? ConcurrencyClass.READ_ONLY : ConcurrencyClass.SIDE_EFFECTING)
                // a read-only probe is retried once on a transient failure, as the kernel allows read-only events
                .retryPolicy(probe.readOnly() ? RetryPolicy.onceOnTransientFailure() : RetryPolicy.none())
                .conflictKeys(ConflictKeys.templated(probe.conflictKeys()))
                .terminal(probe.terminal())
                .build();
    }
}
