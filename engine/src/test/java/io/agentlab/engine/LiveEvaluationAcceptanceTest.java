package io.agentlab.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectFile;

import io.agentlab.runtime.llm.Json;
import io.agentlab.providers.recorded.ProviderFamily;
import io.agentlab.providers.recorded.ProviderStream;
import io.agentlab.providers.recorded.StandInProvider;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;
import tools.jackson.databind.JsonNode;

/**
 * The evaluation against a model whose behaviour is known: a stand-in provider over the real wire (loopback HTTP,
 * llama.cpp's stream shape, closing its connection after each stream as llama.cpp's server does) that names each
 * labelled event with probability 0.8 (another enabled event otherwise) and, in native tool calls, drops one labelled
 * argument with probability 0.1. The evaluation must report each rate with a correct interval around an unbiased
 * estimate of the truth, in both modes, with no call lost to a closed connection and no kernel guarantee broken.
 *
 * <p>The policy is seeded ({@link #SEED}). A 95 % interval misses the truth one time in twenty by definition: with this
 * seed the dual_agent selection precision came out at 0.746 [0.687, 0.797] over 240 events, 2.1 standard errors below
 * 0.8. So each figure is checked twice: its 95 % interval is Wilson's for its counts, and the truth lies within the
 * 99.9 % interval (see {@link #covers}).
 */
@Timeout(300)
class LiveEvaluationAcceptanceTest {

    static final long SEED = 20261130L;
    private static final int REPETITIONS = 40;
    /** Enough to show the recording replays with equal scores; the intervals need the larger count, this does not. */
    private static final int REPLAY_REPETITIONS = 8;
    private static final double RIGHT_EVENT = 0.8;
    private static final double DROP_ARGUMENT = 0.1;
    private static final List<String> EVENTS = List.of("device.volume.adjust", "knowledge.web.search",
            "session.terminate");
    /** The labels of eval-suites/labels.yaml: per user message, the expected events and their arguments. */
    private static final Map<String, List<Map.Entry<String, Map<String, Object>>>> LABELS = Map.of(
            "set the volume to 30", List.of(Map.entry("device.volume.adjust", Map.of("mode", "absolute", "value", 30))),
            "turn it down 15", List.of(Map.entry("device.volume.adjust", Map.of("mode", "relative", "delta", -15))),
            "turn it up a bit", List.of(Map.entry("device.volume.adjust", Map.of("mode", "relative", "delta", 10))),
            "max volume please", List.of(Map.entry("device.volume.adjust", Map.of("mode", "absolute", "value", 100))),
            "turn it up a bit and search the weather in Paris", List.of(
                    Map.entry("device.volume.adjust", Map.of("mode", "relative", "delta", 10)),
                    Map.entry("knowledge.web.search", Map.of())));

    @TempDir
    Path temp;

    /** The known policy, answering every call of a turn in llama.cpp's stream shape. */
    static final class Policy implements StandInProvider.Responder {
        private final Random random = new Random(SEED);
        private final LocalDate day = LocalDate.of(2026, 11, 30);
        final AtomicInteger chatCalls = new AtomicInteger();

        @Override
        public synchronized List<String> answer(String body, String role, int call) {
            JsonNode request = Json.tree(body);
            String user = "";
            for (JsonNode message : request.path("messages")) {
                if (message.path("role").asString().equals("user")) {
                    user = message.path("content").asString();
                }
            }
            ProviderStream stream = ProviderFamily.LLAMACPP.stream("local-model", "call-" + call, day);
            if ("follow_up".equals(role)) {
                return stream.content("Here is what I found.").finish("stop", ProviderStream.Usage.of(320, 6))
                        .done().payloads();
            }
            if ("event_agent".equals(role)) {
                return stream.content("{}").finish("stop", ProviderStream.Usage.of(90, 2)).done().payloads();
            }
            chatCalls.incrementAndGet();
            boolean tools = request.has("tools");
            List<Map.Entry<String, Map<String, Object>>> labels = LABELS.getOrDefault(user, List.of());
            List<String> names = new ArrayList<>();
            List<Map<String, Object>> arguments = new ArrayList<>();
            for (Map.Entry<String, Map<String, Object>> label : labels) {
                if (random.nextDouble() < RIGHT_EVENT) {
                    Map<String, Object> proposed = new LinkedHashMap<>(label.getValue());
                    if (!proposed.isEmpty() && random.nextDouble() < DROP_ARGUMENT) {
                        proposed.remove(new ArrayList<>(proposed.keySet()).get(random.nextInt(proposed.size())));
                    }
                    names.add(label.getKey());
                    arguments.add(proposed);
                } else {
                    List<String> wrong = EVENTS.stream().filter(name -> labels.stream()
                            .noneMatch(l -> l.getKey().equals(name))).toList();
                    names.add(wrong.get(random.nextInt(wrong.size())));
                    arguments.add(Map.of());
                }
            }
            stream.content("Sure, ", "on it!");
            if (!tools) {
                if (!names.isEmpty()) {
                    stream.content("\n[[EVENTS]] " + String.join(", ", names));
                }
                return stream.finish("stop", ProviderStream.Usage.of(300, 20)).done().payloads();
            }
            for (int i = 0; i < names.size(); i++) {
                String json = Json.write(arguments.get(i));
                stream.toolCall(i, "call_" + call + "_" + i, names.get(i).replace('.', '_'),
                        List.of(json.substring(0, json.length() / 2), json.substring(json.length() / 2)));
            }
            return stream.finish(names.isEmpty() ? "stop" : "tool_calls", ProviderStream.Usage.of(300, 20)).done()
                    .payloads();
        }
    }

