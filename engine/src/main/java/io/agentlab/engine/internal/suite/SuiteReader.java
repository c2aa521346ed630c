package io.agentlab.engine.internal.suite;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.agentlab.kernel.api.CanonicalJson;
import io.agentlab.kernel.api.InvocationMode;
import io.agentlab.kernel.api.KernelLimits;
import io.agentlab.kernel.api.ResultPolicy;
import io.agentlab.providers.recorded.LatencyModel;
import io.agentlab.providers.recorded.ProviderFamily;
import io.agentlab.providers.recorded.Recording;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import org.apiguardian.api.API;

/**
 * Turns a suite file into a {@link Suite}, or into the {@link SuiteProblem}s that stop it: YAML syntax, the JSON
 * Schema, then what a schema cannot say (unknown events and recordings, duplicate ids, zones, clocks, durations,
 * patterns, modes, expectations on events that are not enabled).
 */
@API(status = INTERNAL, since = "0.1")
public final class SuiteReader {

    /** The latency model of synthesized streams when a suite names none (a model; reported as such). */
    public static final LatencyModel DEFAULT_LATENCY = new LatencyModel(40, 0.02, 4);
    /** The model name when a suite names none. */
    public static final String DEFAULT_MODEL = "gpt-4o-mini";
    /** A probe's timeout when the suite names none. */
    public static final Duration DEFAULT_PROBE_TIMEOUT = Duration.ofSeconds(2);

    /**
     * What a suite is checked against.
     *
     * @param knownEvents the events the kernel factory offers
     * @param recordings  where recording ids resolve
     */
    public record Context(Set<String> knownEvents, RecordingLibrary recordings) {
        /** Copies the names. */
        public Context {
            knownEvents = Set.copyOf(knownEvents);
        }
    }

    /**
     * What loading gave.
     *
     * @param suite    the suite, when it has no problem
     * @param problems every problem found
     */
    public record Result(Optional<Suite> suite, List<SuiteProblem> problems) {
        /** Copies the problems. */
        public Result {
            problems = List.copyOf(problems);
        }
    }

    private final Context context;
    private final SuiteOrigin origin;
    private final List<SuiteProblem> problems = new ArrayList<>();

    private SuiteReader(Context context, SuiteOrigin origin) {
        this.context = context;
        this.origin = origin;
    }

    /** Reads and checks one suite file's text. */
    public static Result read(SuiteOrigin origin, String text, Context context) {
        return new SuiteReader(context, origin).read(text);
    }

    private Result read(String text) {
        YamlReader.Result yaml = YamlReader.read(origin.display(), text);
        problems.addAll(yaml.problems());
        if (yaml.document() == null) {
            return new Result(Optional.empty(), problems);
        }
        if (!(yaml.document() instanceof YamlNode.Mapping root)) {
            problem(yaml.document().at(), "", "a suite is a mapping with id, title and cases; found "
                    + describe(yaml.document()));
            return new Result(Optional.empty(), problems);
        }
        problems.addAll(SuiteSchema.validate(origin.display(), root));
        if (!problems.isEmpty()) {
            return new Result(Optional.empty(), problems);
        }
        Suite suite = suite(root);
        return new Result(problems.isEmpty() ? Optional.of(suite) : Optional.empty(), problems);
    }

