package io.agentlab.engine;

import static io.agentlab.engine.InlineSuite.fails;
import static io.agentlab.engine.InlineSuite.failures;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.testkit.engine.EngineExecutionResults;

/**
 * Each thing the suite format can now say, written in YAML alone, passing on the reference kernel and failing, with a
 * message naming the clause and expected against actual, on a kernel or plugin broken in exactly that respect
 * ({@link BrokenKernels}).
 */
class SuiteFormatItemsTest {

    @TempDir
    Path temp;

    private EngineExecutionResults run(String yaml, Class<? extends KernelUnderTestFactory> factory) {
        return InlineSuite.run(temp, yaml, factory);
    }

    private EngineExecutionResults reference(String yaml, int tests) {
        EngineExecutionResults results = run(yaml, ServiceLoaderKernelFactory.class);
        assertThat(failures(results)).as("the reference kernel passes").isEmpty();
        results.testEvents().assertStatistics(stats -> stats.started(tests).succeeded(tests));
        return results;
    }

    private static final String CALENDAR = """
            kernel: {events: [calendar.schedule.create]}
            session: {timezone: Asia/Shanghai, clock: "2026-11-30T09:00:00+08:00"}
            """;

    @Test
    @DisplayName("retransmission: the re-sent turn is replayed with one side effect; without replay protection it runs twice")
    void retransmission() {
        String yaml = """
                id: retransmission
                title: Retransmission
                """ + CALENDAR + """
                cases:
                  - id: client-retry
                    clause: docs/design.md#batch-replay-scope a re-sent turn is replayed and creates one entry
                    turns:
                      - user: remind me tomorrow at 9am to call grandma
                        reply:
                          visible: Sure.
                          events:
                            - name: calendar.schedule.create
                              arguments: {title: call grandma, date: "2026-12-01", time: "09:00", timezone: Asia/Shanghai}
                        expect: {events: [{name: calendar.schedule.create, status: succeeded}]}
                      - retransmit: 1
                        expect:
                          events: [{name: calendar.schedule.create, status: replayed}]
                          portCalls: {calendar.schedule.create: 0}
                          portState: {calendar.schedule.create: {entries: [{title: call grandma, time: "09:00"}]}}
                """;
        reference(yaml, 3);
        EngineExecutionResults broken = run(yaml, BrokenKernels.NoReplayProtection.class);
        fails(broken, "client-retry [dual_agent]", "[docs/design.md#batch-replay-scope",
                "turn 2 (\"remind me tomorrow at 9am to call grandma\"), events at 18:11: event 1 "
                        + "(calendar.schedule.create): expected status replayed but was succeeded",
                "expected 0 port call(s) for calendar.schedule.create but there were 1",
                "calendar.schedule.create to hold", "entries: expected 1 item(s) but there were 2");
    }

    @Test
    @DisplayName("auditValid on a retransmission checks the run the turn produced (<turn>-r2), not the turn id")
    void auditValidOnRetransmission() {
        // docs/suite-format.md#retransmission: a re-sent turn is a new AG-UI run of the same turn, so ENDPOINT-03
        // must compare RUN_STARTED.runId with that run's id; the turn id would reject every retransmission
        String yaml = """
                id: retransmission-audit
                title: Retransmission audit
                """ + CALENDAR + """
                cases:
                  - id: client-retry-audit
                    clause: docs/design.md#audit-events a retransmission is a new run whose stream is valid AG-UI
                    turns:
                      - user: remind me tomorrow at 9am to call grandma
                        reply:
                          visible: Sure.
                          events:
                            - name: calendar.schedule.create
                              arguments: {title: call grandma, date: "2026-12-01", time: "09:00", timezone: Asia/Shanghai}
                        expect: {auditValid: true}
                      - retransmit: 1
                        expect:
                          events: [{name: calendar.schedule.create, status: replayed}]
                          auditValid: true
                """;
        reference(yaml, 3);
    }

