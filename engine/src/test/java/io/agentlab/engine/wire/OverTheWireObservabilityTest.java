package io.agentlab.engine.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectFile;

import io.agentlab.engine.ConformanceTestEngine;
import io.agentlab.engine.Constants;
import io.agentlab.runtime.llm.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.reporting.ReportEntry;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.Event;
import org.junit.platform.testkit.engine.EventType;

/**
 * Over the wire, what the wire cannot show is reported with its reason and counted, never passed
 * (docs/wire.md#observability): against the reference service, a test expecting only what is inside the runtime is
 * skipped with the reasons, one expecting some of it is judged on the rest and names the rest, and the run's metadata
 * counts them per kind and names the subject.
 */
class OverTheWireObservabilityTest {

    @TempDir
    static Path temp;
    private static EngineExecutionResults results;

    @BeforeAll
    static void run() {
        results = org.junit.platform.testkit.engine.EngineTestKit.engine(ConformanceTestEngine.ENGINE_ID)
                .configurationParameter(Constants.REPLAY_SPEED, "0")
                .configurationParameter(Constants.CONTROL_RUNS, "false")
                .configurationParameter("agentlab.gates.enabled", "false")
                .configurationParameter(Constants.REPORT_DIRECTORY, temp.resolve("report").toString())
                .configurationParameter(Constants.RUNTIME_COMMAND, OverTheWireTest.serviceCommand())
                .selectors(selectFile(Path.of("src/test/wire-suites/observability.suite.yaml").toFile()))
                .execute();
    }

    private static List<Event> of(String caseId, EventType type) {
        return results.allEvents().stream().filter(event -> event.getType() == type)
                .filter(event -> event.getTestDescriptor().isTest())
                .filter(event -> event.getTestDescriptor().getUniqueId().toString().contains("[case:" + caseId + "]"))
                .toList();
    }

    @Test
    @DisplayName("a test expecting only what is inside the runtime is skipped, both modes and parity, naming why")
    void insideOnlyIsSkipped() {
        List<Event> skipped = of("inside-only", EventType.SKIPPED);
        assertThat(skipped).hasSize(3);
        assertThat(skipped).allSatisfy(event -> assertThat(event.getRequiredPayload(String.class))
                .contains("history: not observable over the wire (the runtime's stored history is inside it)")
                .contains("usage: not observable over the wire (the runtime's accounting of its model calls is "
                        + "inside it)"));
        assertThat(of("inside-only", EventType.STARTED)).isEmpty();
    }

    @Test
    @DisplayName("a test expecting some of it passes on the rest, and names each part it could not judge")
    void partlySeenNamesTheRest() {
        List<Event> finished = of("partly-seen", EventType.FINISHED);
        assertThat(finished).hasSize(3).allSatisfy(event -> assertThat(event.getRequiredPayload(
                TestExecutionResult.class).getStatus()).isEqualTo(TestExecutionResult.Status.SUCCESSFUL));
        List<String> entries = of("partly-seen", EventType.REPORTING_ENTRY_PUBLISHED).stream()
                .map(event -> event.getRequiredPayload(ReportEntry.class).getKeyValuePairs())
                .filter(pairs -> pairs.containsKey("not-observable")).map(pairs -> pairs.get("not-observable"))
                .toList();
        assertThat(entries).hasSize(4).anySatisfy(entry -> assertThat(entry)
                .startsWith("turn 1 (\"set the volume to 30\"), events at ")
                .endsWith(": events event 1 (device.volume.adjust) resolution: not observable over the wire (steps of "
                        + "the runtime's resolution pipeline, inside it)"))
                .anySatisfy(entry -> assertThat(entry).contains(": history: not observable over the wire"));
    }

