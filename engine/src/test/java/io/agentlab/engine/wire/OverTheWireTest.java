package io.agentlab.engine.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectFile;

import io.agentlab.engine.ConformanceTestEngine;
import io.agentlab.engine.Constants;
import io.agentlab.engine.internal.wire.LoopbackPorts;
import io.agentlab.engine.internal.wire.RuntimeProcess;
import io.agentlab.runtime.service.RuntimeService;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;

/**
 * The engine judges a runtime over the wire (docs/wire.md): the reference service, started by command with the test's
 * class path, runs the sample suites and gets the verdicts the in-process kernel gets.
 */
class OverTheWireTest {

    @TempDir
    Path temp;

    /** The reference service started as a process, as an operator's command line would start it. */
    static String serviceCommand() {
        return javaCommand(RuntimeService.class);
    }

    /**
     * A command line that runs {@code main} on this test's class path, with the options of a short-lived command line
     * JVM (bin/agentlab's): C2 and G1's threads cost the build's cores more than they save in a process that lives
     * seconds (docs/performance.md#build-time).
     */
    static String javaCommand(Class<?> main) {
        return "\"" + Path.of(System.getProperty("java.home"), "bin", "java") + "\" -XX:TieredStopAtLevel=1 "
                + "-XX:+UseSerialGC -Xshare:auto -cp \"" + System.getProperty("java.class.path") + "\" "
                + main.getName();
    }

    private EngineExecutionResults run(String suite, boolean wire) {
        EngineTestKit.Builder kit = EngineTestKit.engine(ConformanceTestEngine.ENGINE_ID)
                .configurationParameter(Constants.REPLAY_SPEED, "0")
                .configurationParameter(Constants.CONTROL_RUNS, "false")
                .configurationParameter("agentlab.gates.enabled", "false")
                .configurationParameter(Constants.REPORT_DIRECTORY, temp.resolve(wire ? "wire" : "local").toString())
                .selectors(selectFile(Path.of("src/test/resources/sample-suites", suite).toFile()));
        if (wire) {
            kit.configurationParameter(Constants.RUNTIME_COMMAND, serviceCommand());
        }
        return kit.execute();
    }

    /** Each test's name and verdict. */
    private static List<String> verdicts(EngineExecutionResults results) {
        return results.testEvents().finished().stream().map(OverTheWireTest::verdict).sorted()
                .collect(Collectors.toList());
    }

    private static String verdict(Event event) {
        TestExecutionResult result = event.getRequiredPayload(TestExecutionResult.class);
        return event.getTestDescriptor().getUniqueId() + " " + result.getStatus()
                + result.getThrowable().map(t -> " " + t.getMessage()).orElse("");
    }

    @org.junit.jupiter.params.ParameterizedTest(name = "{0}")
    @org.junit.jupiter.params.provider.ValueSource(strings = {"volume.suite.yaml", "batch.suite.yaml",
            "search.suite.yaml"})
    @DisplayName("a sample suite over the wire against the reference service: the in-process verdicts")
    void sameVerdicts(String suite) throws java.io.IOException {
        List<String> local = verdicts(run(suite, false));
        List<String> wire = verdicts(run(suite, true));
        assertThat(local).isNotEmpty();
        assertThat(wire).isEqualTo(local);
        assertThat(java.nio.file.Files.readString(temp.resolve("wire/runtime.log")))
                .contains("agentlab runtime service (agentlab-wire/1) listening on http://127.0.0.1:");
    }

    @Test
    @DisplayName("attach (docs/wire.md#attach): a service started beforehand with the fixed provider and ports URLs "
            + "gets the in-process verdicts (red: the fixed provider port ignored)")
    void attachWithFixedPorts() throws Exception {
        // chosen as the kit chooses a started runtime's port: below the ephemeral range, which the other test JVMs'
        // servers and connections draw from (docs/wire.md#start-up)
        java.util.Set<Integer> three = new java.util.LinkedHashSet<>();
        while (three.size() < 3) {
            three.add(LoopbackPorts.unassigned()); // three draws may repeat one: then another
        }
        java.util.Iterator<Integer> drawn = three.iterator();
        int provider = drawn.next();
        int ports = drawn.next();
        int runtime = drawn.next();
        ProcessBuilder builder = new ProcessBuilder(RuntimeProcess.split(serviceCommand()))
                .redirectErrorStream(true).redirectOutput(temp.resolve("attached.log").toFile());
        builder.environment().put("AGENTLAB_PROVIDER_BASE_URL", "http://127.0.0.1:" + provider + "/v1");
        builder.environment().put("AGENTLAB_PROVIDER_API_KEY", "agentlab-replay");
        builder.environment().put("AGENTLAB_PORTS_URL", "http://127.0.0.1:" + ports + "/ports");
        builder.environment().put("AGENTLAB_RUNTIME_PORT", Integer.toString(runtime));
        Process service = builder.start();
        try {
            // the engine's ready probe waits for the service (docs/wire.md#start-up): no sleep here
            EngineExecutionResults attached = EngineTestKit.engine(ConformanceTestEngine.ENGINE_ID)
                    .configurationParameter(Constants.REPLAY_SPEED, "0")
                    .configurationParameter(Constants.CONTROL_RUNS, "false")
                    .configurationParameter("agentlab.gates.enabled", "false")
                    .configurationParameter(Constants.REPORT_DIRECTORY, temp.resolve("attached").toString())
                    .configurationParameter(Constants.RUNTIME_URL, "http://127.0.0.1:" + runtime)
                    .configurationParameter(Constants.RUNTIME_PROVIDER_PORT, Integer.toString(provider))
                    .configurationParameter(Constants.RUNTIME_PORTS_PORT, Integer.toString(ports))
                    .selectors(selectFile(Path.of("src/test/resources/sample-suites/volume.suite.yaml").toFile()))
                    .execute();
            assertThat(verdicts(attached)).isEqualTo(verdicts(run("volume.suite.yaml", false)));
        } finally {
            service.destroy();
            service.waitFor();
        }
    }
}
