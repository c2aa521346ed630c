package io.agentlab.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectFile;

import io.agentlab.kernel.api.BatchExecution;
import io.agentlab.kernel.api.BatchResult;
import io.agentlab.kernel.api.EventBatch;
import io.agentlab.kernel.api.EventDefinition;
import io.agentlab.kernel.api.EventInvocation;
import io.agentlab.kernel.api.EventKernel;
import io.agentlab.kernel.api.EventKernelFactory;
import io.agentlab.kernel.api.EventOutcome;
import io.agentlab.kernel.api.EventPlugin;
import io.agentlab.kernel.api.EventRequest;
import io.agentlab.kernel.api.EventResult;
import io.agentlab.kernel.api.EventTimings;
import io.agentlab.kernel.api.ResolutionReport;
import io.agentlab.kernel.reference.PolicyAggregator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;

/**
 * Verdicts that do not depend on luck (docs/limits-and-safety.md#no-silent-zero): a run whose selected suites execute
 * nothing fails, and the handler log is read only once the kernel says its handlers are done, however late they ran.
 */
class VerdictTrustTest {

    private static final String SUITE = """
            id: zero
            title: Nothing may run
            modes: [dual_agent]
            cases:
              - id: one
                clause: c1
                turns:
                  - user: mute it
                    reply: {visible: Muted., events: [{name: device.volume.adjust, arguments: {mode: mute}}]}
            """;

    @TempDir
    Path temp;

    private EngineTestKit.Builder kit() {
        return EngineTestKit.engine(ConformanceTestEngine.ENGINE_ID)
                .configurationParameter(Constants.REPLAY_SPEED, "0")
                .configurationParameter(Constants.CONTROL_RUNS, "false")
                .configurationParameter("agentlab.gates.enabled", "false")
                .outputDirectoryCreator(new TempOutputDirectories(temp.resolve("out")));
    }

    @Test
    @DisplayName("a selected suite the engine makes no test of (agentlab.modes) fails the run, naming the suite")
    void selectedButNothingRanFails() throws IOException {
        Path file = Files.writeString(temp.resolve("zero.suite.yaml"), SUITE);
        EngineExecutionResults results = kit().selectors(selectFile(file.toFile()))
                .configurationParameter(Constants.MODES, "chat_agent_tools").execute();

        results.testEvents().assertStatistics(stats -> stats.started(0));
        Event engine = results.containerEvents().finished().stream()
                .filter(event -> event.getTestDescriptor().getUniqueId().getSegments().size() == 1)
                .findFirst().orElseThrow();
        TestExecutionResult result = engine.getRequiredPayload(TestExecutionResult.class);
        assertThat(result.getStatus()).isEqualTo(TestExecutionResult.Status.FAILED);
        assertThat(result.getThrowable()).get().asString().contains("no conformance test was discovered")
                .contains("[zero]").contains("agentlab.modes");
    }

    @Test
    @DisplayName("a run that selects no suite at all (another engine's class) is not this engine's failure")
    void nothingSelectedIsNotAFailure() {
        EngineExecutionResults results = kit().selectors(selectClass(VerdictTrustTest.class)).execute();
        results.allEvents().assertStatistics(stats -> stats.failed(0));
    }

    @Test
    @DisplayName("a handler that runs only after the batch result is still seen: the log is read at quiescence")
    void lateHandlersAreCounted() throws IOException {
        Path file = Files.writeString(temp.resolve("late.suite.yaml"), """
                id: late
                title: Handlers that run after the result
                modes: [dual_agent]
                cases:
                  - id: counted
                    clause: c1
                    turns:
                      - user: mute it
                        reply: {visible: Muted., events: [{name: device.volume.adjust, arguments: {mode: mute}}]}
                        followUp: It took too long.
                        expect:
                          events: [{name: device.volume.adjust, status: timed_out}]
                          portCalls: {device.volume.adjust: 1}
                """);
        EngineExecutionResults results = kit().selectors(selectFile(file.toFile()))
                .configurationParameter(Constants.KERNEL_FACTORY, LateHandlerKernelFactory.class.getName())
                .execute();
        results.testEvents().assertStatistics(stats -> stats.started(1).succeeded(1));
    }

    /**
     * A kernel under test whose batch result completes at once (every event timed out), while the handlers run only
     * when someone asks for quiescence — the extreme of a busy machine, where a timed-out handler starts late.
     */
    public static final class LateHandlerKernelFactory implements KernelUnderTestFactory {
        @Override
        public List<EventPlugin> plugins() {
            return new ServiceLoaderKernelFactory().plugins();
        }

        @Override
        public EventKernelFactory kernels() {
            return setup -> new LateKernel(setup.definitions());
        }
    }

    private static final class LateKernel implements EventKernel {
        private final List<EventDefinition> definitions;

        LateKernel(List<EventDefinition> definitions) {
            this.definitions = List.copyOf(definitions);
        }

        @Override
        public List<EventDefinition> definitions() {
            return definitions;
        }

        @Override
        public Optional<EventDefinition> definition(String name) {
            return definitions.stream().filter(d -> d.name().equals(name)).findFirst();
        }

        @Override
        public BatchExecution submit(EventBatch batch) {
            List<EventResult> results = new ArrayList<>();
            for (EventRequest request : batch.requests()) {
                results.add(new EventResult(request.eventId(), request.name(), request.orderIndex(),
                        request.proposedArguments(), ResolutionReport.notAttempted(), new EventTimings(Duration.ZERO,
                        Optional.of(Duration.ZERO), Optional.empty(), Duration.ZERO),
                        new EventOutcome.TimedOut(Duration.ofMillis(1), EventOutcome.TimeoutScope.EVENT, true)));
            }
            BatchResult result = new BatchResult(results, new PolicyAggregator(4_000).decide(results,
                    this::definition, batch.turn().locale()), Duration.ZERO);
            CompletableFuture<Void> quiet = new CompletableFuture<>();
            AtomicBoolean started = new AtomicBoolean();
            return new BatchExecution() {
                @Override
                public CompletableFuture<BatchResult> result() {
                    return CompletableFuture.completedFuture(result);
                }

                @Override
                public void cancel() {
                }

                @Override
                public CompletableFuture<Void> quiescence() {
                    if (started.compareAndSet(false, true)) {
                        CompletableFuture.runAsync(() -> {
                            for (EventRequest request : batch.requests()) {
                                try {
                                    definition(request.name()).orElseThrow().handler().handle(new EventInvocation(
                                            request.eventId(), request.name(), request.proposedArguments(), "k",
                                            batch.turn(), 1));
                                } catch (Exception ignored) {
                                    // its outcome was decided already; only the call matters here
                                }
                            }
                        }).whenComplete((ignored, error) -> quiet.complete(null));
                    }
                    return quiet;
                }
            };
        }

        @Override
        public void close() {
        }
    }
}
