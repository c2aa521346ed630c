package io.agentlab.contracts;

import static org.apiguardian.api.API.Status.INTERNAL;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.strings;

import io.agentlab.kernel.api.CanonicalJson;
import io.agentlab.kernel.api.EventBatch;
import io.agentlab.kernel.api.EventDefinition;
import io.agentlab.kernel.api.EventOutcome;
import io.agentlab.kernel.api.EventRequest;
import io.agentlab.kernel.api.EventScope;
import io.agentlab.kernel.api.InvocationMode;
import io.agentlab.kernel.api.KernelLimits;
import io.agentlab.kernel.api.Resolution;
import io.agentlab.kernel.api.ResolutionInput;
import io.agentlab.kernel.api.ResultPolicy;
import io.agentlab.kernel.api.TurnContext;
import io.agentlab.kernel.reference.ArgumentSchema;
import io.agentlab.kernel.reference.ReferenceKernel;
import io.agentlab.tokens.PromptTokens;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apiguardian.api.API;
import org.junit.jupiter.api.TestReporter;
import org.opentest4j.AssertionFailedError;
import org.opentest4j.TestAbortedException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The plugin contract's rule catalogue ({@code docs/plugin-contract.md} lists it; a test keeps the two equal). */
@API(status = INTERNAL, since = "0.1")
public final class PluginContractRules {

    /** Keywords outside the subset every OpenAI-compatible provider accepts in a tool schema. */
    static final Set<String> UNSUPPORTED_KEYWORDS = Set.of("$ref", "$defs", "definitions", "oneOf", "anyOf", "allOf",
            "not", "if", "then", "else", "patternProperties", "dependentSchemas", "unevaluatedProperties");
    /** The longest timeout a handler may declare. */
    static final Duration MAX_TIMEOUT = Duration.ofSeconds(60);
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final int RESOLVER_EXAMPLES = Integer.getInteger("agentlab.contract.resolver-examples", 1_000);

    /** The reporter of the rule running on this thread ({@link PluginContractTests#pluginContractReporter}). */
    static final ThreadLocal<TestReporter> REPORTER = new ThreadLocal<>();

    private PluginContractRules() {
    }