    @Test
    @DisplayName("provider faults per call: HTTP status with headers, reset and malformed chunk after N events, "
            + "a stalled EventAgent that is never guessed around (a failed follow-up: historyAfterFailedTurn)")
    void providerFaults() {
        String yaml = """
                id: faults
                title: Provider faults per call
                kernel: {events: [calendar.schedule.create, knowledge.web.search]}
                session: {timezone: Asia/Shanghai, clock: "2026-11-30T09:00:00+08:00"}
                cases:
                  - id: chat-429-then-works
                    clause: docs/design.md#provider-fault-codes a rate limit with Retry-After is provider_http_429
                    turns:
                      - user: hello
                        reply: {visible: Hi!}
                        providerFaults: [{call: chat, http: {status: 429, headers: {Retry-After: "7"}}}]
                        expect: {error: provider_http_429, history: {added: [], size: 0}}
                      - user: hello
                        reply: {visible: Hi!}
                        expect: {answers: 1, history: {size: 2}}
                  - id: reset-and-malformed
                    clause: docs/design.md#provider-fault-codes a broken stream is an error code, never an answer
                    turns:
                      - user: hello
                        reply: {visible: "Hello there, how can I help?"}
                        providerFaults: [{call: chat, reset: {afterEvents: 2}}]
                        expect: {error: provider_connection, history: {added: []}}
                      - user: hello
                        reply: {visible: "Hello there, how can I help?"}
                        providerFaults: [{call: chat, malformedChunk: {afterEvents: 1}}]
                        expect: {error: provider_malformed_chunk, history: {added: []}}
                  - id: event-agent-stalls
                    clause: docs/design.md#kernel-clarification a stalled EventAgent leaves the title missing and asks
                    turns:
                      - user: remind me tomorrow at 9am
                        replyByMode:
                          dual_agent: {visible: Sure., events: [{name: calendar.schedule.create}]}
                          chat_agent_tools:
                            visible: Sure.
                            events:
                              - name: calendar.schedule.create
                                arguments: {date: "2026-12-01", time: "09:00", timezone: Asia/Shanghai}
                        eventAgent: {title: Reminder}
                        followUp: What should I remind you about?
                        providerFaults: [{call: eventAgent, stall: {afterEvents: 0}}]
                        expect:
                          events: [{name: calendar.schedule.create, status: needs_clarification}]
                          portState: {calendar.schedule.create: {entries: []}}
                """;
        reference(yaml, 9);
        EngineExecutionResults broken = run(yaml, BrokenKernels.GuessingFallback.class);
        fails(broken, "event-agent-stalls [chat_agent_tools]", "[docs/design.md#kernel-clarification",
                "expected status needs_clarification but was succeeded",
                "entries: expected 0 item(s) but there were 1");
        // A chat-call fault is the runtime's to handle, and the kernel under test never sees the turn: what shows the
        // case can fail is the same expectation against a provider that did not fail.
        // (without the stalled EventAgent case, whose stall is not what this run checks and costs a second a mode)
        EngineExecutionResults unfaulted = run(yaml.substring(0, yaml.indexOf("  - id: event-agent-stalls"))
                .replaceAll("providerFaults: \\[\\{call: chat, [^\n]*", "providerFaults: []"),
                ServiceLoaderKernelFactory.class);
        fails(unfaulted, "chat-429-then-works [dual_agent]", "[docs/design.md#provider-fault-codes",
                "expected error provider_http_429 but the turn ended with no error",
                "expected the turn to add 0 message(s) to the history [] but it added 2");
        fails(unfaulted, "reset-and-malformed [chat_agent_tools]",
                "expected error provider_connection but the turn ended with no error",
                "expected error provider_malformed_chunk but the turn ended with no error");
        // the index picks the call: a fault on a second EventAgent call of a turn that makes one is never injected
        fails(run(yaml.replace("{call: eventAgent, stall:", "{call: eventAgent, index: 2, stall:"),
                ServiceLoaderKernelFactory.class), "event-agent-stalls [dual_agent]",
                "the provider fault declared at 40:",
                "was never injected: the turn made no eventAgent call 2",
                "expected status needs_clarification but was succeeded");
    }