    private Suite suite(YamlNode.Mapping root) {
        List<InvocationMode> modes = modes(root.get("modes"), List.of(InvocationMode.values()), "modes");
        List<Suite.Probe> probes = new ArrayList<>();
        Set<String> probeNames = new LinkedHashSet<>();
        if (root.get("probes") instanceof YamlNode.Sequence list) {
            for (int i = 0; i < list.items().size(); i++) {
                Suite.Probe probe = probe((YamlNode.Mapping) list.items().get(i), "probes[" + i + "]");
                if (context.knownEvents().contains(probe.name())) {
                    problem(probe.at(), "probes[" + i + "].name", "probe '" + probe.name()
                            + "' has the name of an event the kernel factory offers; probes need their own names");
                } else if (!probeNames.add(probe.name())) {
                    problem(probe.at(), "probes[" + i + "].name", "duplicate probe '" + probe.name() + "'");
                }
                probes.add(probe);
            }
        }
        Suite.KernelSettings kernel = kernel(root.get("kernel"), probeNames);
        Set<String> enabled = new LinkedHashSet<>(kernel.events().isEmpty() ? context.knownEvents() : kernel.events());
        enabled.addAll(probeNames);
        Suite.SessionSettings session = session(root.get("session"));
        Suite.ProviderSettings provider = provider(root.get("provider"));
        List<Suite.Case> cases = new ArrayList<>();
        Map<String, Position> caseIds = new HashMap<>();
        YamlNode.Sequence caseNodes = (YamlNode.Sequence) root.get("cases");
        for (int i = 0; i < caseNodes.items().size(); i++) {
            YamlNode.Mapping node = (YamlNode.Mapping) caseNodes.items().get(i);
            String path = "cases[" + i + "]";
            Suite.Case item = testCase(node, path, modes, enabled);
            Position first = caseIds.putIfAbsent(item.id(), item.at());
            if (first != null) {
                problem(node.entries().get("id").keyAt(), path + ".id", "duplicate case id '" + item.id()
                        + "'; first used at " + first + " (unique ids derive from it)");
            }
            cases.add(item);
        }
        return new Suite(text(root, "id"), text(root, "title"), optionalText(root, "spec").orElse(""),
                strings(root.get("tags")), modes, kernel, session, provider, probes, cases, origin, root.at());
    }

    private Suite.KernelSettings kernel(YamlNode node, Set<String> probeNames) {
        if (!(node instanceof YamlNode.Mapping kernel)) {
            return new Suite.KernelSettings(List.of(), KernelLimits.DEFAULT_CONCURRENCY_LIMIT,
                    KernelLimits.DEFAULT_BATCH_DEADLINE);
        }
        List<String> events = new ArrayList<>();
        if (kernel.get("events") instanceof YamlNode.Sequence list) {
            for (int i = 0; i < list.items().size(); i++) {
                YamlNode.Scalar name = (YamlNode.Scalar) list.items().get(i);
                if (!context.knownEvents().contains(name.text()) && !probeNames.contains(name.text())) {
                    problem(name.at(), "kernel.events[" + i + "]", unknownEvent(name.text()));
                }
                events.add(name.text());
            }
        }
        int concurrency = kernel.get("concurrency") instanceof YamlNode.Scalar limit
                ? ((Number) limit.value()).intValue() : KernelLimits.DEFAULT_CONCURRENCY_LIMIT;
        Duration deadline = KernelLimits.DEFAULT_BATCH_DEADLINE;
        if (kernel.get("batchDeadline") instanceof YamlNode.Scalar value) {
            deadline = duration(value, "kernel.batchDeadline");
            if (deadline.isZero() || deadline.compareTo(KernelLimits.MAX_BATCH_DEADLINE) > 0) {
                problem(value.at(), "kernel.batchDeadline", "batch deadline must be positive and at most "
                        + KernelLimits.MAX_BATCH_DEADLINE.toMinutes() + "m, was " + value.text());
                deadline = KernelLimits.DEFAULT_BATCH_DEADLINE;
            }
        }
        return new Suite.KernelSettings(events, concurrency, deadline);
    }

    private Suite.SessionSettings session(YamlNode node) {
        ZoneId zone = ZoneId.of("UTC");
        Optional<Instant> clock = Optional.empty();
        Locale locale = Locale.ENGLISH;
        if (node instanceof YamlNode.Mapping session) {
            if (session.get("timezone") instanceof YamlNode.Scalar value) {
                try {
                    zone = ZoneId.of(value.text());
                } catch (DateTimeException e) {
                    problem(value.at(), "session.timezone", "unknown time zone '" + value.text()
                            + "'; expected an IANA id such as Asia/Shanghai or UTC");
                }
            }
            if (session.get("clock") instanceof YamlNode.Scalar value) {
                try {
                    clock = Optional.of(OffsetDateTime.parse(value.text()).toInstant());
                } catch (DateTimeException e) {
                    problem(value.at(), "session.clock", "not an ISO-8601 instant with offset: '" + value.text()
                            + "'; expected e.g. 2026-11-30T09:00:00+08:00");
                }
            }
            if (session.get("locale") instanceof YamlNode.Scalar value) {
                locale = Locale.forLanguageTag(value.text());
                if (locale.getLanguage().isEmpty()) {
                    problem(value.at(), "session.locale", "not a BCP 47 language tag: '" + value.text() + "'");
                    locale = Locale.ENGLISH;
                }
            }
        }
        return new Suite.SessionSettings(zone, clock, locale);
    }