    /** Runs the rule {@code id} of the catalogue against the contract test {@code test}, held to its requirement. */
    static void run(PluginContractTests test, String id) throws Throwable {
        PluginContract configuration = Optional.ofNullable(test.getClass().getAnnotation(PluginContract.class))
                .orElseThrow(() -> new IllegalStateException(test.getClass().getName()
                        + " implements PluginContractTests but is not annotated @PluginContract"));
        TestReporter reporter = REPORTER.get();
        PluginContractSubject subject = new PluginContractSubject(test::plugin, test.examples(),
                test.pluginWithFailingPort().isPresent() ? Optional.of(() -> test.pluginWithFailingPort().orElseThrow())
                        : Optional.empty(),
                test.pluginWithHangingPort().isPresent() ? Optional.of(() -> test.pluginWithHangingPort().orElseThrow())
                        : Optional.empty(),
                configuration, (key, value) -> {
                    if (reporter != null) {
                        reporter.publishEntry(Map.of(key, value));
                    }
                });
        ContractRule rule = catalogue().stream().filter(candidate -> candidate.id().equals(id)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no rule " + id + " in the catalogue"));
        Requirement.of(rule.required()).run(rule.displayName(), () -> rule.check().run(subject));
    }

    /** The catalogue, in order. */
    public static List<ContractRule> catalogue() {
        return List.of(
                new ContractRule("PC-01", "definition_is_valid", true, "docs/design.md#kernel-definition-valid",
                        "The definition builds: namespaced name, semantic schema version, one-line description, "
                                + "positive timeout, terminate only when terminal, a template for the template policy, "
                                + "no retry of a side effect.", PluginContractRules::definitionBuilds),
                new ContractRule("PC-02", "catalog_description_within_budget", true,
                        "docs/design.md#plugin-catalog-budget",
                        "The catalog line costs at most the configured token budget; its cost and the tool schema's "
                                + "are published.", PluginContractRules::catalogBudget),
                new ContractRule("PC-03", "terminal_event_terminates", true, "docs/design.md#kernel-definition-valid",
                        "A terminal event has the terminate policy (it ends the session after its siblings).",
                        PluginContractRules::terminalTerminates),
                new ContractRule("PC-04", "timeout_at_most_60s", true, "docs/design.md#safety-handler-timeout-bound",
                        "The handler timeout is at most 60 s, inside any batch deadline a service would set.",
                        PluginContractRules::timeoutBounds),
                new ContractRule("PC-05", "schema_valid_and_provider_safe", true,
                        "docs/design.md#plugin-schema-provider-safe",
                        "The argument schema is valid draft 2020-12, an object, and uses only keywords every "
                                + "OpenAI-compatible provider accepts for tools.", PluginContractRules::providerSafe),
                new ContractRule("PC-06", "resolver_deterministic_and_total", true,
                        "docs/design.md#kernel-resolver-total",
                        "The resolver gives the same result for the same input and never throws, for the examples "
                                + "and 1,000 generated utterances.", PluginContractRules::resolverTotal),
                new ContractRule("PC-07", "validator_names_the_field_and_never_throws", true,
                        "docs/design.md#kernel-validation",
                        "A value of the wrong type for any property is rejected naming that property; the validator "
                                + "never throws.", PluginContractRules::validatorNamesField),
                new ContractRule("PC-08", "idempotency_keys_stable_and_distinct", true,
                        "docs/design.md#safety-idempotency-key",
                        "Equivalent arguments give the same idempotency key; different arguments or turns give "
                                + "different keys.", PluginContractRules::idempotency),
                new ContractRule("PC-09", "throwing_port_is_a_structured_failure", false,
                        "docs/design.md#safety-structured-failure",
                        "With a port that throws, the event ends failed with a code, never as a leaked exception "
                                + "(needs pluginWithFailingPort()).", PluginContractRules::failingPort),
                new ContractRule("PC-10", "hanging_port_times_out", false,
                        "docs/design.md#safety-handler-timeout-bound",
                        "With a port that never answers, the event times out within its timeout "
                                + "(needs pluginWithHangingPort()).", PluginContractRules::hangingPort),
                new ContractRule("PC-11", "examples_identical_in_both_modes", false, "docs/design.md#modes-parity",
                        "Every example runs through both modes with synthesized streams under random chunking and "
                                + "yields the expected, identical normalized results (needs examples()).",
                        PluginContractRules::examplesInBothModes));
    }

    private static void definitionBuilds(PluginContractSubject subject) {
        try {
            subject.plugins().get().definition();
        } catch (RuntimeException e) {
            throw failure("PC-01", "the definition cannot be built: " + e.getMessage());
        }
    }

    private static void catalogBudget(PluginContractSubject subject) {
        EventDefinition definition = subject.definition();
        String line = "- " + definition.name() + ": " + definition.description();
        int catalog = tokens(line);
        int schema = tokens(definition.argumentsSchema()) + tokens(definition.description());
        subject.publish(Map.of("catalogTokens", Integer.toString(catalog), "toolSchemaTokens", Integer.toString(schema)));
        require(!definition.description().isBlank() && !definition.description().contains("\n"), "PC-02",
                "the description must be one non-empty line; it is the catalog entry ChatAgent reads every turn");
        int budget = subject.configuration().catalogTokenBudget();
        require(catalog <= budget, "PC-02", "the catalog line costs " + catalog + " tokens, over the budget of "
                + budget + " (@PluginContract(catalogTokenBudget)); shorten the description: \"" + line + "\"");
    }

    private static void terminalTerminates(PluginContractSubject subject) {
        EventDefinition d = subject.definition();
        require(!d.terminal() || d.resultPolicy() == ResultPolicy.TERMINATE, "PC-03", "a terminal event with policy "
                + d.resultPolicy().wireName() + ": it would wait for every sibling and then not end the session");
    }

    private static void timeoutBounds(PluginContractSubject subject) {
        Duration timeout = subject.definition().timeout();
        require(timeout.compareTo(MAX_TIMEOUT) <= 0, "PC-04", "timeout " + timeout + " is over " + MAX_TIMEOUT
                + "; a hanging port would hold the turn that long");
    }

    private static void providerSafe(PluginContractSubject subject) {
        EventDefinition d = subject.definition();
        try {
            ArgumentSchema.compile(d.name(), d.argumentsSchema());
        } catch (RuntimeException e) {
            throw failure("PC-05", "the argument schema is not valid draft 2020-12: " + e.getMessage());
        }
        JsonNode root = JSON.readTree(d.argumentsSchema());
        require("object".equals(root.path("type").asString("")), "PC-05",
                "the schema's root must be {\"type\":\"object\"}; providers take tool arguments as an object");
        List<String> found = new ArrayList<>();
        collectUnsupported(root, "", found);
        require(found.isEmpty(), "PC-05", "keywords outside the provider-safe subset: " + found
                + "; inline them or simplify the schema");
    }

    private static void collectUnsupported(JsonNode node, String path, List<String> found) {
        if (node.isObject()) {
            for (var entry : node.properties()) {
                boolean keyword = !path.endsWith("/properties");
                if (keyword && UNSUPPORTED_KEYWORDS.contains(entry.getKey())) {
                    found.add(path + "/" + entry.getKey());
                }
                collectUnsupported(entry.getValue(), path + "/" + entry.getKey(), found);
            }
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                collectUnsupported(node.get(i), path + "/" + i, found);
            }
        }
    }