    @Test
    @DisplayName("a model naming an unknown event: rejected with reason unknown_event; the name is declared, typos still refused")
    void unknownEvent() {
        String yaml = """
                id: unknown
                title: Unknown events
                kernel: {events: [device.volume.adjust]}
                unknownEvents: [lamp.power.toggle]
                cases:
                  - id: made-up-event
                    clause: docs/design.md#kernel-unknown-event an unregistered name is rejected and nothing runs
                    turns:
                      - user: turn on the lamp
                        reply: {visible: Turning it on., events: [{name: lamp.power.toggle}]}
                        followUp: Sorry, I cannot control a lamp.
                        expect:
                          events: [{name: lamp.power.toggle, status: rejected, reason: unknown_event, resolution: not_attempted}]
                          policy: follow_up
                          portCalls: {device.volume.adjust: 0}
                """;
        reference(yaml, 3);
        fails(run(yaml, BrokenKernels.UnknownAsInvalid.class), "made-up-event [dual_agent]",
                "[docs/design.md#kernel-unknown-event", "event 1 (lamp.power.toggle): expected reason unknown_event "
                        + "but was invalid_arguments");
    }

    @Test
    @DisplayName("invalid tool-argument JSON: noted per event in tools mode, resolved from the words, parity kept")
    void invalidToolArguments() {
        String yaml = """
                id: bad-arguments
                title: Tool arguments that are not JSON
                kernel: {events: [device.volume.adjust]}
                cases:
                  - id: broken-json
                    clause: docs/design.md#provider-bad-tool-arguments arguments that are not JSON are never guessed
                    turns:
                      - user: set the volume to 25
                        reply: {visible: Volume 25., events: [{name: device.volume.adjust, arguments: {mode: absolute, value: 25}}]}
                        providerFaults: [{call: chat, invalidToolArguments: {event: 1, text: '{"mode": "absolute", "value": twenty'}}]
                        expect:
                          events: [{name: device.volume.adjust, arguments: {mode: absolute, value: 25}, status: succeeded}]
                        expectByMode:
                          chat_agent_tools: {events: [{name: device.volume.adjust, argumentsUnparsable: true}]}
                          dual_agent: {events: [{name: device.volume.adjust, argumentsUnparsable: false}]}
                """;
        reference(yaml, 3);
        // the same expectation against a tools-mode model that sent good JSON: the check sees the difference
        fails(run(yaml.replace("providerFaults: [{call: chat, invalidToolArguments: {event: 1, text: '{\"mode\": "
                + "\"absolute\", \"value\": twenty'}}]", "providerFaults: []"), ServiceLoaderKernelFactory.class),
                "broken-json [chat_agent_tools]", "expected the model's arguments text to be noted as not a JSON object");
    }

    @Test
    @DisplayName("alternatives: asked about or rejected, either holds; a plugin that clamps satisfies neither")
    void alternatives() {
        String yaml = """
                id: alternatives
                title: Either answer is right
                kernel: {events: [device.volume.adjust]}
                modes: [chat_agent_tools]
                cases:
                  - id: out-of-range
                    clause: docs/design.md#plugin-volume-range an absolute target outside 0..100 is asked about or rejected
                    turns:
                      - user: set the volume to 150
                        reply: {visible: Okay., events: [{name: device.volume.adjust, arguments: {mode: absolute, value: 150}}]}
                        followUp: I can only go up to 100.
                        expect:
                          anyOf:
                            - events: [{name: device.volume.adjust, status: needs_clarification}]
                            - events: [{name: device.volume.adjust, status: rejected, reason: invalid_arguments}]
                          portCalls: {device.volume.adjust: 0}
                """;
        reference(yaml, 1);
        fails(run(yaml, BrokenKernels.ClampingVolume.class), "out-of-range [chat_agent_tools]",
                "anyOf at 13:11: expected one of 2 alternatives to hold, but none did",
                "alternative 1: event 1 (device.volume.adjust): expected status needs_clarification but was succeeded",
                "alternative 2: event 1 (device.volume.adjust): expected status rejected but was succeeded");
    }