    static EngineExecutionResults evaluate(Path report, Map<String, String> configuration, Path output) {
        EngineTestKit.Builder kit = EngineTestKit.engine(ConformanceTestEngine.ENGINE_ID)
                // by file, as the report fixture is: the sample suites' classpath root stays as it is
                .selectors(selectFile(Path.of("src/test/resources/eval-suites/labels.yaml").toFile()))
                .configurationParameter(Constants.EVALUATE, "true")
                .configurationParameter(Constants.REPETITIONS, Integer.toString(REPETITIONS))
                .configurationParameter(Constants.CONTROL_RUNS, "false")
                .configurationParameter(Constants.REPORT_DIRECTORY, report.toString())
                .outputDirectoryCreator(new TempOutputDirectories(output));
        configuration.forEach(kit::configurationParameter);
        return kit.execute();
    }

    static Map<String, Map<String, JsonNode>> estimates(Path report) throws IOException {
        JsonNode evaluation = Json.tree(Files.readString(report.resolve("evaluation.json")));
        Map<String, Map<String, JsonNode>> figures = new LinkedHashMap<>();
        for (JsonNode measure : evaluation.path("measures")) {
            Map<String, JsonNode> modes = new LinkedHashMap<>();
            measure.path("modes").properties().forEach(mode -> modes.put(mode.getKey(), mode.getValue()));
            figures.put(measure.path("metric").asString(), modes);
        }
        return figures;
    }

    /**
     * Wilson's score interval of {@code p} observed over {@code n} trials at normal quantile {@code z} (written out
     * here, so the test does not take the evaluation's own arithmetic on trust).
     */
    private static double[] wilson(double p, long n, double z) {
        double denominator = 1 + z * z / n;
        double centre = (p + z * z / (2 * n)) / denominator;
        double half = z * Math.sqrt(p * (1 - p) / n + z * z / (4.0 * n * n)) / denominator;
        return new double[] {Math.max(0, centre - half), Math.min(1, centre + half)};
    }

    /**
     * The reported figure is right about the truth: its 95 % interval is Wilson's for the counts it reports, and the
     * truth lies within the 99.9 % interval around the estimate. (Twelve 95 % intervals would leave one truth out in
     * almost half of all seeds by chance alone; at 99.9 % a correct evaluation fails about one seed in eighty, a
     * biased one nearly always. The seed is fixed, so the run is reproducible; a failure prints the figure.)
     */
    private static void covers(Map<String, Map<String, JsonNode>> figures, String metric, String mode, double truth) {
        JsonNode estimate = figures.getOrDefault(metric, Map.of()).get(mode);
        assertThat(estimate).as(metric + " in " + mode).isNotNull();
        double value = estimate.path("value").asDouble();
        long n = estimate.path("n").asLong();
        double[] reported = wilson(value, n, 1.959964);
        assertThat(estimate.path("low").asDouble()).as(metric + " in " + mode + ": the 95 % interval")
                .isCloseTo(reported[0], within(1e-9));
        assertThat(estimate.path("high").asDouble()).as(metric + " in " + mode + ": the 95 % interval")
                .isCloseTo(reported[1], within(1e-9));
        double[] wide = wilson(value, n, 3.290527);
        assertThat(truth).as(metric + " in " + mode + " (seed " + SEED + "): " + estimate).isBetween(wide[0], wide[1]);
    }