    private Suite.ProviderSettings provider(YamlNode node) {
        ProviderFamily family = ProviderFamily.OPENAI;
        String model = DEFAULT_MODEL;
        LatencyModel latency = DEFAULT_LATENCY;
        if (node instanceof YamlNode.Mapping provider) {
            family = optionalText(provider, "family").map(ProviderFamily::fromWireName)
                    .orElse(family);
            model = optionalText(provider, "model").orElse(model);
            if (provider.get("latency") instanceof YamlNode.Mapping l) {
                latency = new LatencyModel(number(l, "firstTokenMs", DEFAULT_LATENCY.firstTokenBaseMs()),
                        number(l, "perPromptTokenMs", DEFAULT_LATENCY.firstTokenPerPromptTokenMs()),
                        number(l, "perChunkMs", DEFAULT_LATENCY.perChunkMs()));
            }
        }
        return new Suite.ProviderSettings(family, model, latency);
    }

    private Suite.Probe probe(YamlNode.Mapping node, String path) {
        Duration latency = node.get("latency") instanceof YamlNode.Scalar value ? duration(value, path + ".latency")
                : Duration.ZERO;
        Duration timeout = node.get("timeout") instanceof YamlNode.Scalar value ? duration(value, path + ".timeout")
                : DEFAULT_PROBE_TIMEOUT;
        if (timeout.isZero()) {
            problem(node.get("timeout").at(), path + ".timeout", "a timeout must be positive");
            timeout = DEFAULT_PROBE_TIMEOUT;
        }
        Suite.ProbeOutcome outcome = optionalText(node, "outcome")
                .map(o -> Suite.ProbeOutcome.valueOf(o.toUpperCase(Locale.ROOT))).orElse(Suite.ProbeOutcome.SUCCEED);
        boolean terminal = bool(node, "terminal");
        ResultPolicy policy = optionalText(node, "policy").map(SuiteReader::policy)
                .orElse(terminal ? ResultPolicy.TERMINATE : ResultPolicy.SILENT_SUCCESS);
        return new Suite.Probe(text(node, "name"), latency, outcome, strings(node.get("conflictKeys")), terminal,
                bool(node, "readOnly"), policy, timeout, node.at());
    }

    private Suite.Case testCase(YamlNode.Mapping node, String path, List<InvocationMode> suiteModes,
                                Set<String> enabled) {
        List<InvocationMode> modes = modes(node.get("modes"), suiteModes, path + ".modes");
        for (InvocationMode mode : modes) {
            if (!suiteModes.contains(mode)) {
                problem(node.get("modes").at(), path + ".modes", "mode " + mode.wireName()
                        + " is not one of the suite's modes " + suiteModes.stream().map(InvocationMode::wireName).toList());
            }
        }
        List<Suite.Turn> turns = new ArrayList<>();
        YamlNode.Sequence turnNodes = (YamlNode.Sequence) node.get("turns");
        for (int i = 0; i < turnNodes.items().size(); i++) {
            turns.add(turn((YamlNode.Mapping) turnNodes.items().get(i), path + ".turns[" + i + "]", modes, enabled));
        }
        String id = text(node, "id");
        return new Suite.Case(id, optionalText(node, "title").orElse(id), text(node, "clause"),
                strings(node.get("tags")), modes, turns, node.at());
    }