    @Test
    @DisplayName("bounds: at most one call to a side effect, a turn within a liveness bound")
    void bounds() {
        String yaml = """
                id: bounds
                title: Bounds instead of exact counts
                kernel: {events: [], batchDeadline: 3s}
                probes:
                  - {name: probe.write, outcome: fail_transient}
                  - {name: probe.stuck, outcome: hang, timeout: 150ms}
                cases:
                  - id: side-effect-at-most-once
                    clause: docs/design.md#safety-no-side-effect-retry a side-effecting event is never retried
                    turns:
                      - user: write it
                        reply: {visible: Writing., events: [{name: probe.write}]}
                        followUp: It did not work.
                        expect:
                          portCalls: {probe.write: {atMost: 1}}
                          answers: {atLeast: 1, atMost: 2}
                          calls: {followUp: {atMost: 1}}
                  - id: hang-bounded
                    clause: docs/design.md#safety-handler-timeout-bound a handler that never answers ends within its timeout
                    turns:
                      - user: do the stuck thing
                        reply: {visible: Trying., events: [{name: probe.stuck}]}
                        followUp: It did not answer.
                        expect:
                          events: [{name: probe.stuck, status: timed_out, reason: event}]
                          finishedWithin: 2500ms
                """;
        reference(yaml, 6);
        fails(run(yaml, BrokenKernels.RetriesSideEffects.class), "side-effect-at-most-once [dual_agent]",
                "expected at most 1 port call(s) for probe.write but there were 2");
        fails(run(yaml, BrokenKernels.IgnoresEventTimeouts.class), "hang-bounded [dual_agent]",
                "expected reason event but was batch", "expected the turn to finish within 2500 ms but it took");
    }

    @Test
    @DisplayName("bounds: the first answer is visible before a slow event finished; a model that withholds it fails")
    void firstVisibleBefore() {
        String yaml = """
                id: first-answer
                title: First answer first
                kernel: {events: []}
                probes: [{name: probe.lookup, latency: 100ms, readOnly: true, policy: llm_follow_up}]
                cases:
                  - id: answer-before-lookup
                    clause: docs/design.md#modes-first-answer-first the first answer never waits for event execution
                    turns:
                      - user: look it up
                        reply: {visible: Let me check., events: [{name: probe.lookup}]}
                        followUp: Here it is.
                        expect: {firstVisibleBefore: [probe.lookup]}
                """;
        reference(yaml, 3);
        fails(run(yaml.replace("visible: Let me check.", "visible: \"\""), ServiceLoaderKernelFactory.class),
                "answer-before-lookup [dual_agent]", "expected the first visible text before probe.lookup's handler "
                        + "returned, but the user saw nothing until after it returned (visible text \"",
                "Here it is.\")");
    }

    @Test
    @DisplayName("validity per event: \"30%\" is invalid as proposed and valid after normalization in tools mode")
    void validity() {
        String yaml = """
                id: validity
                title: Validity per event
                kernel: {events: [device.volume.adjust]}
                cases:
                  - id: percent
                    clause: docs/design.md#kernel-result each result says whether its arguments were valid before and after normalization
                    turns:
                      - user: set the volume to 30
                        replyByMode:
                          dual_agent: {visible: Volume 30., events: [{name: device.volume.adjust}]}
                          chat_agent_tools:
                            visible: Volume 30.
                            events: [{name: device.volume.adjust, arguments: {mode: absolute, value: "30%"}}]
                        expect:
                          events: [{name: device.volume.adjust, validAfterNormalization: true, resolution: deterministic}]
                        expectByMode:
                          chat_agent_tools: {events: [{name: device.volume.adjust, validAsProposed: false}]}
                          dual_agent: {events: [{name: device.volume.adjust, validAsProposed: true}]}
                """;
        reference(yaml, 3);
        fails(run(yaml, BrokenKernels.MisreportsValidity.class), "percent [chat_agent_tools]",
                "expected the arguments not to be valid as proposed (before normalization), but they were");
    }

