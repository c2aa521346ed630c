package io.agentlab.engine.internal.suite;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.agentlab.engine.expect.Expectations;
import io.agentlab.engine.internal.yaml.Position;
import io.agentlab.kernel.api.InvocationMode;
import io.agentlab.kernel.api.JsonValues;
import io.agentlab.kernel.api.ResultPolicy;
import io.agentlab.runtime.usage.PricingCatalog;
import io.agentlab.providers.recorded.LatencyModel;
import io.agentlab.providers.recorded.ProviderFamily;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.apiguardian.api.API;
import io.agentlab.runtime.protocol.ProposedEvent;

/**
 * A loaded, checked conformance suite (format: {@code docs/suite-format.md}).
 *
 * @param id       stable id, the root of its test nodes' unique ids
 * @param title    display name
 * @param spec     the specification it checks
 * @param tags     tags every case inherits
 * @param modes    the modes its cases run in
 * @param kernel   kernel configuration
 * @param session  session settings
 * @param provider how scripted turns are synthesized
 * @param probes   probe events declared for batch-semantics cases
 * @param unknownEvents names the suite uses on purpose that no kernel offers (a model naming an event that does not
 *                      exist); any other unknown name is refused as a typo
 * @param cases    the cases, in file order
 * @param origin   where it was loaded from
 * @param at       where the suite starts
 */