    private static void resolverTotal(PluginContractSubject subject) {
        EventDefinition d = subject.definition();
        for (PluginExample example : subject.examples()) {
            checkDeterministic(d, example.utterance(), ZoneId.of(example.timezone()),
                    OffsetDateTime.parse(example.now()).toInstant());
        }
        qt().withExamples(RESOLVER_EXAMPLES).forAll(strings().allPossible().ofLengthBetween(0, 80))
                .checkAssert(text -> checkDeterministic(d, text, ZoneId.of("UTC"), Instant.parse("2026-11-30T09:00:00Z")));
    }

    private static void checkDeterministic(EventDefinition d, String text, ZoneId zone, Instant at) {
        Resolution first;
        Resolution second;
        try {
            first = resolve(d, text, zone, at);
            second = resolve(d, text, zone, at);
        } catch (RuntimeException e) {
            throw failure("PC-06", "the resolver threw " + e + " on \"" + text + "\"; it must return a "
                    + "resolution (or an ambiguity) for any words");
        }
        require(first.equals(second), "PC-06", "the resolver gave two results for \"" + text + "\": " + first
                + " then " + second + "; resolution must depend only on its input");
    }

    static Resolution resolve(EventDefinition d, String text, ZoneId zone, Instant at) {
        EventScope scope = new EventScope("contract", "t1");
        return d.resolver().resolve(new ResolutionInput(new EventRequest("e1", d.name(), Map.of(),
                InvocationMode.DUAL_AGENT, 0, scope, at), TurnContext.of(scope, at, zone, Locale.ENGLISH, text)));
    }

    private static void validatorNamesField(PluginContractSubject subject) {
        EventDefinition d = subject.definition();
        ArgumentSchema schema = ArgumentSchema.compile(d.name(), d.argumentsSchema());
        JsonNode properties = JSON.readTree(d.argumentsSchema()).path("properties");
        for (var property : properties.properties()) {
            Map<String, Object> arguments = new LinkedHashMap<>();
            arguments.put(property.getKey(), Map.of("unexpected", List.of(1, 2)));
            ArgumentSchema.Check check = schema.check(arguments);
            require(check.violations().stream().anyMatch(v -> v.location().equals("/" + property.getKey())), "PC-07",
                    "an object for '" + property.getKey() + "' was not rejected naming /" + property.getKey()
                            + "; violations were " + check.violations());
            try {
                d.validator().validate(arguments);
            } catch (RuntimeException e) {
                throw failure("PC-07", "the validator threw " + e + " on " + arguments + "; it must return violations");
            }
        }
    }

    private static void idempotency(PluginContractSubject subject) {
        EventDefinition d = subject.definition();
        EventScope scope = new EventScope("contract", "t1");
        Map<String, Object> a = new LinkedHashMap<>();
        a.put("a", 1);
        a.put("b", "x");
        Map<String, Object> reordered = new LinkedHashMap<>();
        reordered.put("b", "x");
        reordered.put("a", 1);
        String key = d.idempotencyKeys().derive(scope, "e1", d.name(), CanonicalJson.write(a));
        require(key.equals(d.idempotencyKeys().derive(scope, "e1", d.name(), CanonicalJson.write(reordered))), "PC-08",
                "equivalent arguments in another key order gave another idempotency key");
        require(!key.equals(d.idempotencyKeys().derive(scope, "e1", d.name(), CanonicalJson.write(Map.of("a", 2)))),
                "PC-08", "different arguments gave the same idempotency key");
        require(!key.equals(d.idempotencyKeys().derive(new EventScope("contract", "t2"), "e1", d.name(),
                CanonicalJson.write(a))), "PC-08", "another turn gave the same idempotency key: a retried turn would "
                + "be deduplicated against an unrelated one");
    }

