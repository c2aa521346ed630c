package io.agentlab.engine;

import static io.agentlab.engine.InlineSuite.fails;
import static io.agentlab.engine.InlineSuite.failures;
import static org.assertj.core.api.Assertions.assertThat;

import io.agentlab.kernel.api.BatchResult;
import io.agentlab.kernel.api.ContinuationDecision;
import io.agentlab.kernel.api.EventKernelFactory;
import io.agentlab.kernel.api.HandlerResult;
import io.agentlab.kernel.reference.ReferenceKernel;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.testkit.engine.EngineExecutionResults;

/**
 * The probe traits ({@code failureVisible}, {@code requiredFields}/{@code fallback}, outcome {@code throw},
 * {@code confirmation}, {@code resolves}, argument-derived {@code conflictKeys}, {@code awaits}) and the lower-bound
 * batch expectations ({@code startsBefore}, {@code minConcurrency}), each written in YAML alone, passing on the
 * reference kernel and failing, with a message naming expected against actual, on a kernel broken in exactly the
 * respect the trait exposes.
 */
class ProbeTraitsTest {

    @TempDir
    Path temp;

    private EngineExecutionResults run(String yaml, Class<? extends KernelUnderTestFactory> factory) {
        return InlineSuite.run(temp, yaml, factory);
    }

    private void reference(String yaml) {
        EngineExecutionResults results = run(yaml, ServiceLoaderKernelFactory.class);
        assertThat(failures(results)).as("the reference kernel passes").isEmpty();
        results.testEvents().assertStatistics(stats -> stats.started(3).succeeded(3));
    }

    /** One case {@code id} on {@code probes}, one turn {@code turn} (indented as a turn's keys). */
    private static String suite(String probes, String id, String clause, String turn) {
        return "id: traits\ntitle: Probe traits\nkernel: {events: [], batchDeadline: 5s}\nprobes:\n" + probes
                + "cases:\n  - id: " + id + "\n    clause: " + clause + "\n    turns:\n" + turn;
    }

    @Test
    @DisplayName("failureVisible: false keeps the failure message out of the follow-up; a kernel showing it fails notContains")
    void hiddenFailure() {
        String yaml = suite("  - {name: probe.secret, outcome: fail, failureVisible: false}\n", "hidden",
                "docs/design.md#kernel-definition hidden failures", """
                      - user: the secret thing
                        reply: {visible: Trying it., events: [{name: probe.secret}]}
                        followUp: That did not work.
                        expect:
                          followUpRequest:
                            results: [{event: probe.secret, status: failed, error: {code: probe_failed}}]
                            notContains: [failed as declared]
                """);
        reference(yaml);
        fails(run(yaml, ShowsHiddenFailures.class), "hidden [dual_agent]",
                "expected the follow-up request not to contain \"failed as declared\" but it did");
    }

    @Test
    @DisplayName("requiredFields with fallback: false asks with no EventAgent call; a kernel falling back anyway fails")
    void fallbackForbidden() {
        String yaml = suite("  - {name: probe.ask, requiredFields: [device], fallback: false}\n", "ask",
                "docs/design.md#kernel-fallback-bounded no fallback when forbidden", """
                      - user: dim it
                        reply: {visible: Dimming., events: [{name: probe.ask}]}
                        followUp: Which device?
                        expect:
                          events: [{name: probe.ask, status: needs_clarification}]
                          calls: {eventAgent: 0}
                """);
        reference(yaml);
        fails(run(yaml, FallsBackAlways.class), "ask [dual_agent]", "expected 0 event_agent call(s) but there were 1");
    }

    @Test
    @DisplayName("outcome throw: the event fails with handler_exception; a kernel swallowing the exception fails")
    void throwingHandler() {
        String yaml = suite("  - {name: probe.throws, outcome: throw}\n", "throws",
                "docs/design.md#safety-structured-failure a throw is a failure", """
                      - user: the throwing thing
                        reply: {visible: Trying it., events: [{name: probe.throws}]}
                        followUp: That did not work.
                        expect:
                          events: [{name: probe.throws, status: failed, reason: handler_exception}]
                """);
        reference(yaml);
        fails(run(yaml, SwallowsHandlerExceptions.class), "throws [dual_agent]",
                "event 1 (probe.throws): expected status failed but was succeeded");
    }