    @Test
    @DisplayName("the follow-up request: one aggregated call carrying a correction and a search result")
    void followUpRequest() {
        String yaml = """
                id: follow-up-request
                title: What the follow-up carried
                kernel: {events: [device.volume.adjust, knowledge.web.search]}
                cases:
                  - id: correction-and-result
                    clause: docs/design.md#policy-mixed-batch one follow-up covers every result that needs it
                    turns:
                      - user: set the volume to 20 and search the weather in Paris
                        reply:
                          visible: On it.
                          events:
                            - {name: device.volume.adjust, arguments: {mode: absolute, value: 20}}
                            - {name: knowledge.web.search, arguments: {query: the weather in Paris}}
                        handlerFaults: {device.volume.adjust: {code: device_offline}}
                        followUp: The speaker is offline, but Paris is mild.
                        expect:
                          calls: {followUp: 1}
                          followUpRequest:
                            results:
                              - {event: device.volume.adjust, status: failed, error: {code: device_offline}}
                              - {event: knowledge.web.search, status: succeeded, result: {}}
                            contains: [device_offline]
                """;
        reference(yaml, 3);
        fails(run(yaml, BrokenKernels.DropsFollowUpResults.class), "correction-and-result [dual_agent]",
                "expected the follow-up request to carry", "results: expected 2 item(s) but there were 1");
    }

    @Test
    @DisplayName("the history after a failed follow-up: the user's words and the first answer, nothing half-written")
    void historyAfterFailedTurn() {
        String yaml = """
                id: history
                title: History after a failed turn
                kernel: {events: [knowledge.web.search]}
                cases:
                  - id: follow-up-fails
                    clause: docs/design.md#safety-fallback-failure-contained a failed follow-up never corrupts the history
                    turns:
                      - user: search the weather in Paris
                        reply:
                          visible: Let me look that up.
                          events: [{name: knowledge.web.search, arguments: {query: the weather in Paris}}]
                        followUp: It is mild.
                        providerFaults: [{call: followUp, http: {status: 503, headers: {Retry-After: "1"}}}]
                        expect:
                          error: provider_http_503
                          history:
                            added: [{role: user, text: search the weather in Paris}, {role: assistant, text: Let me look that up.}]
                """;
        reference(yaml, 3);
        fails(run(yaml, BrokenKernels.AnnouncesBeforeFollowUp.class), "follow-up-fails [dual_agent]",
                "expected the turn to add 2 message(s) to the history", "but it added 3",
                "assistant \"All done.\"");
    }

    @Test
    @DisplayName("port state: two calendar entries exist, at these times; an adapter ignoring the zone stores others")
    void portState() {
        String yaml = """
                id: port-state
                title: Port state after the turn
                """ + CALENDAR + """
                cases:
                  - id: two-entries
                    clause: docs/design.md#plugin-schedule-port a local time is interpreted in its own zone
                    turns:
                      - user: remind me tomorrow at 9am to call grandma
                        reply: {visible: Sure., events: [{name: calendar.schedule.create}]}
                      - user: remind me tomorrow at 10am to water the plants
                        reply: {visible: Sure., events: [{name: calendar.schedule.create}]}
                        expect:
                          portCalls: {calendar.schedule.create: 1}
                          portState:
                            calendar.schedule.create:
                              entries:
                                - {title: call grandma, date: "2026-12-01", time: "09:00"}
                                - {title: water the plants, date: "2026-12-01", time: "10:00"}
                """;
        reference(yaml, 3);
        fails(run(yaml, BrokenKernels.UtcCalendar.class), "two-entries [dual_agent]",
                "[docs/design.md#plugin-schedule-port", "expected the port of calendar.schedule.create to hold",
                "entries[0].time: expected \"09:00\" but was \"17:00\"");
    }

