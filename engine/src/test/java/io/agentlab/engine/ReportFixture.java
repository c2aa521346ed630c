package io.agentlab.engine;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectFile;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;

/**
 * One engine run over {@code report-suites/report-fixture.yaml} — a passing case, a follow-up, a fallback, a provider
 * that withholds its text until after its tool call, and one deliberately broken case — with a previous run's
 * {@code metrics.json} to compare against; shared by the report tests of this JVM so the suite runs once.
 */
final class ReportFixture {

    /**
     * Where the run writes its reports: one folder per test JVM, since the report tests may run in two JVMs at once
     * (the build's forks, docs/performance.md#build-time) and each deletes its folder first.
     */
    static final Path DIRECTORY = Path.of("target/report-fixture", "jvm-" + ProcessHandle.current().pid());

    /** A previous run in which dual_agent sent fewer prompt tokens per turn and never fell back. */
    static final String PREVIOUS = """
            {"run": {"startedAt": "2026-11-29T09:00:00Z", "commit": "0123456789ab"},
             "modes": {"dual_agent": {"chatPromptTokensPerTurn": 100.0, "fallbackRate": 0.0,
                                      "firstVisibleTtftMs": {"samples": 4, "p50": 1.0, "p95": 2.0}}}}
            """;

    /**
     * The run's outcome.
     *
     * @param results  what the engine reported
     * @param html     {@code index.html}
     * @param markdown {@code report.md}
     * @param metrics  {@code metrics.json}
     * @param console  what the engine printed
     */
    record Run(EngineExecutionResults results, Path html, Path markdown, Path metrics, String console) {
    }

    private static Run run;

    private ReportFixture() {
    }

    static synchronized Run get() {
        if (run == null) {
            run = execute();
        }
        return run;
    }

    private static Run execute() {
        try {
            deleteRecursively(DIRECTORY);
            Path reports = Files.createDirectories(DIRECTORY.resolve("reports"));
            Path previous = Files.writeString(DIRECTORY.resolve("previous-metrics.json"), PREVIOUS);
            Path suite = Path.of("src/test/resources/report-suites/report-fixture.yaml");
            PrintStream console = System.out;
            ByteArrayOutputStream printed = new ByteArrayOutputStream();
            EngineExecutionResults results;
            System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
            try {
                results = EngineTestKit.engine(ConformanceTestEngine.ENGINE_ID).selectors(selectFile(suite.toFile()))
                        // half speed: timelines keep the latency model's proportions, the run stays short
                        .configurationParameter(Constants.REPLAY_SPEED, "0.5")
                        .configurationParameter(Constants.REPORT_DIRECTORY, reports.toString())
                        .configurationParameter(Constants.PREVIOUS_METRICS, previous.toString())
                        .outputDirectoryCreator(new TempOutputDirectories(DIRECTORY.resolve("out"))).execute();
            } finally {
                System.setOut(console);
            }
            String text = printed.toString(StandardCharsets.UTF_8);
            console.print(text);
            if (!Files.isRegularFile(reports.resolve("index.html"))) {
                throw new IllegalStateException("the fixture run wrote no report; the engine said: "
                        + results.allEvents().stream().map(Object::toString).limit(5).toList());
            }
            return new Run(results, reports.resolve("index.html"), reports.resolve("report.md"),
                    reports.resolve("metrics.json"), text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void deleteRecursively(Path directory) throws IOException {
        if (!Files.exists(directory)) {
            return;
        }
        try (Stream<Path> files = Files.walk(directory)) {
            for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(file);
            }
        }
    }
}
