package io.agentlab.contracts;

import static org.apiguardian.api.API.Status.INTERNAL;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.strings;

import io.agentlab.kernel.api.BatchExecution;
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
import io.agentlab.kernel.api.rule.Rule;
import io.agentlab.kernel.api.rule.Rule.Level;
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
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BiConsumer;
import org.apiguardian.api.API;
import org.junit.jupiter.api.TestReporter;
import org.opentest4j.AssertionFailedError;
import org.opentest4j.TestAbortedException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The plugin contract's rule catalogue, one constant per rule ({@code docs/plugin-contract.md} lists it; a test keeps
 * the two equal): each holds its {@link Rule} (id from the constant's name, {@code PC_06} is {@code PC-06}) and its
 * check, so the rule methods and the checks name a rule by its constant, never by a written id (docs/api.md#rules).
 */
@API(status = INTERNAL, since = "0.1")
public enum PluginContractRules {

    PC_01(Level.REQUIRED, "definition_is_valid", "docs/design.md#kernel-definition-valid",
            "The definition builds: namespaced name, semantic schema version, one-line description, "
                    + "positive timeout, terminate only when terminal, a template for the template policy, "
                    + "no retry of a side effect.",
            PluginContractRules::definitionBuilds),
    PC_02(Level.REQUIRED, "catalog_description_within_budget", "docs/design.md#plugin-catalog-budget",
            "The catalog line costs at most the configured token budget; its cost and the tool schema's "
                    + "are published.",
            PluginContractRules::catalogBudget),
    PC_03(Level.REQUIRED, "terminal_event_terminates", "docs/design.md#kernel-definition-valid",
            "A terminal event has the terminate policy (it ends the session after its siblings).",
            PluginContractRules::terminalTerminates),
    PC_04(Level.REQUIRED, "timeout_at_most_60s", "docs/design.md#safety-handler-timeout-bound",
            "The handler timeout is at most 60 s, inside any batch deadline a service would set.",
            PluginContractRules::timeoutBounds),
    PC_05(Level.REQUIRED, "schema_valid_and_provider_safe", "docs/design.md#plugin-schema-provider-safe",
            "The argument schema is valid draft 2020-12, an object, and uses only keywords every "
                    + "OpenAI-compatible provider accepts for tools.",
            PluginContractRules::providerSafe),
    PC_06(Level.REQUIRED, "resolver_deterministic_and_total", "docs/design.md#kernel-resolver-total",
            "The resolver gives the same result for the same input and never throws, for the examples "
                    + "and 1,000 generated utterances.",
            PluginContractRules::resolverTotal),
    PC_07(Level.REQUIRED, "validator_names_the_field_and_never_throws", "docs/design.md#kernel-validation",
            "A value of the wrong type for any property is rejected naming that property; the validator "
                    + "never throws.",
            PluginContractRules::validatorNamesField),
    PC_08(Level.REQUIRED, "idempotency_keys_stable_and_distinct", "docs/design.md#safety-idempotency-key",
            "Equivalent arguments give the same idempotency key; different arguments or turns give "
                    + "different keys.",
            PluginContractRules::idempotency),
    PC_09(Level.OPTIONAL, "throwing_port_is_a_structured_failure", "docs/design.md#safety-structured-failure",
            "With a port that throws, the event ends failed with a code, never as a leaked exception "
                    + "(needs pluginWithFailingPort()).",
            PluginContractRules::failingPort),
    PC_10(Level.OPTIONAL, "hanging_port_times_out", "docs/design.md#safety-handler-timeout-bound",
            "With a port that never answers, the event times out within its timeout and the interrupted handler "
                    + "returns (needs pluginWithHangingPort()).",
            PluginContractRules::hangingPort),
    PC_11(Level.OPTIONAL, "examples_identical_in_both_modes", "docs/design.md#modes-parity",
            "Every example runs through both modes with synthesized streams under random chunking and "
                    + "yields the expected, identical normalized results (needs examples()).",
            PluginContractRules::examplesInBothModes);

    private static final List<Rule> CATALOGUE = Rule.catalogue(Arrays.stream(values())
            .map(PluginContractRules::rule).toList());

    private final Rule rule;
    private final Check check;

    PluginContractRules(Level level, String name, String clause, String description, Check check) {
        this.rule = new Rule(name().replace('_', '-'), name, level, clause, description);
        this.check = check;
    }

    /** The rule. */
    public Rule rule() {
        return rule;
    }

    /** A rule's check over the plugin under test. */
    @FunctionalInterface
    interface Check {
        /**
         * Runs the check.
         *
         * @throws AssertionError with what broke; {@link TestAbortedException} to skip with a reason
         */
        void run(PluginContractSubject subject) throws Exception;
    }

    /** Keywords outside the subset every OpenAI-compatible provider accepts in a tool schema. */
    static final Set<String> UNSUPPORTED_KEYWORDS = Set.of("$ref", "$defs", "definitions", "oneOf", "anyOf", "allOf",
            "not", "if", "then", "else", "patternProperties", "dependentSchemas", "unevaluatedProperties");
    /**
     * How long PC-10 gives an interrupted handler to return: far beyond what one that honours interruption needs
     * (microseconds), so a loaded machine never fails a good plugin.
     */
    static final Duration HANDLER_RETURNS_WITHIN = Duration.ofSeconds(10);
    /** The longest timeout a handler may declare. */
    static final Duration MAX_TIMEOUT = Duration.ofSeconds(60);
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final int RESOLVER_EXAMPLES = Integer.getInteger("agentlab.contract.resolver-examples", 1_000);

    /** The reporter of the rule running on this thread ({@link PluginContractTests#pluginContractReporter}). */
    static final ThreadLocal<TestReporter> REPORTER = new ThreadLocal<>();

    /** Runs {@code rule} against the contract test {@code test}, held to its requirement. */
    static void run(PluginContractTests test, PluginContractRules rule) throws Throwable {
        PluginContract configuration = Optional.ofNullable(test.getClass().getAnnotation(PluginContract.class))
                .orElseThrow(() -> new IllegalStateException(test.getClass().getName()
                        + " implements PluginContractTests but is not annotated @PluginContract"));
        TestReporter reporter = REPORTER.get();
        // the author's methods run when a rule asks for what they give, inside the rule (PluginContractSubject)
        PluginContractSubject subject = new PluginContractSubject(test::plugin, test::examples,
                test::pluginWithFailingPort, test::pluginWithHangingPort, configuration, (key, value) -> {
                    if (reporter != null) {
                        reporter.publishEntry(Map.of(key, value));
                    }
                });
        Requirement.of(rule.rule.required()).run(rule.rule.displayName(), () -> {
            try {
                rule.check.run(subject);
            } catch (PluginContractSubject.TestClassMistake mistake) {
                throw new AssertionFailedError(rule.rule.failureMessage(mistake.getMessage()), mistake.getCause());
            }
        });
    }

    /** The catalogue, in order. */
    public static List<Rule> catalogue() {
        return CATALOGUE;
    }

    private static void definitionBuilds(PluginContractSubject subject) {
        try {
            subject.plugins().get().definition();
        } catch (RuntimeException e) {
            throw failure(PC_01, "the definition cannot be built: " + e.getMessage());
        }
    }

    private static void catalogBudget(PluginContractSubject subject) {
        EventDefinition definition = subject.definition();
        String line = "- " + definition.name() + ": " + definition.description();
        int catalog = tokens(line);
        int schema = tokens(definition.argumentsSchema()) + tokens(definition.description());
        subject.publish(Map.of("catalogTokens", Integer.toString(catalog), "toolSchemaTokens", Integer.toString(schema)));
        require(!definition.description().isBlank() && !definition.description().contains("\n"), PC_02,
                "the description must be one non-empty line; it is the catalog entry ChatAgent reads every turn");
        int budget = subject.configuration().catalogTokenBudget();
        require(budget > 0, PC_02, "@PluginContract(catalogTokenBudget = " + budget + ") must be a positive number "
                + "of tokens");
        require(catalog <= budget, PC_02, "the catalog line costs " + catalog + " tokens, over the budget of "
                + budget + " (@PluginContract(catalogTokenBudget)); shorten the description: \"" + line + "\"");
    }

    private static void terminalTerminates(PluginContractSubject subject) {
        EventDefinition d = subject.definition();
        require(!d.terminal() || d.resultPolicy() == ResultPolicy.TERMINATE, PC_03, "a terminal event with policy "
                + d.resultPolicy().wireName() + ": it would wait for every sibling and then not end the session");
    }

    private static void timeoutBounds(PluginContractSubject subject) {
        Duration timeout = subject.definition().timeout();
        require(timeout.compareTo(MAX_TIMEOUT) <= 0, PC_04, "timeout " + timeout + " is over " + MAX_TIMEOUT
                + "; a hanging port would hold the turn that long");
    }

    private static void providerSafe(PluginContractSubject subject) {
        EventDefinition d = subject.definition();
        try {
            ArgumentSchema.compile(d.name(), d.argumentsSchema());
        } catch (RuntimeException e) {
            throw failure(PC_05, "the kernel refuses the argument schema: " + e.getMessage());
        }
        JsonNode root = JSON.readTree(d.argumentsSchema());
        require("object".equals(root.path("type").asString("")), PC_05,
                "the schema's root must be {\"type\":\"object\"}; providers take tool arguments as an object");
        List<String> found = new ArrayList<>();
        collectUnsupported(root, "", found);
        require(found.isEmpty(), PC_05, "keywords outside the provider-safe subset: " + found
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
            throw failure(PC_06, "the resolver threw " + e + " on \"" + text + "\"; it must return a "
                    + "resolution (or an ambiguity) for any words");
        }
        require(first.equals(second), PC_06, "the resolver gave two results for \"" + text + "\": " + first
                + " then " + second + "; resolution must depend only on its input");
    }

    static Resolution resolve(EventDefinition d, String text, ZoneId zone, Instant at) {
        EventScope scope = new EventScope("contract", "t1");
        return d.resolver().resolve(new ResolutionInput(new EventRequest("e1", d.name(), Map.of(),
                InvocationMode.DUAL_AGENT, 0, scope, at), TurnContext.of(scope, at, zone, Locale.ENGLISH, text)));
    }

    private static void validatorNamesField(PluginContractSubject subject) {
        EventDefinition d = subject.definition();
        ArgumentSchema schema = subject.schema();
        JsonNode properties = JSON.readTree(d.argumentsSchema()).path("properties");
        for (var property : properties.properties()) {
            Map<String, Object> arguments = new LinkedHashMap<>();
            arguments.put(property.getKey(), Map.of("unexpected", List.of(1, 2)));
            ArgumentSchema.Check check = schema.check(arguments);
            require(check.violations().stream().anyMatch(v -> v.location().equals("/" + property.getKey())), PC_07,
                    "an object for '" + property.getKey() + "' was not rejected naming /" + property.getKey()
                            + "; violations were " + check.violations());
            try {
                d.validator().validate(arguments);
            } catch (RuntimeException e) {
                throw failure(PC_07, "the validator threw " + e + " on " + arguments + "; it must return violations");
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
        // the kernel hands the keys its canonical JSON, the same text for either order: a second key for it is a key
        // that depends on something besides its input (a clock, a random number)
        String again = d.idempotencyKeys().derive(scope, "e1", d.name(), CanonicalJson.write(reordered));
        require(key.equals(again), PC_08, "the same scope, event and arguments gave two idempotency keys ('" + key
                + "', then '" + again + "'): a key must depend on its input alone, or a retransmission is applied twice");
        require(!key.equals(d.idempotencyKeys().derive(scope, "e1", d.name(), CanonicalJson.write(Map.of("a", 2)))),
                PC_08, "different arguments gave the same idempotency key");
        require(!key.equals(d.idempotencyKeys().derive(new EventScope("contract", "t2"), "e1", d.name(),
                CanonicalJson.write(a))), PC_08, "another turn gave the same idempotency key: a retried turn would "
                + "be deduplicated against an unrelated one");
    }

    private static void failingPort(PluginContractSubject subject) {
        EventOutcome outcome = runOnce(PC_09, subject.failingPort().orElseThrow(() -> new TestAbortedException(
                PC_09.id() + " needs pluginWithFailingPort(): the plugin wired to a port that throws")),
                subject, (ended, execution) -> { });
        require(outcome instanceof EventOutcome.Failed, PC_09, "with a throwing port the event ended "
                + outcome.summary() + ", not failed with a code");
    }

    private static void hangingPort(PluginContractSubject subject) {
        EventOutcome outcome = runOnce(PC_10, subject.hangingPort().orElseThrow(() -> new TestAbortedException(
                PC_10.id() + " needs pluginWithHangingPort(): the plugin wired to a port that never answers")),
                subject, PluginContractRules::handlerReturned);
        require(outcome instanceof EventOutcome.TimedOut, PC_10, "with a hanging port the event ended "
                + outcome.summary() + ", not timed out");
    }

    /**
     * Timed out is half of PC-10: the kernel interrupts the handler, which must then return, or it holds a kernel
     * thread for as long as it waits (docs/kernel.md#threads). Asked while the kernel is open, before close()
     * interrupts it again.
     */
    private static void handlerReturned(EventOutcome outcome, BatchExecution execution) {
        if (!(outcome instanceof EventOutcome.TimedOut)) {
            return;
        }
        try {
            execution.quiescence().get(HANDLER_RETURNS_WITHIN.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException stillRunning) {
            throw failure(PC_10, "the event timed out, but its handler had not returned "
                    + HANDLER_RETURNS_WITHIN.toSeconds() + " s later: a handler must return when interrupted "
                    + "(and the hanging port double must wait in a way interruption ends: a latch, a sleep)");
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException runtime ? runtime : new IllegalStateException(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TestAbortedException("interrupted while the event ran");
        }
    }

    /**
     * Runs the first example with expected arguments through {@code plugin}, its port wired to fail; the arguments
     * must pass the plugin's own schema first, or the event would be rejected before the port and the rule would
     * blame the port for the example's mistake. {@code whileOpen} looks at the outcome and the batch before the kernel
     * closes.
     */
    private static EventOutcome runOnce(PluginContractRules rule, io.agentlab.kernel.api.EventPlugin plugin,
                                        PluginContractSubject subject,
                                        BiConsumer<EventOutcome, BatchExecution> whileOpen) {
        List<PluginExample> examples = subject.examples();
        int index = 0;
        while (index < examples.size() && examples.get(index).expected().isEmpty()) {
            index++;
        }
        if (index == examples.size()) {
            throw new TestAbortedException("needs an example with expected arguments to run the port");
        }
        PluginExample example = examples.get(index);
        ArgumentSchema.Check check = subject.schema().check(example.expected().get());
        List<String> refused = new ArrayList<>();
        check.missing().stream().sorted().forEach(name -> refused.add("/" + name + ": required, missing"));
        check.violations().forEach(violation -> refused.add(violation.location() + ": " + violation.message()));
        require(refused.isEmpty(), rule, "example " + (index + 1) + " \"" + example.utterance() + "\" expects "
                + "arguments the plugin's own schema refuses (" + String.join("; ", refused) + "): the kernel would "
                + "reject them before the port; correct the example");
        Instant at = OffsetDateTime.parse(example.now()).toInstant();
        try (ReferenceKernel kernel = ReferenceKernel.builder().register(plugin).build()) {
            EventDefinition d = kernel.definitions().get(0);
            TurnContext turn = TurnContext.of(new EventScope("contract", "port"), at, ZoneId.of(example.timezone()),
                    Locale.ENGLISH, example.utterance());
            BatchExecution execution = kernel.submit(EventBatch.builder(turn, InvocationMode.CHAT_AGENT_TOOLS)
                    .event(d.name(), example.expected().get()).build());
            EventOutcome outcome = execution.result().get().results().get(0).outcome();
            whileOpen.accept(outcome, execution);
            return outcome;
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException runtime ? runtime : new IllegalStateException(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TestAbortedException("interrupted while the event ran");
        }
    }

    private static void examplesInBothModes(PluginContractSubject subject) {
        if (subject.examples().isEmpty()) {
            throw new TestAbortedException(PC_11.id() + " needs examples(): utterances with their expected arguments");
        }
        List<Long> seeds = Arrays.stream(subject.configuration().seeds()).boxed().toList();
        require(!seeds.isEmpty(), PC_11, "@PluginContract(seeds = {}) gives no seed to chunk the streams with: the "
                + "examples would not run; leave the default or name at least one");
        subject.schema(); // a schema the kernel refuses aborts here, pointing to PC-05, not in each run below
        List<String> failures = support(PC_11, "run the examples as suite cases")
                .runExamples(subject.plugins(), subject.examples(), seeds);
        require(failures.isEmpty(), PC_11, String.join("\n", failures));
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
            throw new TestAbortedException(PC_02.id() + " counts tokens with io.agentlab:agentlab-tokens: add it "
                    + "(test scope) "
                    + "to the test classpath; see docs/plugin-contract.md#artifacts");
        }
    }

    /**
     * The engine's support, or the rule is skipped (aborted, so counted as not run, never as passed) with one line
     * naming the artifact that runs it (docs/plugin-contract.md#artifacts).
     */
    private static PluginContractSupport support(PluginContractRules rule, String what) {
        return PluginContractSupport.find().orElseThrow(() -> new TestAbortedException(rule.id() + " needs "
                + PluginContractSupport.PROVIDER + " on the test classpath to " + what
                + "; see docs/plugin-contract.md#artifacts"));
    }

    private static void require(boolean condition, PluginContractRules rule, String message) {
        if (!condition) {
            throw failure(rule, message);
        }
    }

    private static AssertionFailedError failure(PluginContractRules rule, String message) {
        return new AssertionFailedError(rule.rule.failureMessage(message));
    }

    /** The rule's id, e.g. {@code PC-06}. */
    public String id() {
        return rule.id();
    }
}