    private Suite.Turn turn(YamlNode.Mapping node, String path, List<InvocationMode> modes, Set<String> enabled) {
        String user = text(node, "user");
        Map<InvocationMode, Suite.Reply> replies = new EnumMap<>(InvocationMode.class);
        Suite.Reply common = node.get("reply") instanceof YamlNode.Mapping reply
                ? reply(reply, path + ".reply", enabled) : null;
        for (InvocationMode mode : modes) {
            YamlNode byMode = node.get("replyByMode") instanceof YamlNode.Mapping map ? map.get(mode.wireName()) : null;
            Suite.Reply reply = byMode instanceof YamlNode.Mapping m
                    ? reply(m, path + ".replyByMode." + mode.wireName(), enabled) : common;
            if (reply != null) {
                replies.put(mode, reply);
            }
        }
        List<String> recordings = strings(node.get("recordings"));
        boolean scripted = node.get("reply") != null || node.get("replyByMode") != null;
        if (scripted && !recordings.isEmpty()) {
            problem(node.entries().get("recordings").keyAt(), path + ".recordings",
                    "a turn is answered by a scripted reply or by recordings, not both");
        } else if (recordings.isEmpty()) {
            for (InvocationMode mode : modes) {
                if (!replies.containsKey(mode)) {
                    problem(node.at(), path, "no provider answer for mode " + mode.wireName()
                            + "; expected 'reply', 'replyByMode." + mode.wireName() + "' or 'recordings'");
                }
            }
        } else {
            checkRecordings(node, path, user, modes);
        }
        Optional<String> eventAgent = node.get("eventAgent") instanceof YamlNode.Mapping output
                ? Optional.of(CanonicalJson.write(castMap(output.plain()))) : Optional.empty();
        Expectations expect = node.get("expect") instanceof YamlNode.Mapping e
                ? expectations(e, path + ".expect", enabled) : Expectations.none();
        Map<String, Suite.HandlerFault> faults = new LinkedHashMap<>();
        if (node.get("handlerFaults") instanceof YamlNode.Mapping map) {
            map.entries().forEach((name, entry) -> {
                checkEnabledKey(entry.keyAt(), path + ".handlerFaults." + name, name, enabled);
                YamlNode.Mapping fault = (YamlNode.Mapping) entry.value();
                faults.put(name, new Suite.HandlerFault(optionalText(fault, "code").orElse("port_unavailable"),
                        optionalText(fault, "message").orElse(name + " is unavailable"), bool(fault, "transient"),
                        bool(fault, "hang")));
            });
        }
        return new Suite.Turn(user, replies, optionalText(node, "followUp"), eventAgent, recordings, faults, expect,
                node.at());
    }

    private void checkRecordings(YamlNode.Mapping node, String path, String user, List<InvocationMode> modes) {
        YamlNode.Sequence list = (YamlNode.Sequence) node.get("recordings");
        Set<InvocationMode> answered = new LinkedHashSet<>();
        for (int i = 0; i < list.items().size(); i++) {
            YamlNode.Scalar id = (YamlNode.Scalar) list.items().get(i);
            Optional<Recording> recording;
            try {
                recording = context.recordings().find(id.text());
            } catch (RuntimeException e) {
                problem(id.at(), path + ".recordings[" + i + "]", e.getMessage());
                continue;
            }
            if (recording.isEmpty()) {
                problem(id.at(), path + ".recordings[" + i + "]", "unknown recording '" + id.text()
                        + "'; looked in " + context.recordings().describe());
                continue;
            }
            var matcher = recording.get().request();
            if (!matcher.lastUserMessage().strip().equalsIgnoreCase(user.strip())) {
                problem(id.at(), path + ".recordings[" + i + "]", "recording '" + id.text() + "' answers \""
                        + matcher.lastUserMessage() + "\", not this turn's user text \"" + user + "\"");
            }
            if ("chat".equals(matcher.role())) {
                for (InvocationMode mode : modes) {
                    if (matcher.answers(mode.wireName())) {
                        answered.add(mode);
                    }
                }
            }
        }
        for (InvocationMode mode : modes) {
            if (!answered.contains(mode) && problems.stream().noneMatch(p -> p.key().startsWith(path + ".recordings"))) {
                problem(list.at(), path + ".recordings", "no chat recording for mode " + mode.wireName()
                        + "; each mode the case runs in needs one");
            }
        }
    }

    private Suite.Reply reply(YamlNode.Mapping node, String path, Set<String> enabled) {
        List<Suite.ProposedEvent> events = new ArrayList<>();
        if (node.get("events") instanceof YamlNode.Sequence list) {
            for (int i = 0; i < list.items().size(); i++) {
                YamlNode.Mapping event = (YamlNode.Mapping) list.items().get(i);
                String name = text(event, "name");
                if (!enabled.contains(name)) {
                    problem(event.get("name").at(), path + ".events[" + i + "].name", notEnabled(name));
                }
                Map<String, Object> arguments = event.get("arguments") instanceof YamlNode.Mapping args
                        ? castMap(args.plain()) : Map.of();
                events.add(new Suite.ProposedEvent(name, CanonicalJson.write(arguments)));
            }
        }
        return new Suite.Reply(text(node, "visible"), events);
    }

