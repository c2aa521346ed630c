package io.agentlab.engine.internal.suite;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.agentlab.engine.expect.ExpectationKinds;
import io.agentlab.engine.expect.ExpectationReading;
import io.agentlab.engine.expect.Expectations;
import io.agentlab.engine.internal.yaml.Durations;
import io.agentlab.engine.internal.yaml.Node;
import io.agentlab.engine.internal.yaml.Position;
import io.agentlab.engine.internal.yaml.Problems;
import io.agentlab.engine.internal.yaml.RoleNames;
import io.agentlab.engine.internal.yaml.SuiteProblem;
import io.agentlab.engine.internal.yaml.YamlNode;
import io.agentlab.engine.internal.yaml.YamlReader;
import io.agentlab.kernel.api.CanonicalJson;
import io.agentlab.kernel.api.EventDefinition;
import io.agentlab.kernel.api.InvocationMode;
import io.agentlab.kernel.api.KernelLimits;
import io.agentlab.kernel.api.ResultPolicy;
import io.agentlab.runtime.llm.CallRole;
import io.agentlab.runtime.usage.PricingCatalog;
import io.agentlab.providers.recorded.InjectedFault;
import io.agentlab.providers.recorded.LatencyModel;
import io.agentlab.providers.recorded.ProviderFamily;
import io.agentlab.providers.recorded.Recording;
import java.nio.ByteBuffer;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.apiguardian.api.API;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Turns a suite file into a {@link Suite}, or into the {@link SuiteProblem}s that stop it: YAML syntax, the JSON
 * Schema, then what a schema cannot say (unknown events and recordings, duplicate ids, zones, clocks, durations,
 * patterns, modes, expectations on events that are not enabled, retransmissions of turns that do not exist, faults on
 * calls that carry no answer). Every value is read through {@link Node}, which checks its type instead of casting.
 */
@API(status = INTERNAL, since = "0.1")
public final class SuiteReader {

    /** The latency model of synthesized streams when a suite names none (a model; reported as such). */
    public static final LatencyModel DEFAULT_LATENCY = new LatencyModel(40, 0.02, 4);
    /** The model name when a suite names none. */
    public static final String DEFAULT_MODEL = "gpt-4o-mini";
    /** A probe's timeout when the suite names none. */
    public static final Duration DEFAULT_PROBE_TIMEOUT = Duration.ofSeconds(2);

    private static final JsonMapper JSON = JsonMapper.builder().build();