    @Test
    @DisplayName("confirmation: \"\" renders nothing, so ChatAgent phrases the success; a kernel swallowing it fails")
    void blankConfirmation() {
        String yaml = suite("  - {name: probe.note_blank, policy: template_follow_up, confirmation: \"\"}\n", "blank",
                "docs/design.md#policy-template-follow-up a blank template follows up", """
                      - user: note it
                        reply: {visible: Noting it., events: [{name: probe.note_blank}]}
                        followUp: Noted.
                        expect: {policy: follow_up, answers: 2}
                """);
        reference(yaml);
        fails(run(yaml, SwallowsBlankConfirmations.class), "blank [dual_agent]",
                "expected policy follow_up but was complete");
    }

    @Test
    @DisplayName("conflictKeys with {argument}: read from the final arguments; a kernel reading the proposal overlaps them")
    void conflictKeysFromArguments() {
        String yaml = suite("""
                  - {name: probe.dim_a, resolves: {device: kitchen}, conflictKeys: ["device:{device}"], awaits: [probe.dim_b], awaitsAtMost: 300ms}
                  - {name: probe.dim_b, resolves: {device: kitchen}, conflictKeys: ["device:{device}"]}
                """, "keys", "docs/design.md#batch-conflict-keys keys from the final arguments", """
                      - user: dim the kitchen twice over
                        reply: {visible: Dimming., events: [{name: probe.dim_a}, {name: probe.dim_b}]}
                        expect:
                          batch:
                            startsAfter: [{event: probe.dim_b, after: probe.dim_a}]
                """);
        reference(yaml);
        fails(run(yaml, KeysFromNoArguments.class), "keys [dual_agent]",
                "expected probe.dim_b to start after probe.dim_a returned, but it started while probe.dim_a was still running");
    }

    @Test
    @DisplayName("resolves: equal arguments naming no source are asked about; a kernel taking them for one request merges them")
    void resolvesWithoutSource() {
        String yaml = suite("  - {name: probe.memo, resolves: {title: milk}}\n", "memo",
                "docs/design.md#batch-duplicates-coalesced two requests stay two", """
                      - user: note milk, and note milk
                        reply: {visible: Noting., events: [{name: probe.memo}, {name: probe.memo}]}
                        followUp: Once or twice?
                        expect:
                          events:
                            - {name: probe.memo, status: succeeded, arguments: {title: milk}}
                            - {name: probe.memo, status: needs_clarification}
                """);
        reference(yaml);
        fails(run(yaml, NamesOneSource.class), "memo [dual_agent]",
                "event 2 (probe.memo): expected status needs_clarification but was deduplicated");
    }

    @Test
    @DisplayName("awaits and startsBefore: an event with free keys starts while a conflicting one waits; a kernel blocking it fails")
    void startsBefore() {
        String yaml = suite("""
                  - {name: probe.lamp_a, conflictKeys: [lamp], awaits: [probe.fast], timeout: 500ms}
                  - {name: probe.lamp_b, conflictKeys: [lamp]}
                  - {name: probe.fast}
                """, "overlap", "docs/design.md#batch-conflict-keys disjoint keys not blocked", """
                      - user: both lamps and the fast thing
                        reply: {visible: All three., events: [{name: probe.lamp_a}, {name: probe.lamp_b}, {name: probe.fast}]}
                        followUp: One lamp did not answer.
                        expect:
                          batch:
                            startsBefore: [{event: probe.fast, before: probe.lamp_a}]
                """);
        reference(yaml);
        fails(run(yaml, BlocksBehindKeys.class), "overlap [dual_agent]",
                "expected probe.fast to start before probe.lamp_a returned, but it started only after probe.lamp_a had "
                        + "returned");
    }