@API(status = INTERNAL, since = "0.1")
public record Suite(String id, String title, String spec, List<String> tags, List<InvocationMode> modes,
                    KernelSettings kernel, SessionSettings session, ProviderSettings provider, List<Probe> probes,
                    List<String> unknownEvents, List<Case> cases, SuiteOrigin origin, Position at) {

    /** Copies the collections. */
    public Suite {
        tags = List.copyOf(tags);
        modes = List.copyOf(modes);
        probes = List.copyOf(probes);
        unknownEvents = List.copyOf(unknownEvents);
        cases = List.copyOf(cases);
    }

    /**
     * Kernel configuration.
     *
     * @param events        enabled event names; empty means every event the factory offers
     * @param concurrency   the concurrency limit
     * @param batchDeadline the batch deadline
     * @param fallbackTimeout the bound of one EventAgent fallback call, when the suite sets it (else the runtime's
     *                        default; {@code docs/design.md#kernel-fallback-bounded})
     */
    public record KernelSettings(List<String> events, int concurrency, Duration batchDeadline,
                                 Optional<Duration> fallbackTimeout) {
        /** Copies the names. */
        public KernelSettings {
            events = List.copyOf(events);
            Objects.requireNonNull(fallbackTimeout, "fallbackTimeout");
        }

        /** Settings on the runtime's default fallback timeout. */
        public KernelSettings(List<String> events, int concurrency, Duration batchDeadline) {
            this(events, concurrency, batchDeadline, Optional.empty());
        }
    }

    /**
     * Session settings.
     *
     * @param timezone the user's zone
     * @param clock    a fixed instant for the session clock, when set
     * @param locale   the session locale
     */
    public record SessionSettings(ZoneId timezone, Optional<Instant> clock, Locale locale) {
    }

    /**
     * How scripted turns become provider streams.
     *
     * @param family  the provider family whose stream shape is synthesized
     * @param model   the model name
     * @param latency the latency model (a model, labelled so in reports)
     * @param pricing the suite's own pricing catalog, when it sets one: its cost expectations are written against it,
     *                so it wins over {@code agentlab.pricing.file} in a replayed run (a live run keeps the configured one,
     *                for its spending cap; {@code docs/design.md#usage-catalog-fallback})
     */
    public record ProviderSettings(ProviderFamily family, String model, LatencyModel latency,
                                   Optional<PricingCatalog> pricing) {
        /** Rejects a null catalog option. */
        public ProviderSettings {
            Objects.requireNonNull(pricing, "pricing");
        }

        /** Settings without a catalog of the suite's own. */
        public ProviderSettings(ProviderFamily family, String model, LatencyModel latency) {
            this(family, model, latency, Optional.empty());
        }
    }

    /**
     * A probe event: an event whose latency, outcome, conflict keys and terminal flag the suite declares.
     *
     * @param name         the event name
     * @param latency      how long the handler works
     * @param outcome      how the handler ends
     * @param conflictKeys resources it holds while running
     * @param terminal     whether it runs after every sibling
     * @param readOnly     read-only (retried once on a transient failure) or side-effecting (never retried)
     * @param policy       its result policy
     * @param timeout      its execution timeout
     * @param traits       what else its definition declares (visibility of failures, required fields, fallback,
     *                     resolver, confirmation) and what its handler waits for
     * @param at           where it is declared
     */
    public record Probe(String name, Duration latency, ProbeOutcome outcome, List<String> conflictKeys,
                        boolean terminal, boolean readOnly, ResultPolicy policy, Duration timeout, ProbeTraits traits,
                        Position at) {
        /** Copies the keys. */
        public Probe {
            conflictKeys = List.copyOf(conflictKeys);
        }
    }

    /**
     * The rest of a probe's definition ({@code docs/design.md#kernel-definition}) and what its handler waits for.
     *
     * @param failureVisible whether its failure messages may be shown to ChatAgent
     * @param requiredFields fields that must be present before it executes
     * @param fallback       whether the EventAgent fallback may fill missing fields
     * @param resolves       the fixed arguments its resolver returns, naming no source (empty: it resolves nothing)
     * @param confirmation   the text its confirmation template renders (empty: {@code <name> done.}; a blank text
     *                       renders nothing, as a broken template does)
     * @param awaits         probes whose handlers must all have started in the case run before this handler goes on
     * @param awaitsAtMost   how long it waits for that at most before it goes on (empty: until then, or until the
     *                       kernel's timeout interrupts it)
     */
    public record ProbeTraits(boolean failureVisible, List<String> requiredFields, boolean fallback,
                              Map<String, Object> resolves, Optional<String> confirmation, List<String> awaits,
                              Optional<Duration> awaitsAtMost) {
        /** What a probe declares when it declares none of these. */
        public static final ProbeTraits NONE = new ProbeTraits(true, List.of(), false, Map.of(), Optional.empty(),
                List.of(), Optional.empty());

        /** Copies the collections. */
        public ProbeTraits {
            requiredFields = List.copyOf(requiredFields);
            awaits = List.copyOf(awaits);
            resolves = JsonValues.copyObject(resolves);
        }
    }

    /** How a probe's handler ends. */
    public enum ProbeOutcome {
        /** Returns success. */
        SUCCEED,
        /** Returns a permanent failure. */
        FAIL,
        /** Returns a transient failure. */
        FAIL_TRANSIENT,
        /** Never returns until interrupted: the event timeout must end it. */
        HANG,
        /** Throws an exception: the kernel must turn it into a failure ({@code docs/design.md#safety-structured-failure}). */
        THROW
    }

    /**
     * One case.
     *
     * @param id     stable id within the suite
     * @param title  display name (defaults to the id)
     * @param clause the clause a failure cites
     * @param tags   the case's tags (the suite's are added)
     * @param modes  the modes it runs in
     * @param turns  its turns, in order
     * @param parity how its parity node compares free-text arguments
     * @param at     where the case starts
     */
    public record Case(String id, String title, String clause, List<String> tags, List<InvocationMode> modes,
                       List<Turn> turns, ParityRules parity, Position at) {
        /** Copies the collections. */
        public Case {
            tags = List.copyOf(tags);
            modes = List.copyOf(modes);
            turns = List.copyOf(turns);
        }
    }

    /**
     * One user turn and what the provider answers.
     *
     * @param user           the user's text
     * @param retransmits    the earlier turn (0-based) this one re-sends under the same turn id, if it is a
     *                       retransmission
     * @param replies        the scripted ChatAgent reply per mode (empty when recordings answer)
     * @param followUp       the scripted second answer
     * @param eventAgent     the scripted EventAgent JSON output
     * @param recordings     recording ids answering the turn (empty when scripted)
     * @param faults         per event name, the fault its handler shows in this turn instead of calling its port
     * @param providerFaults faults injected into particular model calls of the turn
     * @param expect         what must hold afterwards, in every mode
     * @param expectByMode   what must also hold in one mode
     * @param interrupt      the user interrupting the turn while one of its events runs, if it does
     * @param at             where the turn starts
     */
    public record Turn(String user, Optional<Integer> retransmits, Map<InvocationMode, Reply> replies,
                       Optional<String> followUp, Optional<String> eventAgent, List<String> recordings,
                       Map<String, HandlerFault> faults, List<ProviderFault> providerFaults, Expectations expect,
                       Map<InvocationMode, Expectations> expectByMode, Optional<Interruption> interrupt,
                       Position at) {
        /** Copies the collections. */
        public Turn {
            replies = Map.copyOf(replies);
            recordings = List.copyOf(recordings);
            faults = Map.copyOf(faults);
            providerFaults = List.copyOf(providerFaults);
            expectByMode = Map.copyOf(expectByMode);
        }

        /** A turn answered by {@code replies} (and optionally a follow-up and an EventAgent output), nothing else. */
        public static Turn scripted(String user, Map<InvocationMode, Reply> replies, Optional<String> followUp,
                                    Optional<String> eventAgent, Expectations expect) {
            return new Turn(user, Optional.empty(), replies, followUp, eventAgent, List.of(), Map.of(), List.of(),
                    expect, Map.of(), Optional.empty(), Position.UNKNOWN);
        }
    }

    /**
     * The user interrupting a turn (barge-in, docs/design.md#audit-run-canceled): once a handler of
     * {@code whileRunning} has started, the engine interrupts the turn, which must then end cancelled.
     *
     * @param whileRunning the event whose handler start triggers the interruption
     * @param at           where it is written
     */
    public record Interruption(String whileRunning, Position at) {
    }

    /**
     * A fault a handler shows instead of calling its port (a port that is down, slow or refusing).
     *
     * @param code      the failure code
     * @param message   the failure message
     * @param transientFailure whether a retry could succeed
     * @param hang      never return until the kernel's timeout interrupts it
     */
    public record HandlerFault(String code, String message, boolean transientFailure, boolean hang) {
    }

    /**
     * A scripted ChatAgent reply.
     *
     * @param visible the visible text
     * @param events  proposed events, in order
     */
    public record Reply(String visible, List<ProposedEvent> events) {
        /** Copies the events. */
        public Reply {
            events = List.copyOf(events);
        }
    }

    /**
     * An event the scripted model proposes.
     *
     * @param name          the event name
     * @param argumentsJson the arguments a tools-mode model sends (canonical JSON)
     * @param unknown       a name the suite declares deliberately unknown: a tools-mode model sends it as written,
     *                      there being no alias of it to send
     * @param callId        the tool-call id a tools-mode model streams, or {@code null} for the synthesizer's own
     *                      ({@code call_<n>}); a suite sets it to send a blank or repeated id
     *                      ({@code docs/design.md#modes-same-batch})
     */
    public record ProposedEvent(String name, String argumentsJson, boolean unknown, String callId) {
        /** An event the kernel offers, with the synthesizer's call id. */
        public ProposedEvent(String name, String argumentsJson) {
            this(name, argumentsJson, false, null);
        }
    }
}
