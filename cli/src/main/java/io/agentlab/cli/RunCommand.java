package io.agentlab.cli;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClasspathResource;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectDirectory;

import io.agentlab.engine.ConformanceSettings;
import io.agentlab.engine.ConformanceTestEngine;
import io.agentlab.engine.gates.Gates;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.junit.platform.engine.DiscoverySelector;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.launcher.EngineFilter;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code agentlab run}: the suites through the JUnit Launcher and the conformance engine; prints progress, every
 * failure, the mode comparison and the report's path. Exit code 0 when every case, parity node and gate passed, 1
 * otherwise, 2 on bad usage.
 */
@Command(name = "run", mixinStandardHelpOptions = true,
        description = "Run conformance suites in both modes and print the comparison (default: the shipped suites).")
final class RunCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--suites", paramLabel = "DIR|classpath:FOLDER",
            description = "Suite folders to run (repeatable); default classpath:agentlab/suites, the shipped suites.")
    List<String> suites = new ArrayList<>(List.of("classpath:agentlab/suites"));

    @Option(names = "--modes", split = ",", description = "Modes to run; default dual_agent,chat_agent_tools.")
    List<String> modes = new ArrayList<>(List.of("dual_agent", "chat_agent_tools"));

    @Option(names = "--provider", description = "recorded (default), synthesized or live.")
    String provider = "recorded";

    @Option(names = "--speed", description = "Replay speed: 1.0 faithful (default), 0 as fast as possible.")
    double speed = 1.0;

    @Option(names = "--report", description = "Report folder (metrics.json, report.md, index.html); "
            + "default agentlab-report.")
    Path report = Path.of("agentlab-report");

    @Option(names = "--live-base-url", description = "The live provider's /v1 URL (--provider live).")
    String liveBaseUrl;

    @Option(names = "--live-api-key-env", description = "Environment variable holding the live key; "
            + "default AGENTLAB_API_KEY.")
    String liveApiKeyEnv = "AGENTLAB_API_KEY";

    @Option(names = "--no-gates", description = "Skip the gates that run after the suites.")
    boolean noGates;

    @Option(names = "--baseline", description = "A baseline file the gates compare against.")
    Path baseline;

    @Option(names = "--config", paramLabel = "KEY=VALUE", description = "Any other agentlab.* parameter (repeatable).")
    List<String> config = new ArrayList<>();

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        List<DiscoverySelector> selectors = new ArrayList<>();
        for (String suite : suites) {
            selectors.add(suite.startsWith("classpath:") ? selectClasspathResource(suite.substring("classpath:".length()))
                    : selectDirectory(suite));
        }
        LauncherDiscoveryRequestBuilder request = LauncherDiscoveryRequestBuilder.request().selectors(selectors)
                .filters(EngineFilter.includeEngines(ConformanceTestEngine.ENGINE_ID))
                .configurationParameter(ConformanceSettings.MODES, String.join(",", modes))
                .configurationParameter(ConformanceSettings.PROVIDER, provider)
                .configurationParameter(ConformanceSettings.REPLAY_SPEED, Double.toString(speed))
                .configurationParameter(ConformanceSettings.REPORT_DIRECTORY, report.toString())
                .configurationParameter(ConformanceSettings.LIVE_API_KEY_ENV, liveApiKeyEnv)
                .configurationParameter(Gates.ENABLED, Boolean.toString(!noGates))
                .configurationParameter("junit.platform.reporting.output.dir", report.resolve("junit").toString());
        if (liveBaseUrl != null) {
            request.configurationParameter(ConformanceSettings.LIVE_BASE_URL, liveBaseUrl);
        }
        if (baseline != null) {
            request.configurationParameter(Gates.BASELINE_FILE, baseline.toString());
        }
        for (String pair : config) {
            int equals = pair.indexOf('=');
            if (equals < 1) {
                spec.commandLine().getErr().println("--config expects KEY=VALUE, got '" + pair + "'");
                return 2;
            }
            request.configurationParameter(pair.substring(0, equals), pair.substring(equals + 1));
        }
        LauncherDiscoveryRequest discovery = request.build();
        SummaryGeneratingListener summary = new SummaryGeneratingListener();
        TestExecutionListener progress = new TestExecutionListener() {
            @Override
            public void executionFinished(TestIdentifier test, TestExecutionResult result) {
                if (test.isTest()) {
                    out.println((result.getStatus() == TestExecutionResult.Status.SUCCESSFUL ? "  ok    "
                            : "  FAIL  ") + test.getDisplayName());
                    out.flush();
                }
            }

            @Override
            public void executionSkipped(TestIdentifier test, String reason) {
                out.println("  skip  " + test.getDisplayName() + ": " + reason);
            }
        };
        out.println("agentlab run: " + String.join(", ", suites) + " in " + String.join(", ", modes) + " ("
                + provider + ", speed " + speed + ")");
        LauncherFactory.create().execute(discovery, progress, summary);
        TestExecutionSummary result = summary.getSummary();
        for (TestExecutionSummary.Failure failure : result.getFailures()) {
            out.println("\nFAILED " + failure.getTestIdentifier().getDisplayName() + "\n"
                    + failure.getException().getMessage());
        }
        out.printf("%n%d tests: %d passed, %d failed, %d skipped; report in %s%n", result.getTestsFoundCount(),
                result.getTestsSucceededCount(), result.getTotalFailureCount(), result.getTestsSkippedCount(),
                report.toAbsolutePath());
        out.flush();
        return result.getTotalFailureCount() == 0 && result.getTestsFoundCount() > 0 ? 0 : 1;
    }
}