    @Test
    @DisplayName("awaits and minConcurrency: two probes awaiting each other run at once; a kernel running one at a time fails")
    void minConcurrency() {
        String yaml = suite("""
                  - {name: probe.pair_a, awaits: [probe.pair_b], timeout: 500ms}
                  - {name: probe.pair_b, awaits: [probe.pair_a], timeout: 500ms}
                """, "pair", "docs/design.md#batch-concurrency-limit two at once on the default limit", """
                      - user: both at once
                        reply: {visible: Both., events: [{name: probe.pair_a}, {name: probe.pair_b}]}
                        followUp: One did not answer.
                        expect:
                          batch:
                            minConcurrency: 2
                """);
        reference(yaml);
        fails(run(yaml, OneAtATime.class), "pair [dual_agent]",
                "expected at least 2 handler(s) at once but at most 1 ran together");
    }

    /** Shows every failure's message to ChatAgent, whatever the definition says. */
    public static final class ShowsHiddenFailures extends BrokenKernels.Broken {
        @Override
        public EventKernelFactory kernels() {
            return changingDefinitions(d -> d.toBuilder().failureVisibleToChatAgent(true).build());
        }
    }

    /** Allows the EventAgent fallback to every definition. */
    public static final class FallsBackAlways extends BrokenKernels.Broken {
        @Override
        public EventKernelFactory kernels() {
            return changingDefinitions(d -> d.toBuilder().fallbackAllowed(true).build());
        }
    }

    /** Reports a handler that throws as a success with an empty payload. */
    public static final class SwallowsHandlerExceptions extends BrokenKernels.Broken {
        @Override
        public EventKernelFactory kernels() {
            return changingDefinitions(d -> d.toBuilder().handler(invocation -> {
                try {
                    return d.handler().handle(invocation);
                } catch (RuntimeException e) {
                    return HandlerResult.success(Map.of());
                }
            }).build());
        }
    }

    /** Completes the turn where a follow-up was asked for, as if a blank confirmation had been one. */
    public static final class SwallowsBlankConfirmations extends BrokenKernels.Broken {
        @Override
        public EventKernelFactory kernels() {
            return changingResults(result -> result.decision() instanceof ContinuationDecision.FollowUp followUp
                    ? new BatchResult(result.results(), new ContinuationDecision.Complete(followUp.confirmations()),
                    result.wallTime()) : result);
        }
    }

    /** Derives conflict keys from no arguments, as from a dual_agent model's empty proposal. */
    public static final class KeysFromNoArguments extends BrokenKernels.Broken {
        @Override
        public EventKernelFactory kernels() {
            return changingDefinitions(d -> d.toBuilder().conflictKeys(arguments -> d.conflictKeys().keysFor(Map.of()))
                    .build());
        }
    }

    /** Names one source for every resolution, so two requests with equal arguments look like one. */
    public static final class NamesOneSource extends BrokenKernels.Broken {
        @Override
        public EventKernelFactory kernels() {
            return changingDefinitions(d -> d.toBuilder().resolver(input -> d.resolver().resolve(input)
                    .withSource("the same words")).build());
        }
    }

    /** Gives probe.fast the lamp key too, so it waits behind the lamps as a head-of-line-blocked queue would. */
    public static final class BlocksBehindKeys extends BrokenKernels.Broken {
        @Override
        public EventKernelFactory kernels() {
            return changingDefinitions(d -> d.name().equals("probe.fast")
                    ? d.toBuilder().conflictKeys(arguments -> Set.of("lamp")).build() : d);
        }
    }

    /** Runs one handler at a time, whatever the limit. */
    public static final class OneAtATime extends BrokenKernels.Broken {
        @Override
        public EventKernelFactory kernels() {
            return setup -> ReferenceKernel.factory().create(new EventKernelFactory.Setup(setup.definitions(),
                    setup.limits().withConcurrencyLimit(1), setup.fallback(), setup.fallbackTimeout()));
        }
    }
}