    private static void failingPort(PluginContractSubject subject) {
        EventOutcome outcome = runOnce(subject.failingPort().orElseThrow(() -> new TestAbortedException(
                "PC-09 needs pluginWithFailingPort(): the plugin wired to a port that throws")), subject);
        require(outcome instanceof EventOutcome.Failed, "PC-09", "with a throwing port the event ended "
                + outcome.status() + " (" + outcome + "), not failed with a code");
    }

    private static void hangingPort(PluginContractSubject subject) {
        EventOutcome outcome = runOnce(subject.hangingPort().orElseThrow(() -> new TestAbortedException(
                "PC-10 needs pluginWithHangingPort(): the plugin wired to a port that never answers")), subject);
        require(outcome instanceof EventOutcome.TimedOut, "PC-10", "with a hanging port the event ended "
                + outcome.status() + " (" + outcome + "), not timed out");
    }

    private static EventOutcome runOnce(java.util.function.Supplier<io.agentlab.kernel.api.EventPlugin> plugin,
                                        PluginContractSubject subject) {
        PluginExample example = subject.examples().stream().filter(e -> e.expected().isPresent()).findFirst()
                .orElseThrow(() -> new TestAbortedException("needs an example with expected arguments to run the port"));
        Instant at = OffsetDateTime.parse(example.now()).toInstant();
        try (ReferenceKernel kernel = ReferenceKernel.builder().register(plugin.get()).build()) {
            EventDefinition d = kernel.definitions().get(0);
            TurnContext turn = TurnContext.of(new EventScope("contract", "port"), at, ZoneId.of(example.timezone()),
                    Locale.ENGLISH, example.utterance());
            return kernel.execute(EventBatch.builder(turn, InvocationMode.CHAT_AGENT_TOOLS)
                    .event(d.name(), example.expected().get()).build()).results().get(0).outcome();
        }
    }

    private static void examplesInBothModes(PluginContractSubject subject) {
        if (subject.examples().isEmpty()) {
            throw new TestAbortedException("PC-11 needs examples(): utterances with their expected arguments");
        }
        List<Long> seeds = Arrays.stream(subject.configuration().seeds()).boxed().toList();
        List<String> failures = support("PC-11", "run the examples as suite cases")
                .runExamples(subject.plugins(), subject.examples(), seeds);
        require(failures.isEmpty(), "PC-11", String.join("\n", failures));
    }

    /**
     * PC-02's count, by {@code agentlab-tokens}: an optional dependency of this artifact, so that jtokkit reaches a
     * plugin author's classpath only when they declare it (docs/plugin-contract.md#artifacts). Without it PC-02, a
     * required rule, fails saying so.
     */
    private static int tokens(String text) {
        try {
            return PromptTokens.completion(text);
        } catch (NoClassDefFoundError e) {
            throw new TestAbortedException("PC-02 counts tokens with io.agentlab:agentlab-tokens: add it (test scope) "
                    + "to the test classpath; see docs/plugin-contract.md#artifacts");
        }
    }

    /**
     * The engine's support, or the rule is skipped (aborted, so counted as not run, never as passed) with one line
     * naming the artifact that runs it (docs/plugin-contract.md#artifacts).
     */
    private static PluginContractSupport support(String rule, String what) {
        return PluginContractSupport.find().orElseThrow(() -> new TestAbortedException(rule + " needs "
                + PluginContractSupport.PROVIDER + " on the test classpath to " + what
                + "; see docs/plugin-contract.md#artifacts"));
    }

    private static void require(boolean condition, String rule, String message) {
        if (!condition) {
            throw failure(rule, message);
        }
    }

    private static AssertionFailedError failure(String rule, String message) {
        ContractRule broken = catalogue().stream().filter(r -> r.id().equals(rule)).findFirst().orElseThrow();
        return new AssertionFailedError(broken.displayName() + " (" + broken.clause() + "): " + message);
    }
}