    /**
     * What a suite is checked against.
     *
     * @param knownEvents   the events the kernel factory offers
     * @param argumentNames per offered event, the argument names its schema declares (an event absent here is not
     *                      checked)
     * @param recordings    where recording ids resolve
     */
    public record Context(Set<String> knownEvents, Map<String, Set<String>> argumentNames,
                          RecordingLibrary recordings) {
        /** Copies the collections. */
        public Context {
            knownEvents = Set.copyOf(knownEvents);
            argumentNames = Map.copyOf(argumentNames);
        }

        /** A context that does not check argument names. */
        public Context(Set<String> knownEvents, RecordingLibrary recordings) {
            this(knownEvents, Map.of(), recordings);
        }

        /** The context of these definitions: their names, and the properties their schemas declare. */
        public static Context of(List<EventDefinition> definitions, RecordingLibrary recordings) {
            Set<String> names = new LinkedHashSet<>();
            Map<String, Set<String>> arguments = new HashMap<>();
            for (EventDefinition definition : definitions) {
                names.add(definition.name());
                try {
                    JsonNode schema = JSON.readTree(definition.argumentsSchema());
                    // only a closed schema says which names exist; an open one accepts any
                    if (schema.path("properties").isObject() && schema.path("additionalProperties").isBoolean()
                            && !schema.path("additionalProperties").asBoolean()) {
                        arguments.put(definition.name(), new TreeSet<>(schema.path("properties").propertyNames()));
                    }
                } catch (JacksonException e) {
                    // the registry refuses such a schema; without properties the names are simply not checked
                }
            }
            return new Context(names, arguments, recordings);
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
    private final Problems problems;
    /** Names expectations and replies may use: enabled events, probes, declared unknown names. */
    private final Set<String> nameable = new LinkedHashSet<>();
    private final Set<String> enabled = new LinkedHashSet<>();
    private final Set<String> unknown = new LinkedHashSet<>();

    private SuiteReader(Context context, SuiteOrigin origin) {
        this.context = context;
        this.origin = origin;
        this.problems = new Problems(origin.display());
    }

    /** Reads and checks one suite file's text. */
    public static Result read(SuiteOrigin origin, String text, Context context) {
        return read(origin, text, context, false);
    }

    /**
     * Reads and checks one suite file's text; with {@code rememberSchemaPasses}, a text the suite schema passed before
     * in this process (when read the same way) is not validated again, and one it passes now is remembered: for a
     * discovery that reads each file twice (docs/engine.md#runs-in-parts). Every other check runs each time.
     */
    public static Result read(SuiteOrigin origin, String text, Context context, boolean rememberSchemaPasses) {
        return new SuiteReader(context, origin).read(text, rememberSchemaPasses);
    }

    private Result read(String text, boolean rememberSchemaPasses) {
        YamlReader.Result yaml = YamlReader.read(origin.display(), text);
        problems.addAll(yaml.problems());
        if (yaml.document() == null) {
            return new Result(Optional.empty(), problems.list());
        }
        if (!(yaml.document() instanceof YamlNode.Mapping)) {
            problems.add(yaml.document().at(), "", "a suite is a mapping with id, title and cases; found "
                    + (yaml.document() instanceof YamlNode.Sequence ? "a sequence" : "a scalar"));
            return new Result(Optional.empty(), problems.list());
        }
        ByteBuffer key = rememberSchemaPasses ? SchemaPasses.key(text) : null;
        if (key == null || !SchemaPasses.passed(key)) {
            List<SuiteProblem> schema = SuiteSchema.validate(origin.display(), yaml.document());
            if (key != null && schema.isEmpty()) {
                SchemaPasses.remember(key);
            }
            // what the schema says of a value the YAML reader refused follows from that one problem: not said twice
            problems.addAll(schema.stream().filter(problem -> !yaml.refuses(problem.key())).toList());
        }
        if (!problems.isEmpty()) {
            return new Result(Optional.empty(), problems.list());
        }
        Suite suite = suite(new Node(yaml.document(), "", problems));
        return new Result(problems.isEmpty() ? Optional.of(suite) : Optional.empty(), problems.list());
    }

    private Suite suite(Node root) {
        List<InvocationMode> modes = modes(root.get("modes"), List.of(InvocationMode.values()));
        for (Node name : root.list("unknownEvents")) {
            name.text().ifPresent(text -> {
                if (context.knownEvents().contains(text)) {
                    name.problem("'" + text + "' is declared unknown, but the kernel factory offers it; list only "
                            + "names no kernel offers");
                }
                unknown.add(text);
            });
        }
        List<Suite.Probe> probes = new ArrayList<>();
        Set<String> probeNames = new LinkedHashSet<>();
        for (Node node : root.list("probes")) {
            Suite.Probe probe = probe(node);
            String path = node.path("name");
            if (context.knownEvents().contains(probe.name())) {
                problems.add(probe.at(), path, "probe '" + probe.name() + "' has the name of an event the kernel "
                        + "factory offers; probes need their own names");
            } else if (unknown.contains(probe.name())) {
                problems.add(probe.at(), path, "probe '" + probe.name() + "' is also declared unknown");
            } else if (!probeNames.add(probe.name())) {
                problems.add(probe.at(), path, "duplicate probe '" + probe.name() + "'");
            }
            probes.add(probe);
        }
        for (Node node : root.list("probes")) {
            for (Node awaited : node.list("awaits")) {
                awaited.text().filter(name -> !probeNames.contains(name)).ifPresent(name -> awaited.problem("'"
                        + name + "' is no probe of this suite; a probe awaits only probes' starts"));
            }
        }
        Suite.KernelSettings kernel = kernel(root.get("kernel"), probeNames);
        enabled.addAll(kernel.events().isEmpty() ? context.knownEvents() : kernel.events());
        enabled.addAll(probeNames);
        nameable.addAll(enabled);
        nameable.addAll(unknown);
        Suite.SessionSettings session = session(root.get("session"));
        Suite.ProviderSettings provider = provider(root.get("provider"));
        List<Suite.Case> cases = new ArrayList<>();
        Map<String, Position> caseIds = new HashMap<>();
        for (Node node : root.list("cases")) {
            Suite.Case item = testCase(node, modes);
            Position first = caseIds.putIfAbsent(item.id(), item.at());
            if (first != null) {
                node.problemAt("id", "duplicate case id '" + item.id() + "'; first used at " + first
                        + " (unique ids derive from it)");
            }
            cases.add(item);
        }
        return new Suite(root.requiredText("id"), root.requiredText("title"), root.text("spec").orElse(""),
                root.strings("tags"), modes, kernel, session, provider, probes, List.copyOf(unknown), cases, origin,
                root.at());
    }

    private Suite.KernelSettings kernel(Optional<Node> node, Set<String> probeNames) {
        if (node.isEmpty()) {
            return new Suite.KernelSettings(List.of(), defaultConcurrency(), KernelLimits.DEFAULT_BATCH_DEADLINE);
        }
        Node kernel = node.get();
        List<String> events = new ArrayList<>();
        for (Node name : kernel.list("events")) {
            name.text().ifPresent(text -> {
                if (unknown.contains(text)) {
                    name.problem("'" + text + "' is declared unknown; an unknown event cannot be enabled");
                } else if (!context.knownEvents().contains(text) && !probeNames.contains(text)) {
                    name.problem(unknownEvent(text));
                }
                events.add(text);
            });
        }
        int concurrency = kernel.integer("concurrency").orElseGet(SuiteReader::defaultConcurrency);
        Duration deadline = KernelLimits.DEFAULT_BATCH_DEADLINE;
        Optional<Node> value = kernel.get("batchDeadline");
        if (value.isPresent()) {
            Duration read = duration(value.get());
            if (read.isZero() || read.compareTo(KernelLimits.MAX_BATCH_DEADLINE) > 0) {
                value.get().problem("batch deadline must be positive and at most "
                        + KernelLimits.MAX_BATCH_DEADLINE.toMinutes() + "m, was " + value.get().text().orElse("?"));
            } else {
                deadline = read;
            }
        }
        // docs/design.md#kernel-fallback-bounded: a suite may bound the EventAgent call itself, to test the bound
        Optional<Duration> fallbackTimeout = Optional.empty();
        Optional<Node> fallback = kernel.get("fallbackTimeout");
        if (fallback.isPresent()) {
            Duration read = duration(fallback.get());
            if (read.isZero() || read.compareTo(KernelLimits.MAX_BATCH_DEADLINE) > 0) {
                fallback.get().problem("fallback timeout must be positive and at most "
                        + KernelLimits.MAX_BATCH_DEADLINE.toMinutes() + "m, was " + fallback.get().text().orElse("?"));
            } else {
                fallbackTimeout = Optional.of(read);
            }
        }
        return new Suite.KernelSettings(events, concurrency, deadline, fallbackTimeout);
    }

    /**
     * The kernel API's default concurrency limit, read when the suite runs rather than inlined by javac from
     * {@code KernelLimits.DEFAULT_CONCURRENCY_LIMIT}, so a suite on the default runs on the default of the kernel API
     * it runs against (docs/design.md#batch-concurrency-limit).
     */
    private static int defaultConcurrency() {
        return KernelLimits.defaults().concurrencyLimit();
    }

    private Suite.SessionSettings session(Optional<Node> node) {
        ZoneId zone = ZoneId.of("UTC");
        Optional<Instant> clock = Optional.empty();
        Locale locale = Locale.ENGLISH;
        if (node.isPresent()) {
            Node session = node.get();
            Optional<Node> timezone = session.get("timezone");
            if (timezone.isPresent()) {
                String text = timezone.get().text().orElse("");
                try {
                    zone = ZoneId.of(text);
                } catch (DateTimeException e) {
                    timezone.get().problem("unknown time zone '" + text + "'; expected an IANA id such as "
                            + "Asia/Shanghai or UTC");
                }
            }
            Optional<Node> instant = session.get("clock");
            if (instant.isPresent()) {
                String text = instant.get().text().orElse("");
                try {
                    clock = Optional.of(OffsetDateTime.parse(text).toInstant());
                } catch (DateTimeException e) {
                    instant.get().problem("not an ISO-8601 instant with offset: '" + text + "'; expected e.g. "
                            + "2026-11-30T09:00:00+08:00");
                }
            }
            Optional<Node> language = session.get("locale");
            if (language.isPresent()) {
                String text = language.get().text().orElse("");
                locale = Locale.forLanguageTag(text);
                if (locale.getLanguage().isEmpty()) {
                    language.get().problem("not a BCP 47 language tag: '" + text + "'");
                    locale = Locale.ENGLISH;
                }
            }
        }
        return new Suite.SessionSettings(zone, clock, locale);
    }

    private Suite.ProviderSettings provider(Optional<Node> node) {
        ProviderFamily family = ProviderFamily.OPENAI;
        String model = DEFAULT_MODEL;
        LatencyModel latency = DEFAULT_LATENCY;
        Optional<PricingCatalog> pricing = Optional.empty();
        if (node.isPresent()) {
            Node provider = node.get();
            Optional<String> name = provider.text("family");
            if (name.isPresent()) {
                try {
                    family = ProviderFamily.fromWireName(name.get(), context.recordings().familyFolders());
                } catch (IllegalArgumentException e) {
                    provider.problemAt("family", e.getMessage());
                }
            }
            model = provider.text("model").orElse(model);
            // docs/design.md#usage-catalog-fallback: the suite's own prices, in the catalog file's shape, inline
            Optional<Node> catalog = provider.get("pricing");
            if (catalog.isPresent()) {
                Optional<Map<String, Object>> object = catalog.get().object();
                if (object.isPresent()) {
                    try {
                        pricing = Optional.of(PricingCatalog.parse(CanonicalJson.write(object.get()), catalog.get().path()));
                    } catch (IllegalArgumentException e) {
                        catalog.get().problem(e.getMessage());
                    }
                }
            }
            Optional<Node> l = provider.get("latency");
            if (l.isPresent()) {
                latency = new LatencyModel(
                        l.get().get("firstTokenMs").flatMap(Node::number).orElse(DEFAULT_LATENCY.firstTokenBaseMs()),
                        l.get().get("perPromptTokenMs").flatMap(Node::number)
                                .orElse(DEFAULT_LATENCY.firstTokenPerPromptTokenMs()),
                        l.get().get("perChunkMs").flatMap(Node::number).orElse(DEFAULT_LATENCY.perChunkMs()));
            }
        }
        return new Suite.ProviderSettings(family, model, latency, pricing);
    }

    private Suite.Probe probe(Node node) {
        Duration latency = node.get("latency").map(this::duration).orElse(Duration.ZERO);
        Duration timeout = node.get("timeout").map(this::duration).orElse(DEFAULT_PROBE_TIMEOUT);
        if (timeout.isZero()) {
            node.problemAt("timeout", "a timeout must be positive");
            timeout = DEFAULT_PROBE_TIMEOUT;
        }
        Suite.ProbeOutcome outcome = Suite.ProbeOutcome.SUCCEED;
        Optional<String> declared = node.text("outcome");
        if (declared.isPresent()) {
            try {
                outcome = Suite.ProbeOutcome.valueOf(declared.get().toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                node.problemAt("outcome", "unknown outcome '" + declared.get() + "'");
            }
        }
        boolean terminal = node.flag("terminal");
        ResultPolicy policy = terminal ? ResultPolicy.TERMINATE : ResultPolicy.SILENT_SUCCESS;
        Optional<String> named = node.text("policy");
        if (named.isPresent()) {
            Optional<ResultPolicy> found = policy(named.get());
            if (found.isEmpty()) {
                node.problemAt("policy", "unknown result policy '" + named.get() + "'");
            } else {
                policy = found.get();
            }
        }
        return new Suite.Probe(node.requiredText("name"), latency, outcome, node.strings("conflictKeys"), terminal,
                node.flag("readOnly"), policy, timeout, traits(node), node.at());
    }

    /** The probe's other definition traits (docs/design.md#kernel-definition) and what its handler awaits. */
    private Suite.ProbeTraits traits(Node node) {
        Optional<Duration> atMost = node.get("awaitsAtMost").map(this::duration);
        if (atMost.isPresent() && !node.has("awaits")) {
            node.problemAt("awaitsAtMost", "awaitsAtMost bounds a wait: it needs 'awaits'");
        }
        List<String> awaits = node.strings("awaits");
        if (awaits.contains(node.text("name").orElse(""))) {
            node.problemAt("awaits", "a probe cannot await its own start");
        }
        return new Suite.ProbeTraits(node.bool("failureVisible").orElse(true), node.strings("requiredFields"),
                node.flag("fallback"), node.object("resolves").orElse(Map.of()), node.text("confirmation"), awaits,
                atMost);
    }

    private Suite.Case testCase(Node node, List<InvocationMode> suiteModes) {
        List<InvocationMode> modes = modes(node.get("modes"), suiteModes);
        for (InvocationMode mode : modes) {
            if (!suiteModes.contains(mode)) {
                node.get("modes").ifPresent(value -> value.problem("mode " + mode.wireName()
                        + " is not one of the suite's modes " + suiteModes.stream().map(InvocationMode::wireName)
                        .toList()));
            }
        }
        List<Suite.Turn> turns = new ArrayList<>();
        for (Node turn : node.list("turns")) {
            turns.add(turn(turn, modes, turns));
        }
        ParityRules parity = node.get("parity").map(this::parity).orElse(ParityRules.none());
        String id = node.requiredText("id");
        return new Suite.Case(id, node.text("title").orElse(id), node.requiredText("clause"), node.strings("tags"),
                modes, turns, parity, node.at());
    }

    private ParityRules parity(Node node) {
        ParityRules.Builder rules = ParityRules.builder();
        node.entries().forEach((event, arguments) -> {
            checkEvent(node.keyAt(event), arguments.path(), event);
            Optional<Set<String>> known = context.knownEvents().contains(event)
                    ? Optional.ofNullable(context.argumentNames().get(event)) : Optional.empty();
            arguments.entries().forEach((argument, rule) -> {
                if (known.isPresent() && !known.get().contains(argument)) {
                    arguments.problemAt(argument, "'" + event + "' has no argument '" + argument
                            + "'; its schema declares " + known.get());
                }
                if (rule.yaml() instanceof YamlNode.Scalar) {
                    rule.text().ifPresent(text -> {
                        if (text.equals("ignore")) {
                            rules.ignore(event, argument);
                        } else {
                            rule.problem("expected 'ignore' or a list of normalizations, found '" + text + "'");
                        }
                    });
                    return;
                }
                List<ParityRules.Normalization> normalizations = new ArrayList<>();
                for (Node name : rule.items()) {
                    name.text().ifPresent(text -> ParityRules.Normalization.of(text).ifPresentOrElse(
                            normalizations::add, () -> name.problem("unknown normalization '" + text
                                    + "'; expected lowercase, whitespace or punctuation")));
                }
                rules.normalize(event, argument, normalizations.toArray(ParityRules.Normalization[]::new));
            });
        });
        try {
            return rules.build();
        } catch (IllegalArgumentException e) {
            node.problem(e.getMessage());
            return ParityRules.none();
        }
    }

    private Suite.Turn turn(Node node, List<InvocationMode> modes, List<Suite.Turn> earlier) {
        Optional<Suite.Turn> original = Optional.empty();
        Optional<Integer> retransmits = Optional.empty();
        Optional<Integer> number = node.integer("retransmit");
        if (number.isPresent()) {
            int n = number.get();
            if (n < 1 || n > earlier.size()) {
                node.problemAt("retransmit", "a retransmission re-sends an earlier turn of the case: expected a turn "
                        + "number from 1 to " + earlier.size() + ", was " + n
                        + (earlier.isEmpty() ? " (this is the first turn)" : ""));
            } else {
                retransmits = Optional.of(n - 1);
                original = Optional.of(earlier.get(n - 1));
            }
        }
        String user = node.text("user").orElse(original.map(Suite.Turn::user).orElse(""));
        if (original.isPresent() && node.has("user") && !original.get().user().equals(user)) {
            node.problemAt("user", "a retransmission re-sends turn " + number.orElseThrow() + "'s user text \""
                    + original.get().user() + "\"; leave 'user' out or write it the same");
        }
        if (!node.has("user") && number.isEmpty()) {
            node.problem("missing required key 'user'");
        }
        Map<InvocationMode, Suite.Reply> replies = new EnumMap<>(InvocationMode.class);
        Optional<Suite.Reply> common = node.get("reply").map(this::reply);
        for (InvocationMode mode : modes) {
            Optional<Suite.Reply> byMode = node.get("replyByMode").flatMap(map -> map.get(mode.wireName()))
                    .map(this::reply);
            byMode.or(() -> common).ifPresent(reply -> replies.put(mode, reply));
        }
        List<String> recordings = node.strings("recordings");
        boolean scripted = node.has("reply") || node.has("replyByMode");
        Optional<String> followUp = node.text("followUp");
        Optional<String> eventAgent = node.object("eventAgent").map(CanonicalJson::write);
        if (original.isPresent() && !scripted && recordings.isEmpty()) {
            // a client retry: the model is asked the same thing again and, scripted, answers the same
            Suite.Turn resent = original.get();
            replies.putAll(resent.replies());
            recordings = resent.recordings();
            followUp = followUp.or(resent::followUp);
            eventAgent = eventAgent.or(resent::eventAgent);
        } else if (scripted && !recordings.isEmpty()) {
            node.problemAt("recordings", "a turn is answered by a scripted reply or by recordings, not both");
        } else if (recordings.isEmpty()) {
            for (InvocationMode mode : modes) {
                if (!replies.containsKey(mode)) {
                    node.problem("no provider answer for mode " + mode.wireName() + "; expected 'reply', "
                            + "'replyByMode." + mode.wireName() + "' or 'recordings'");
                }
            }
        } else {
            checkRecordings(node, user, modes);
        }
        Map<String, Suite.HandlerFault> faults = new LinkedHashMap<>();
        node.get("handlerFaults").ifPresent(map -> map.entries().forEach((name, fault) -> {
            checkEvent(map.keyAt(name), fault.path(), name);
            faults.put(name, new Suite.HandlerFault(fault.text("code").orElse("port_unavailable"),
                    fault.text("message").orElse(name + " is unavailable"), fault.flag("transient"),
                    fault.flag("hang")));
        }));
        List<ProviderFault> providerFaults = providerFaults(node, replies, followUp, eventAgent, recordings);
        Reading reading = new Reading();
        Expectations expect = node.get("expect").map(block -> ExpectationKinds.read(block, reading))
                .orElse(Expectations.none());
        Map<InvocationMode, Expectations> expectByMode = new EnumMap<>(InvocationMode.class);
        node.get("expectByMode").ifPresent(map -> map.entries().forEach((name, block) -> {
            Optional<InvocationMode> mode = modes.stream().filter(m -> m.wireName().equals(name)).findFirst();
            if (mode.isEmpty()) {
                map.problemAt(name, "the case does not run in " + name + "; it runs in "
                        + modes.stream().map(InvocationMode::wireName).toList());
                return;
            }
            expectByMode.put(mode.get(), ExpectationKinds.read(block, reading));
        }));
        Optional<Suite.Interruption> interrupt = node.get("interrupt").flatMap(block -> {
            Optional<String> event = block.text("whileRunning");
            event.ifPresent(name -> checkEvent(block.keyAt("whileRunning"), block.path("whileRunning"), name));
            if (number.isPresent()) {
                // an interrupted turn is started as a new turn (TurnRuntime.start); a retransmission is not one
                node.problemAt("interrupt", "a retransmission cannot be interrupted; interrupt a turn of its own");
                return Optional.empty();
            }
            return event.map(name -> new Suite.Interruption(name, block.at()));
        });
        return new Suite.Turn(user, retransmits, replies, followUp, eventAgent, recordings, faults, providerFaults,
                expect, expectByMode, interrupt, node.at());
    }

    private List<ProviderFault> providerFaults(Node turn, Map<InvocationMode, Suite.Reply> replies,
                                               Optional<String> followUp, Optional<String> eventAgent,
                                               List<String> recordings) {
        List<ProviderFault> faults = new ArrayList<>();
        Set<String> calls = new HashSet<>();
        for (Node node : turn.list("providerFaults")) {
            if (!recordings.isEmpty()) {
                node.problem("provider faults are synthesized from a scripted turn; a turn answered by recordings "
                        + "carries its faults in them");
                continue;
            }
            Optional<CallRole> role = node.text("call").flatMap(RoleNames::role);
            if (role.isEmpty()) {
                node.problemAt("call", "expected chat, eventAgent or followUp");
                continue;
            }
            ProviderFault.Builder builder = ProviderFault.on(role.get()).at(node.at());
            node.integer("index").ifPresent(builder::index);
            node.get("http").ifPresent(http -> {
                Map<String, String> headers = new LinkedHashMap<>();
                http.get("headers").ifPresent(map -> map.entries().forEach((name, value) ->
                        value.text().ifPresent(text -> headers.put(name, text))));
                http.integer("status").ifPresent(status -> builder.http(status, headers));
            });
            node.get("reset").flatMap(reset -> reset.integer("afterEvents")).ifPresent(builder::resetAfter);
            node.get("stall").flatMap(stall -> stall.integer("afterEvents")).ifPresent(builder::stallAfter);
            node.get("malformedChunk").flatMap(bad -> bad.integer("afterEvents"))
                    .ifPresent(builder::malformedChunkAfter);
            node.get("invalidToolArguments").ifPresent(bad -> bad.integer("event").ifPresent(event ->
                    builder.invalidToolArguments(event, bad.text("text").orElse(""))));
            if (node.flag("toolCallsWithoutIndex")) {
                builder.toolCallsWithoutIndex();
            }
            ProviderFault fault;
            try {
                fault = builder.build();
            } catch (IllegalArgumentException e) {
                node.problem(e.getMessage());
                continue;
            }
            if (!calls.add(fault.describeCall())) {
                node.problem("the " + fault.describeCall() + " already has a fault in this turn");
            }
            if (fault.fault() instanceof InjectedFault.InvalidToolArguments bad) {
                Suite.Reply tools = replies.get(InvocationMode.CHAT_AGENT_TOOLS);
                if (tools == null) {
                    node.problemAt("invalidToolArguments", "invalid tool arguments need a chat_agent_tools reply "
                            + "(a dual_agent model sends no arguments)");
                } else if (bad.event() > tools.events().size()) {
                    node.problemAt("invalidToolArguments", "the chat_agent_tools reply proposes "
                            + tools.events().size() + " event(s); there is no event " + bad.event());
                }
            }
            if (fault.fault() instanceof InjectedFault.AfterEvents after && after.events() > 0 && (fault.call() == CallRole.FOLLOW_UP && followUp.isEmpty()
                    || fault.call() == CallRole.EVENT_AGENT && eventAgent.isEmpty())) {
                node.problem("a fault after some stream events needs the call's answer to cut: write '"
                        + RoleNames.roleName(fault.call()) + "' in the turn");
            }
            faults.add(fault);
        }
        return faults;
    }

    private void checkRecordings(Node node, String user, List<InvocationMode> modes) {
        Set<InvocationMode> answered = new LinkedHashSet<>();
        String key = node.path("recordings");
        for (Node id : node.list("recordings")) {
            String name = id.text().orElse("");
            Optional<Recording> recording;
            try {
                recording = context.recordings().find(name);
            } catch (RuntimeException e) {
                id.problem(e.getMessage());
                continue;
            }
            if (recording.isEmpty()) {
                id.problem("unknown recording '" + name + "'; looked in " + context.recordings().describe());
                continue;
            }
            var matcher = recording.get().request();
            if (!matcher.lastUserMessage().strip().equalsIgnoreCase(user.strip())) {
                id.problem("recording '" + name + "' answers \"" + matcher.lastUserMessage()
                        + "\", not this turn's user text \"" + user + "\"");
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
            if (!answered.contains(mode) && !problems.anyUnder(key)) {
                node.problemAt("recordings", "no chat recording for mode " + mode.wireName()
                        + "; each mode the case runs in needs one");
            }
        }
    }

    private Suite.Reply reply(Node node) {
        List<Suite.ProposedEvent> events = new ArrayList<>();
        for (Node event : node.list("events")) {
            String name = event.requiredText("name");
            event.get("name").ifPresent(at -> {
                if (!nameable.contains(name)) {
                    at.problem(notEnabled(name));
                }
            });
            Map<String, Object> arguments = event.object("arguments").orElse(Map.of());
            events.add(new Suite.ProposedEvent(name, CanonicalJson.write(arguments), unknown.contains(name),
                    event.text("callId").orElse(null)));
        }
        return new Suite.Reply(node.requiredText("visible"), events);
    }

    /** Lets the expectation kinds check names and read nested blocks. */
    private final class Reading implements ExpectationReading {
        @Override
        public void checkEvent(Position at, String path, String name) {
            SuiteReader.this.checkEvent(at, path, name);
        }

        @Override
        public Optional<Set<String>> argumentNames(String event) {
            return Optional.ofNullable(context.argumentNames().get(event));
        }

        @Override
        public Expectations block(Node node) {
            return ExpectationKinds.read(node, this);
        }
    }

    private void checkEvent(Position at, String path, String name) {
        if (!nameable.contains(name)) {
            problems.add(at, path, "expectation on " + notEnabled(name));
        }
    }

    private String notEnabled(String name) {
        return context.knownEvents().contains(name) ? "event '" + name + "', which kernel.events does not enable"
                : unknownEvent(name);
    }

    private String unknownEvent(String name) {
        return "unknown event '" + name + "'; the kernel factory offers " + context.knownEvents().stream().sorted()
                .toList() + " and the suite declares no probe of that name (a name no kernel offers on purpose "
                + "goes in unknownEvents)";
    }

    private List<InvocationMode> modes(Optional<Node> node, List<InvocationMode> fallback) {
        if (node.isEmpty()) {
            return fallback;
        }
        List<InvocationMode> modes = new ArrayList<>();
        for (Node item : node.get().items()) {
            item.text().ifPresent(name -> {
                try {
                    modes.add(InvocationMode.fromWireName(name));
                } catch (IllegalArgumentException e) {
                    item.problem("unknown mode '" + name + "'; expected dual_agent or chat_agent_tools");
                }
            });
        }
        return modes;
    }

    private Duration duration(Node node) {
        try {
            return Durations.parse(node.text().orElse(""));
        } catch (IllegalArgumentException e) {
            node.problem(e.getMessage());
            return Duration.ZERO;
        }
    }

    private static Optional<ResultPolicy> policy(String wireName) {
        for (ResultPolicy policy : ResultPolicy.values()) {
            if (policy.wireName().equals(wireName)) {
                return Optional.of(policy);
            }
        }
        return Optional.empty();
    }
}