    private Expectations expectations(YamlNode.Mapping node, String path, Set<String> enabled) {
        Optional<List<Expectations.EventExpectation>> events = Optional.empty();
        if (node.get("events") instanceof YamlNode.Sequence list) {
            List<Expectations.EventExpectation> expected = new ArrayList<>();
            for (int i = 0; i < list.items().size(); i++) {
                YamlNode.Mapping event = (YamlNode.Mapping) list.items().get(i);
                String name = text(event, "name");
                checkEnabled(event.get("name"), path + ".events[" + i + "].name", name, enabled);
                Optional<Map<String, Object>> arguments = event.get("arguments") instanceof YamlNode.Mapping args
                        ? Optional.of(castMap(args.plain())) : Optional.empty();
                expected.add(new Expectations.EventExpectation(name, arguments,
                        optionalText(event, "match").map("exact"::equals).orElse(false),
                        optionalText(event, "status"), event.at()));
            }
            events = Optional.of(expected);
        }
        Map<String, Integer> calls = new LinkedHashMap<>();
        if (node.get("calls") instanceof YamlNode.Mapping map) {
            map.entries().forEach((role, entry) -> calls.put(role, ((Number) ((YamlNode.Scalar) entry.value()).value())
                    .intValue()));
        }
        List<String> contains = List.of();
        List<String> notContains = List.of();
        List<Pattern> matches = new ArrayList<>();
        if (node.get("visible") instanceof YamlNode.Mapping visible) {
            contains = strings(visible.get("contains"));
            notContains = strings(visible.get("notContains"));
            if (visible.get("matches") instanceof YamlNode.Sequence patterns) {
                for (int i = 0; i < patterns.items().size(); i++) {
                    YamlNode.Scalar pattern = (YamlNode.Scalar) patterns.items().get(i);
                    try {
                        matches.add(Pattern.compile(pattern.text()));
                    } catch (PatternSyntaxException e) {
                        problem(pattern.at(), path + ".visible.matches[" + i + "]", "invalid regular expression: "
                                + e.getDescription() + " near index " + e.getIndex());
                    }
                }
            }
        }
        Map<String, Integer> portCalls = new LinkedHashMap<>();
        if (node.get("portCalls") instanceof YamlNode.Mapping map) {
            map.entries().forEach((name, entry) -> {
                checkEnabledKey(entry.keyAt(), path + ".portCalls." + name, name, enabled);
                portCalls.put(name, ((Number) ((YamlNode.Scalar) entry.value()).value()).intValue());
            });
        }
        Optional<Expectations.Batch> batch = node.get("batch") instanceof YamlNode.Mapping b
                ? Optional.of(batch(b, path + ".batch", enabled)) : Optional.empty();
        Optional<Boolean> ended = node.get("sessionEnded") instanceof YamlNode.Scalar s
                ? Optional.of((Boolean) s.value()) : Optional.empty();
        return new Expectations(events, optionalText(node, "policy"),
                node.get("answers") instanceof YamlNode.Scalar a ? Optional.of(((Number) a.value()).intValue())
                        : Optional.empty(),
                calls, new Expectations.Visible(contains, notContains, matches), strings(node.get("audit")),
                bool(node, "auditValid"), portCalls, ended, batch, optionalText(node, "error"), usage(node.get("usage")));
    }

    private static Expectations.Usage usage(YamlNode node) {
        if (!(node instanceof YamlNode.Mapping usage)) {
            return new Expectations.Usage(Optional.empty(), Optional.empty(), Optional.empty());
        }
        return new Expectations.Usage(optionalText(usage, "costSource"),
                usage.get("cachedPromptTokens") instanceof YamlNode.Scalar c
                        ? Optional.of(((Number) c.value()).intValue()) : Optional.empty(),
                usage.get("reported") instanceof YamlNode.Scalar r ? Optional.of((Boolean) r.value()) : Optional.empty());
    }

