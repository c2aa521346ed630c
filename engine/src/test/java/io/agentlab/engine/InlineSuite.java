package io.agentlab.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectFile;
import static org.junit.platform.testkit.engine.EventConditions.displayName;
import static org.junit.platform.testkit.engine.EventConditions.event;
import static org.junit.platform.testkit.engine.EventConditions.finishedWithFailure;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.message;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;

/**
 * A suite written inline in a test, run through EngineTestKit against a kernel factory (the reference, or a kernel
 * broken in one respect), and the checks such tests make on the outcome.
 */
final class InlineSuite {

    private static final AtomicInteger FILES = new AtomicInteger();

    private InlineSuite() {
    }

    /** Writes {@code yaml} as a suite file under {@code dir}, checks it is well formed, and runs it at speed 0. */
    static EngineExecutionResults run(Path dir, String yaml, Class<? extends KernelUnderTestFactory> factory) {
        try {
            int n = FILES.incrementAndGet();
            Path file = Files.writeString(dir.resolve("inline" + n + ".suite.yaml"), yaml);
            EngineTestKit.Builder kit = EngineTestKit.engine(ConformanceTestEngine.ENGINE_ID)
                    .selectors(selectFile(file.toFile()))
                    .configurationParameter(Constants.REPLAY_SPEED, "0")
                    .configurationParameter(Constants.CONTROL_RUNS, "false")
                    .configurationParameter(Constants.KERNEL_FACTORY, factory.getName())
                    .outputDirectoryCreator(new TempOutputDirectories(dir.resolve("out" + n)));
            assertThat(kit.discover().getDiscoveryIssues()).as("the suite is well formed").isEmpty();
            return kit.execute();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Every test that did not succeed, with its message. */
    static List<String> failures(EngineExecutionResults results) {
        return results.testEvents().finished().stream()
                .filter(e -> e.getRequiredPayload(TestExecutionResult.class).getStatus() != TestExecutionResult.Status.SUCCESSFUL)
                .map(e -> e.getTestDescriptor().getDisplayName() + ": " + e.getRequiredPayload(TestExecutionResult.class)
                        .getThrowable().map(Throwable::getMessage).orElse("?"))
                .toList();
    }

    /** The test named {@code node} ran and failed once, with a message holding every one of {@code parts}. */
    static void fails(EngineExecutionResults results, String node, String... parts) {
        assertThat(results.testEvents().finished().stream().map(Event::getTestDescriptor)
                .map(d -> d.getDisplayName())).contains(node);
        results.testEvents().assertThatEvents().as(node + " fails saying " + Arrays.toString(parts) + "; failures: "
                + failures(results)).haveExactly(1, event(displayName(node), finishedWithFailure(message(m ->
                Arrays.stream(parts).allMatch(m::contains)))));
    }
}