    @Test
    @DisplayName("parity with free text: a declared normalization or ignore per argument, and nothing else hidden")
    void parityWithFreeText() {
        String yaml = """
                id: free-text
                title: Parity with free text
                kernel: {events: [calendar.schedule.create, knowledge.web.search]}
                session: {timezone: Asia/Shanghai, clock: "2026-11-30T09:00:00+08:00"}
                cases:
                  - id: worded-differently
                    clause: docs/design.md#modes-parity free text may be worded differently; the batch may not differ
                    parity:
                      calendar.schedule.create: {title: [lowercase, punctuation]}
                      knowledge.web.search: {query: ignore}
                    turns:
                      - user: remind me tomorrow at 9am to call grandma and search the weather in Paris
                        replyByMode:
                          dual_agent:
                            visible: On it.
                            events: [{name: calendar.schedule.create}, {name: knowledge.web.search}]
                          chat_agent_tools:
                            visible: On it.
                            events:
                              - {name: calendar.schedule.create, arguments: {title: Call Grandma!}}
                              - {name: knowledge.web.search, arguments: {query: Paris weather today}}
                        followUp: And Paris is mild.
                        expect:
                          events:
                            - {name: calendar.schedule.create, arguments: {date: "2026-12-01", time: "09:00"}, status: succeeded}
                            - {name: knowledge.web.search, status: succeeded}
                """;
        reference(yaml, 3);
        EngineExecutionResults undeclared = run(yaml.replace("""
                    parity:
                      calendar.schedule.create: {title: [lowercase, punctuation]}
                      knowledge.web.search: {query: ignore}
                """, ""), ServiceLoaderKernelFactory.class);
        fails(undeclared, "worded-differently [parity]", "the modes disagree", "\"title\":\"call grandma\"",
                "\"title\":\"Call Grandma!\"");
        fails(run(yaml, BrokenKernels.ToolsModeSkipsResolver.class), "worded-differently [parity]",
                "the modes disagree", "calendar.schedule.create {\"title\":\"call grandma\"} -> needs_clarification",
                "knowledge.web.search {} -> succeeded");
    }

    @Test
    @DisplayName("parity: an ignored argument one mode gives and the other leaves out is no difference; unignored it is")
    void parityIgnoresPresence() {
        String yaml = """
                id: presence
                title: Parity when one mode gives an argument the other leaves out
                kernel: {events: [knowledge.web.search]}
                cases:
                  - id: one-mode-gives-max-results
                    clause: docs/design.md#modes-parity an ignored argument is ignored whole, its presence too
                    parity:
                      knowledge.web.search: {query: ignore, max_results: ignore}
                    turns:
                      - user: search the weather in Paris
                        replyByMode:
                          dual_agent:
                            visible: Looking.
                            events: [{name: knowledge.web.search}]
                          chat_agent_tools:
                            visible: Looking.
                            events:
                              - {name: knowledge.web.search, arguments: {query: Paris weather, max_results: 3}}
                        followUp: It is mild.
                        expect:
                          events:
                            - {name: knowledge.web.search, status: succeeded}
                """;
        reference(yaml, 3);
        fails(run(yaml.replace(", max_results: ignore", ""), ServiceLoaderKernelFactory.class),
                "one-mode-gives-max-results [parity]", "the modes disagree", "\"max_results\":3");
    }

