package io.agentlab.runtime.service;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.agentlab.kernel.api.InvocationMode;
import io.agentlab.kernel.api.JsonValues;
import io.agentlab.kernel.api.ResultPolicy;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * A thread's settings as the kit sends them in {@code forwardedProps.agentlab} (docs/wire.md#conventions): identical on
 * every run of a thread, so the service reads them once, when the thread's first run arrives.
 *
 * @param mode          the invocation mode
 * @param events        the enabled events, exactly (built-in names and probe names)
 * @param probes        the probe events to register for the thread
 * @param concurrency   the kernel's concurrency limit
 * @param batchDeadline the batch deadline
 * @param fallbackBound the EventAgent fallback's bound (empty: the runtime's default)
 * @param timezone      the session's time zone
 * @param locale        the session's locale
 * @param clock         the instant every "now" of the thread reads (empty: the real clock)
 * @param model         ChatAgent's model name
 * @param persona       ChatAgent's persona
 * @param retransmitOf  on a retransmission, the turn id of the turn re-sent (this run's value, not the thread's)
 */
@API(status = INTERNAL, since = "0.1")
public record WireSettings(InvocationMode mode, List<String> events, List<Probe> probes, int concurrency,
                           Duration batchDeadline, Optional<Duration> fallbackBound, ZoneId timezone, Locale locale,
                           Optional<Instant> clock, String model, String persona, Optional<String> retransmitOf) {

    /** The contract this service implements. */
    public static final String CONTRACT = "agentlab-wire/1";

    /** Copies the lists. */
    public WireSettings {
        events = List.copyOf(events);
        probes = List.copyOf(probes);
    }

    /**
     * A probe event's definition as the kit sends it (docs/wire.md#probes).
     *
     * @param name           the event name
     * @param description    its catalogue description (as in-process, so both prompts are the same)
     * @param schema         its arguments schema, JSON text
     * @param policy         its result policy
     * @param terminal       whether it ends the session
     * @param readOnly       read-only (retried once on a transient failure) or side-effecting
     * @param timeout        its per-event timeout
     * @param conflictKeys   its conflict keys, {@code {argument}} placeholders allowed
     * @param requiredFields fields that must be present before it runs
     * @param fallback       whether the EventAgent fallback may fill missing fields
     * @param failureVisible whether its failure messages may reach ChatAgent
     * @param resolves       the fixed arguments its resolver returns
     * @param confirmation   its template confirmation's text (empty: {@code <name> done.})
     */
    public record Probe(String name, String description, String schema, ResultPolicy policy, boolean terminal,
                        boolean readOnly, Duration timeout, List<String> conflictKeys, List<String> requiredFields,
                        boolean fallback, boolean failureVisible, Map<String, Object> resolves,
                        Optional<String> confirmation) {
        /** Copies the collections. */
        public Probe {
            conflictKeys = List.copyOf(conflictKeys);
            requiredFields = List.copyOf(requiredFields);
            resolves = JsonValues.copyObject(resolves);
        }
    }

    /**
     * Reads {@code forwardedProps.agentlab}.
     *
     * @throws IllegalArgumentException naming the first field that is missing or malformed
     */
    @SuppressWarnings("unchecked")
    public static WireSettings read(Map<String, Object> agentlab) {
        Object contract = agentlab.get("contract");
        if (contract != null && !CONTRACT.equals(contract)) {
            throw new IllegalArgumentException("forwardedProps.agentlab.contract is " + contract + "; this runtime "
                    + "serves " + CONTRACT);
        }
        Map<String, Object> kernel = object(agentlab, "kernel");
        Map<String, Object> session = object(agentlab, "session");
        List<Probe> probes = new ArrayList<>();
        for (Object item : list(agentlab, "probes")) {
            Map<String, Object> probe = (Map<String, Object>) item;
            String name = text(probe, "name").orElseThrow(() -> missing("probes[].name"));
            probes.add(new Probe(name, text(probe, "description").orElse(name),
                    io.agentlab.runtime.llm.Json.write(probe.getOrDefault("schema", Map.of("type", "object"))),
                    policy(text(probe, "policy").orElse(ResultPolicy.SILENT_SUCCESS.wireName())),
                    Boolean.TRUE.equals(probe.get("terminal")), Boolean.TRUE.equals(probe.get("readOnly")),
                    Duration.ofMillis(number(probe, "timeoutMs").orElse(2000L)),
                    strings(probe, "conflictKeys"), strings(probe, "requiredFields"),
                    Boolean.TRUE.equals(probe.get("fallback")), !Boolean.FALSE.equals(probe.get("failureVisible")),
                    probe.get("resolves") instanceof Map<?, ?> resolves ? (Map<String, Object>) resolves : Map.of(),
                    text(probe, "confirmation")));
        }
        return new WireSettings(
                InvocationMode.fromWireName(text(agentlab, "mode").orElseThrow(() -> missing("mode"))),
                strings(agentlab, "events"), probes,
                number(kernel, "concurrency").map(Long::intValue).orElse(4),
                Duration.ofMillis(number(kernel, "batchDeadlineMs").orElse(15_000L)),
                number(kernel, "fallbackTimeoutMs").map(Duration::ofMillis),
                ZoneId.of(text(session, "timezone").orElse("UTC")),
                Locale.forLanguageTag(text(session, "locale").orElse("en")),
                text(session, "clock").map(Instant::parse),
                text(agentlab, "model").orElse("gpt-4o-mini"),
                text(agentlab, "persona").orElse("You are a helpful assistant."),
                text(agentlab, "retransmitOf"));
    }

    private static ResultPolicy policy(String wireName) {
        return Arrays.stream(ResultPolicy.values()).filter(policy -> policy.wireName().equals(wireName)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown probe policy '" + wireName + "'"));
    }

    private static IllegalArgumentException missing(String field) {
        return new IllegalArgumentException("forwardedProps.agentlab." + field + " is missing");
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> object(Map<String, Object> map, String key) {
        return map.get(key) instanceof Map<?, ?> value ? (Map<String, Object>) value : Map.of();
    }

    private static List<?> list(Map<String, Object> map, String key) {
        return map.get(key) instanceof List<?> value ? value : List.of();
    }

    private static List<String> strings(Map<String, Object> map, String key) {
        return list(map, key).stream().map(Objects::toString).toList();
    }

    private static Optional<String> text(Map<String, Object> map, String key) {
        return map.get(key) instanceof String value ? Optional.of(value) : Optional.empty();
    }

    private static Optional<Long> number(Map<String, Object> map, String key) {
        return map.get(key) instanceof Number value ? Optional.of(value.longValue()) : Optional.empty();
    }
}