    @Test
    @DisplayName("a stand-in with a known policy: every rate within its interval of the truth, in both modes, over "
            + "the real wire, with no call lost to a closed connection")
    void ratesWithinTheirIntervals() throws IOException {
        Policy policy = new Policy();
        Path report = temp.resolve("report");
        try (StandInProvider provider = StandInProvider.start(StandInProvider.Connections.CLOSE_AFTER_EACH_STREAM,
                policy)) {
            EngineExecutionResults results = evaluate(report, Map.of(Constants.PROVIDER, "live",
                    Constants.LIVE_BASE_URL, provider.baseUrl()), temp.resolve("out"));

            results.testEvents().assertStatistics(stats -> stats.failed(0).aborted(0));
            assertThat(results.testEvents().succeeded().count()).as("each case in each mode, and parity").isEqualTo(15);
            assertThat(policy.chatCalls).hasValue(2 * 5 * REPETITIONS);
            assertThat(provider.dropped()).as("calls sent on a connection the stand-in had finished with").isPositive();
            assertThat(provider.requests()).isEqualTo(provider.answered() + provider.dropped());
        }
        Map<String, Map<String, JsonNode>> figures = estimates(report);
        for (String mode : List.of("dual_agent", "chat_agent_tools")) {
            covers(figures, "selectionPrecision", mode, RIGHT_EVENT);
            covers(figures, "selectionRecall", mode, RIGHT_EVENT);
            covers(figures, "multiEventRecall", mode, RIGHT_EVENT);
            covers(figures, "argumentAccuracyAfterNormalization", mode, 1.0);
            covers(figures, "clarificationRate", mode, 0.0);
            covers(figures, "firstVisibleBeforeEventsRate", mode, 1.0);
        }
        covers(figures, "argumentAccuracyBeforeNormalization", "chat_agent_tools", 1 - DROP_ARGUMENT);
        assertThat(figures.get("argumentAccuracyBeforeNormalization")).as("a hidden block proposes no arguments")
                .doesNotContainKey("dual_agent");
        JsonNode metrics = Json.tree(Files.readString(report.resolve("metrics.json")));
        for (String mode : List.of("dual_agent", "chat_agent_tools")) {
            assertThat(metrics.path("modes").path(mode).path("providerErrorTurns").asLong()).as(mode).isZero();
            assertThat(metrics.path("modes").path(mode).path("usageUnknownTurns").asLong()).as(mode).isZero();
        }
        assertThat(Files.readString(report.resolve("evaluation.md"))).contains("| event-selection precision |",
                "tools − dual", "40 repetitions");
    }

    @Test
    @DisplayName("an evaluation recorded while it runs (redacted) replays offline with the same scores")
    void recordedEvaluationReplays() throws IOException {
        Path recordings = temp.resolve("recordings");
        Path live = temp.resolve("live");
        try (StandInProvider provider = StandInProvider.start(StandInProvider.Connections.CLOSE_AFTER_EACH_STREAM,
                new Policy())) {
            evaluate(live, Map.of(Constants.PROVIDER, "live", Constants.LIVE_BASE_URL,
                    provider.baseUrl(), Constants.LIVE_RECORD_DIRECTORY, recordings.toString(),
                    Constants.LIVE_RECORD_FAMILY, "llamacpp", Constants.REPETITIONS,
                    Integer.toString(REPLAY_REPETITIONS)), temp.resolve("out-live"))
                    .testEvents().assertStatistics(stats -> stats.failed(0).aborted(0));
        }
        try (var files = Files.list(recordings)) {
            assertThat(files.count()).as("one recording per chat call at least")
                    .isGreaterThanOrEqualTo(2 * 5 * REPLAY_REPETITIONS);
        }
        Path replayed = temp.resolve("replayed");
        evaluate(replayed, Map.of(Constants.REPLAY_DIRECTORY, recordings.toString(),
                Constants.REPLAY_SPEED, "0", Constants.REPETITIONS,
                Integer.toString(REPLAY_REPETITIONS)), temp.resolve("out-replayed"))
                .testEvents().assertStatistics(stats -> stats.failed(0).aborted(0));

        Map<String, Map<String, JsonNode>> recorded = estimates(live);
        Map<String, Map<String, JsonNode>> offline = estimates(replayed);
        List<String> scores = List.of("selectionPrecision", "selectionRecall", "multiEventRecall",
                "argumentAccuracyBeforeNormalization", "argumentAccuracyAfterNormalization", "clarificationRate",
                "firstVisibleBeforeEventsRate", "llmCallsPerTurn", "chatPromptTokensPerTurn",
                "chatCompletionTokensPerTurn", "deterministicHitRate", "executionSuccessRate");
        for (String score : scores) {
            assertThat(offline.get(score)).as(score).isEqualTo(recorded.get(score));
        }
    }
}