    @Test
    @DisplayName("what the wire shows is judged: a wrong status fails, the unjudged part beside it is named")
    void seenAndWrongFails() {
        List<Event> finished = of("seen-and-wrong", EventType.FINISHED).stream()
                .filter(event -> event.getTestDescriptor().getUniqueId().toString().contains("[mode:")).toList();
        assertThat(finished).hasSize(2).allSatisfy(event -> assertThat(event.getRequiredPayload(
                TestExecutionResult.class).getThrowable()).get().extracting(Throwable::getMessage).asString()
                .contains("expected status failed but was succeeded"));
    }

    @Test
    @DisplayName("the run's metadata names the subject and counts what was not observable per kind")
    void metadataCounts() throws IOException {
        Object run = Json.object(Json.tree(Files.readString(temp.resolve("report/metrics.json")))).get("run");
        assertThat(run).isInstanceOf(Map.class);
        // the port the kit chose, not the {port} it was given (docs/wire.md#no-provider-call)
        assertThat(String.valueOf(((Map<?, ?>) run).get("subject")))
                .matches("over the wire: http://127\\.0\\.0\\.1:[1-9][0-9]* \\(started: .*");
        // inside-only: history and usage in each of 2 modes; partly-seen: resolution and history in 2 modes;
        // seen-and-wrong: validAsProposed in 2 modes
        assertThat(((Map<?, ?>) run).get("notObservable")).isEqualTo(Map.of("events", 4, "history", 4, "usage", 2));
        assertThat(Files.readString(temp.resolve("report/report.md")))
                .containsPattern("\\| subject \\| over the wire: http://127\\.0\\.0\\.1:[1-9][0-9]* \\(started: ")
                .contains("| not observable | 10 expectation(s) or parts not observable over the wire, not judged: "
                        + "events 4, history 4, usage 2 |");
    }

    @Test
    @DisplayName("a measure the wire cannot take is not measured, not 0: null in metrics.json, no verdict in report.md")
    void blindMeasuresAreNotZero() throws IOException {
        Map<?, ?> modes = (Map<?, ?>) Json.object(Json.tree(Files.readString(temp.resolve("report/metrics.json"))))
                .get("modes");
        assertThat(modes.keySet()).map(Object::toString).contains("dual_agent", "chat_agent_tools");
        modes.values().forEach(mode -> {
            Map<?, ?> figures = (Map<?, ?>) mode;
            assertThat(figures.get("logicalEvents")).isNotEqualTo(0); // events ran, so the rates had turns to count
            assertThat(figures.get("validArgumentRateBeforeNormalization")).isNull();
            assertThat(figures.get("validArgumentRateAfterNormalization")).isNull();
            assertThat(figures.get("argumentAccuracyBeforeNormalization")).isNull();
            assertThat(((Map<?, ?>) figures.get("chatCallTtftMs")).get("samples")).isEqualTo(0);
            assertThat(((Map<?, ?>) figures.get("chatCallTtftMs")).get("p50")).isNull();
            assertThat(((Map<?, ?>) figures.get("firstVisibleTtftMs")).get("samples")).isNotEqualTo(0);
        });
        assertThat(Files.readString(temp.resolve("report/report.md")).lines()
                .filter(line -> line.startsWith("| valid arguments before normalization ")
                        || line.startsWith("| ChatAgent call TTFT")).toList())
                .hasSize(2).allSatisfy(line -> assertThat(line).contains("not observable over the wire")
                        .doesNotContain("0.0"));
    }

    @Test
    @DisplayName("over the wire no kernel factory of the kit's is under test: no kernel row, and none in metrics.json")
    void noKernelFactory() throws IOException {
        Map<?, ?> run = (Map<?, ?>) Json.object(Json.tree(Files.readString(temp.resolve("report/metrics.json"))))
                .get("run");
        assertThat(run.get("kernelFactory")).isNull();
        assertThat(Files.readString(temp.resolve("report/report.md"))).doesNotContain("kernel under test")
                .doesNotContain("ServiceLoaderKernelFactory");
        assertThat(Files.readString(temp.resolve("report/index.html"))).doesNotContain("kernel under test")
                .doesNotContain("ServiceLoaderKernelFactory");
    }
}
