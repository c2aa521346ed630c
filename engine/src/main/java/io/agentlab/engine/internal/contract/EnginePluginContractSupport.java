package io.agentlab.engine.internal.contract;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.agentlab.contracts.PluginContractRules;
import io.agentlab.contracts.PluginContractSupport;
import io.agentlab.contracts.PluginExample;
import io.agentlab.engine.expect.EventsExpectation;
import io.agentlab.engine.expect.Expectations;
import io.agentlab.engine.internal.execution.CaseRun;
import io.agentlab.engine.internal.execution.CaseRunner;
import io.agentlab.engine.internal.execution.ExpectationCheck;
import io.agentlab.engine.internal.execution.KernelSource;
import io.agentlab.engine.internal.execution.Parity;
import io.agentlab.engine.internal.execution.ProviderSource;
import io.agentlab.engine.internal.execution.TurnRun;
import io.agentlab.engine.internal.suite.ParityRules;
import io.agentlab.engine.internal.suite.RecordingLibrary;
import io.agentlab.engine.internal.suite.Suite;
import io.agentlab.engine.internal.suite.SuiteOrigin;
import io.agentlab.engine.internal.suite.SuiteReader;
import io.agentlab.engine.internal.yaml.Position;
import io.agentlab.kernel.api.CanonicalJson;
import io.agentlab.kernel.api.EventPlugin;
import io.agentlab.kernel.api.InvocationMode;
import io.agentlab.kernel.api.KernelLimits;
import io.agentlab.providers.recorded.LatencyModel;
import io.agentlab.providers.recorded.ProviderFamily;
import io.agentlab.providers.recorded.TimedReplay;
import io.agentlab.runtime.usage.PricingCatalog;
import java.io.IOException;
import java.io.InputStream;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.apiguardian.api.API;
import tools.jackson.core.type.TypeReference;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * The engine's side of the plugin contract (docs/plugin-contract.md#artifacts): YAML example files, and PC-11's
 * examples run as one-turn suite cases through the same {@link CaseRunner} as every shipped suite.
 * Registered in {@code META-INF/services}.
 */
@API(status = INTERNAL, since = "0.2")
public final class EnginePluginContractSupport implements PluginContractSupport {

    private static final YAMLMapper YAML = new YAMLMapper();

    /** For the service loader. */
    public EnginePluginContractSupport() {
    }

    @Override
    public Map<String, Object> readYaml(InputStream in) throws IOException {
        Map<String, Object> document = YAML.readValue(in, new TypeReference<Map<String, Object>>() { });
        return document == null ? Map.of() : document;
    }

    @Override
    public List<String> runExamples(Supplier<EventPlugin> plugins, List<PluginExample> examples, List<Long> seeds) {
        String name = plugins.get().definition().name();
        KernelSource factory = () -> List.of(plugins.get());
        // a failure is said once, with the seeds it happened under, not once per seed (docs/plugin-contract.md#pc-11)
        Map<String, List<Long>> failures = new LinkedHashMap<>();
        try (TimedReplay replay = TimedReplay.start(List.of(), 0)) {
            for (long seed : seeds) {
                CaseRunner runner = new CaseRunner(new CaseRunner.Environment(factory, ProviderSource.replay(replay,
                        new RecordingLibrary(List.of(), "recordings", EnginePluginContractSupport.class.getClassLoader()),
                        seed), () -> false, PricingCatalog.empty()));
                for (int i = 0; i < examples.size(); i++) {
                    PluginExample example = examples.get(i);
                    Suite suite = suite(name, example, i);
                    Suite.Case testCase = suite.cases().get(0);
                    CaseRun dual = runner.run(suite, testCase, InvocationMode.DUAL_AGENT);
                    CaseRun tools = runner.run(suite, testCase, InvocationMode.CHAT_AGENT_TOOLS);
                    String which = "example " + (i + 1) + " \"" + example.utterance() + "\"";
                    for (CaseRun run : List.of(dual, tools)) {
                        for (TurnRun turn : run.turns()) {
                            ExpectationCheck.failures(turn).forEach(f -> failures.computeIfAbsent(which + " ("
                                    + run.mode().wireName() + "): " + f, key -> new ArrayList<>()).add(seed));
                        }
                    }
                    Parity.diff(dual, tools).ifPresent(diff -> failures.computeIfAbsent(which
                            + ": the modes disagree:\n" + diff, key -> new ArrayList<>()).add(seed));
                }
            }
        }
        List<String> lines = new ArrayList<>();
        failures.forEach((failure, under) -> lines.add(failure + (under.size() == seeds.size() ? " [every seed]"
                : " [seed" + (under.size() == 1 ? " " : "s ") + under.stream().map(String::valueOf)
                .collect(Collectors.joining(", ")) + "]")));
        return lines;
    }

    private static Suite suite(String name, PluginExample example, int index) {
        Map<String, Object> arguments = example.expected().orElse(Map.of());
        Map<InvocationMode, Suite.Reply> replies = Map.of(
                InvocationMode.DUAL_AGENT, new Suite.Reply("Okay.", List.of(new Suite.ProposedEvent(name, "{}"))),
                InvocationMode.CHAT_AGENT_TOOLS, new Suite.Reply("Okay.", List.of(new Suite.ProposedEvent(name,
                        CanonicalJson.write(arguments)))));
        EventsExpectation.EventExpectation.Builder event = EventsExpectation.EventExpectation.named(name)
                .status(example.expected().isPresent() ? "succeeded" : "needs_clarification");
        example.expected().ifPresent(expected -> event.arguments(expected).exactArguments());
        Expectations expect = Expectations.builder()
                .add(new EventsExpectation(List.of(event.build()), Position.UNKNOWN)).build();
        Suite.Turn turn = Suite.Turn.scripted(example.utterance(), replies, Optional.of("Done."), Optional.of("{}"),
                expect);
        Suite.Case testCase = new Suite.Case("example-" + (index + 1), example.utterance(),
                PluginContractRules.PC_11.id() + " " + PluginContractRules.PC_11.rule().clause(), List.of(),
                List.of(InvocationMode.values()), List.of(turn), ParityRules.none(), Position.UNKNOWN);
        return new Suite("plugin-contract", "Plugin contract examples", "", List.of(), List.of(InvocationMode.values()),
                new Suite.KernelSettings(List.of(name), KernelLimits.DEFAULT_CONCURRENCY_LIMIT,
                        KernelLimits.DEFAULT_BATCH_DEADLINE),
                new Suite.SessionSettings(ZoneId.of(example.timezone()),
                        Optional.of(OffsetDateTime.parse(example.now()).toInstant()), Locale.ENGLISH),
                new Suite.ProviderSettings(ProviderFamily.OPENAI, SuiteReader.DEFAULT_MODEL, new LatencyModel(0, 0, 0)),
                List.of(), List.of(), List.of(testCase), SuiteOrigin.classpath("plugin-contract"), Position.UNKNOWN);
    }
}
