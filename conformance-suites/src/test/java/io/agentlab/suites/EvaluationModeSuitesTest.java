package io.agentlab.suites;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClasspathResource;
import static org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder.request;

import io.agentlab.engine.ConformanceTestEngine;
import io.agentlab.engine.Constants;
import io.agentlab.runtime.llm.Json;
import io.agentlab.providers.recorded.ProviderFamily;
import io.agentlab.providers.recorded.ProviderStream;
import io.agentlab.providers.recorded.StandInProvider;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.launcher.EngineFilter;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;
import tools.jackson.databind.JsonNode;

/**
 * The shipped suites in evaluation mode ({@code agentlab.evaluate}): their expectations were written for scripted
 * replies, so a real model fails them on wording in a plain run; evaluating, only the kernel's guarantees can fail a
 * case. Once against the recorded and scripted replies (the batches really run, so the guarantees are really
 * checked), once against a stand-in model that words everything its own way and names no event.
 */
@Timeout(600)
class EvaluationModeSuitesTest {

    @TempDir
    Path temp;

    private static TestExecutionSummary evaluate(Map<String, String> configuration) {
        SummaryGeneratingListener listener = new SummaryGeneratingListener();
        LauncherFactory.create().execute(request().selectors(selectClasspathResource("agentlab/suites"))
                .filters(EngineFilter.includeEngines(ConformanceTestEngine.ENGINE_ID))
                .configurationParameters(configuration).build(), listener);
        return listener.getSummary();
    }

    private Map<String, String> configuration(String report) {
        Map<String, String> configuration = new HashMap<>();
        configuration.put(Constants.EVALUATE, "true");
        configuration.put(Constants.CONTROL_RUNS, "false");
        configuration.put(Constants.REPLAY_SPEED, "0");
        // four cases at a time, as ConformanceSuitesTest: at speed 0 a case's time is mostly its batch deadlines' waits
        configuration.put(Constants.PARALLEL, "true");
        configuration.put(Constants.PARALLEL_CONFIG_PREFIX + "strategy", "fixed");
        configuration.put(Constants.PARALLEL_CONFIG_PREFIX + "fixed.parallelism", "4");
        configuration.put(Constants.REPORT_DIRECTORY, temp.resolve(report).toString());
        return configuration;
    }

    private static void noFailure(TestExecutionSummary summary) {
        assertThat(summary.getFailures()).as("failures").extracting(failure -> failure.getTestIdentifier()
                .getDisplayName() + ": " + failure.getException().getMessage()).isEmpty();
        assertThat(summary.getTestsSucceededCount()).isPositive();
        assertThat(summary.getTestsAbortedCount()).isZero();
    }

    @Test
    @DisplayName("evaluating the recorded and scripted replies, every shipped case keeps the kernel's guarantees")
    void recordedReplies() throws Exception {
        noFailure(evaluate(configuration("recorded")));
        assertThat(Files.readString(temp.resolve("recorded").resolve("evaluation.md"))).contains("event-selection");
    }

    @Test
    @DisplayName("a model that words everything its own way fails no shipped case on wording when evaluating")
    void ownWording() throws Exception {
        LocalDate day = LocalDate.of(2026, 11, 30);
        try (StandInProvider model = StandInProvider.start(StandInProvider.Connections.CLOSE_AFTER_EACH_STREAM,
                (body, role, call) -> ProviderFamily.LLAMACPP.stream("local-model", "own-" + call, day)
                        .content("Hmm, ", "let me think about that in my own words.")
                        .finish("stop", ProviderStream.Usage.of(200, 11)).done().payloads())) {
            Map<String, String> configuration = configuration("own-wording");
            configuration.put(Constants.PROVIDER, "live");
            configuration.put(Constants.LIVE_BASE_URL, model.baseUrl());
            TestExecutionSummary summary = evaluate(configuration);
            noFailure(summary);
            assertThat(model.requests()).isEqualTo(model.answered() + model.dropped());
        }
        JsonNode metrics = Json.tree(Files.readString(temp.resolve("own-wording").resolve("metrics.json")));
        for (String mode : List.of("dual_agent", "chat_agent_tools")) {
            assertThat(metrics.path("modes").path(mode).path("providerErrorTurns").asLong(-1)).as(mode).isZero();
        }
    }
}