    @Test
    @DisplayName("duplicateOf: a deduplicated result names the earlier event it duplicates; naming itself fails")
    void duplicateOf() {
        String yaml = """
                id: duplicate-of
                title: Which event a duplicate duplicates
                kernel: {events: []}
                probes: [{name: probe.fast}]
                cases:
                  - id: names-the-first
                    clause: docs/design.md#batch-duplicates-coalesced a later copy reports the first one's outcome
                    turns:
                      - user: fast twice
                        reply: {visible: Twice., events: [{name: probe.fast}, {name: probe.fast}]}
                        expect:
                          events:
                            - {name: probe.fast, status: succeeded}
                            - {name: probe.fast, status: deduplicated, duplicateOf: 1}
                """;
        reference(yaml, 3);
        EngineExecutionResults broken = run(yaml, BrokenKernels.DeduplicatedNamesItself.class);
        fails(broken, "names-the-first [dual_agent]", "[docs/design.md#batch-duplicates-coalesced",
                "event 2 (probe.fast): expected it to duplicate event 1 (", ") but it names ", ", itself");
        fails(broken, "names-the-first [chat_agent_tools]", "event 2 (probe.fast): expected it to duplicate event 1");
    }

    @Test
    @DisplayName("auditToolCalls: what the AG-UI stream says of each event, on the reference runtime in both modes")
    void auditToolCalls() {
        // the red side (a stream saying the wrong thing) is AuditToolCallsExpectationTest: the runtime writes the
        // stream, and no kernel under test can make it lie
        String yaml = """
                id: audit-tool-calls
                title: What the tool calls say
                kernel: {events: [device.volume.adjust]}
                probes: [{name: probe.fast}]
                cases:
                  - id: meaning
                    clause: docs/design.md#audit-failure-result each result reads as its event ended
                    turns:
                      - user: set the volume to 30
                        reply:
                          visible: Volume 30.
                          events:
                            - {name: device.volume.adjust, arguments: {mode: absolute, value: 30}}
                            - {name: probe.fast}
                            - {name: probe.fast}
                        expect:
                          auditToolCalls:
                            - {name: device.volume.adjust, arguments: {mode: absolute, value: 30}, status: success}
                            - {name: probe.fast, status: success, error: false}
                            - {name: probe.fast, status: success, error: false}
                """;
        reference(yaml, 3);
        fails(run(yaml.replace("status: success}", "status: failure}"), ServiceLoaderKernelFactory.class),
                "meaning [dual_agent]", "auditToolCalls at ", "tool call 1 (device.volume.adjust, ",
                "expected TOOL_CALL_RESULT status failure but was success");
    }

    @Test
    @DisplayName("interrupt: the user interrupts the turn while its event runs; an interruption that never came fails")
    void interrupt() {
        String yaml = """
                id: interrupt
                title: Interrupted while the events run
                kernel: {events: []}
                probes: [{name: probe.stuck, outcome: hang, timeout: 10s}, {name: probe.fast}]
                cases:
                  - id: barge-in
                    clause: docs/design.md#audit-run-canceled an interrupted turn ends cancelled, its stream valid
                    turns:
                      - user: wait for it
                        reply: {visible: Waiting., events: [{name: probe.stuck}]}
                        interrupt: {whileRunning: probe.stuck}
                        expect: {error: RUN_CANCELED, auditValid: true, portCalls: {probe.stuck: 1}}
                      - user: fast
                        reply: {visible: Done., events: [{name: probe.fast}]}
                        expect: {events: [{name: probe.fast, status: succeeded}], auditValid: true}
                """;
        reference(yaml, 3);
        EngineExecutionResults never = run(yaml.replace("interrupt: {whileRunning: probe.stuck}",
                "interrupt: {whileRunning: probe.fast}").replace("probe.stuck, outcome: hang, timeout: 10s",
                "probe.stuck"), ServiceLoaderKernelFactory.class);
        fails(never, "barge-in [dual_agent]", "the interruption declared at ", "never happened: the turn ended "
                + "before a handler of probe.fast started");
    }
}