    private Expectations.Batch batch(YamlNode.Mapping node, String path, Set<String> enabled) {
        List<String> order = strings(node.get("order"));
        if (node.get("order") instanceof YamlNode.Sequence list) {
            for (int i = 0; i < list.items().size(); i++) {
                checkEnabled(list.items().get(i), path + ".order[" + i + "]", order.get(i), enabled);
            }
        }
        List<Expectations.StartsAfter> startsAfter = new ArrayList<>();
        if (node.get("startsAfter") instanceof YamlNode.Sequence list) {
            for (int i = 0; i < list.items().size(); i++) {
                YamlNode.Mapping relation = (YamlNode.Mapping) list.items().get(i);
                String event = text(relation, "event");
                String at = path + ".startsAfter[" + i + "]";
                checkEnabled(relation.get("event"), at + ".event", event, enabled);
                List<String> after = new ArrayList<>();
                if (relation.get("after") instanceof YamlNode.Scalar one) {
                    after.add(one.text());
                    checkEnabled(one, at + ".after", one.text(), enabled);
                }
                if (relation.get("afterAnyOf") instanceof YamlNode.Sequence any) {
                    for (int j = 0; j < any.items().size(); j++) {
                        String name = ((YamlNode.Scalar) any.items().get(j)).text();
                        checkEnabled(any.items().get(j), at + ".afterAnyOf[" + j + "]", name, enabled);
                        after.add(name);
                    }
                }
                if (after.contains(event)) {
                    problem(relation.at(), at, "an event cannot start after itself");
                }
                if (!after.isEmpty()) {
                    startsAfter.add(new Expectations.StartsAfter(event, after));
                }
            }
        }
        Map<String, String> statuses = new LinkedHashMap<>();
        if (node.get("statuses") instanceof YamlNode.Mapping map) {
            map.entries().forEach((name, entry) -> {
                checkEnabledKey(entry.keyAt(), path + ".statuses." + name, name, enabled);
                statuses.put(name, ((YamlNode.Scalar) entry.value()).text());
            });
        }
        Optional<Integer> max = node.get("maxConcurrency") instanceof YamlNode.Scalar m
                ? Optional.of(((Number) m.value()).intValue()) : Optional.empty();
        return new Expectations.Batch(order, startsAfter, max, statuses);
    }

    private void checkEnabled(YamlNode node, String path, String name, Set<String> enabled) {
        checkEnabledKey(node.at(), path, name, enabled);
    }

    private void checkEnabledKey(Position at, String path, String name, Set<String> enabled) {
        if (!enabled.contains(name)) {
            problem(at, path, "expectation on " + notEnabled(name));
        }
    }

    private String notEnabled(String name) {
        return context.knownEvents().contains(name) ? "event '" + name + "', which kernel.events does not enable"
                : unknownEvent(name);
    }

    private String unknownEvent(String name) {
        return "unknown event '" + name + "'; the kernel factory offers " + context.knownEvents().stream().sorted()
                .toList() + " and the suite declares no probe of that name";
    }

    private List<InvocationMode> modes(YamlNode node, List<InvocationMode> fallback, String path) {
        if (!(node instanceof YamlNode.Sequence list)) {
            return fallback;
        }
        List<InvocationMode> modes = new ArrayList<>();
        for (YamlNode item : list.items()) {
            modes.add(InvocationMode.fromWireName(((YamlNode.Scalar) item).text()));
        }
        return modes;
    }

    private Duration duration(YamlNode.Scalar value, String path) {
        try {
            return Durations.parse(value.text());
        } catch (IllegalArgumentException e) {
            problem(value.at(), path, e.getMessage());
            return Duration.ZERO;
        }
    }

    private void problem(Position at, String key, String message) {
        problems.add(new SuiteProblem(origin.display(), at, key, message));
    }

    private static ResultPolicy policy(String wireName) {
        for (ResultPolicy policy : ResultPolicy.values()) {
            if (policy.wireName().equals(wireName)) {
                return policy;
            }
        }
        throw new IllegalArgumentException(wireName); // the schema's enum makes this unreachable
    }

    private static String text(YamlNode.Mapping node, String key) {
        return ((YamlNode.Scalar) node.get(key)).text();
    }

    private static Optional<String> optionalText(YamlNode.Mapping node, String key) {
        return node.get(key) instanceof YamlNode.Scalar scalar && scalar.value() != null
                ? Optional.of(scalar.text()) : Optional.empty();
    }

    private static boolean bool(YamlNode.Mapping node, String key) {
        return node.get(key) instanceof YamlNode.Scalar scalar && Boolean.TRUE.equals(scalar.value());
    }

    private static double number(YamlNode.Mapping node, String key, double fallback) {
        return node.get(key) instanceof YamlNode.Scalar scalar ? ((Number) scalar.value()).doubleValue() : fallback;
    }

    private static List<String> strings(YamlNode node) {
        if (!(node instanceof YamlNode.Sequence list)) {
            return List.of();
        }
        return list.items().stream().map(item -> ((YamlNode.Scalar) item).text()).toList();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> castMap(Object plain) {
        return (Map<String, Object>) plain;
    }

    private static String describe(YamlNode node) {
        return node instanceof YamlNode.Sequence ? "a sequence" : "a scalar";
    }
}
